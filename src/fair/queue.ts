/**
 * Items waiting by key, served round robin across keys and first in, first out within a key: a
 * key with a long backlog delays another key's first item by one item, however long its backlog.
 * A key that comes to wait joins the turn ahead of every key served since it last was, so a key
 * new to the line (or long unserved) is served next and a caller with one item at a time waits
 * behind no one's backlog. Ahead of those, not at the front: a key whose items each come back the
 * moment the one before is served (two documents of one user, a page at a time) would otherwise
 * be at the front every time and keep a waiting key out for good. Hand-written: the queues on npm
 * (p-queue, fastq) keep one line and priorities, not a turn per key.
 */
export class FairQueue<T> {
  /** Keys with items, the next to serve first. */
  readonly #ring: string[] = [];
  readonly #items = new Map<string, T[]>();
  /** When each key was last served, by a count of items served; a key never served has none. */
  readonly #served = new Map<string, number>();
  #serves = 0;
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(key: string, item: T): void {
    const items = this.#items.get(key);
    if (items) items.push(item);
    else {
      this.#items.set(key, [item]);
      const last = this.#served.get(key) ?? -1;
      const at = this.#ring.findIndex((k) => (this.#served.get(k) ?? -1) >= last);
      if (at < 0) this.#ring.push(key);
      else this.#ring.splice(at, 0, key);
    }
    this.#size++;
  }

  /**
   * The first item of the first key in turn that `eligible` accepts (all by default); that key
   * then goes to the back of the turn.
   */
  shift(eligible: (key: string) => boolean = () => true): { key: string; item: T } | undefined {
    const at = this.#ring.findIndex(eligible);
    if (at < 0) return undefined;
    const key = this.#ring[at]!;
    const items = this.#items.get(key)!;
    const item = items.shift()!;
    this.#size--;
    this.#served.set(key, ++this.#serves);
    this.#ring.splice(at, 1);
    if (items.length > 0) this.#ring.push(key);
    else this.#items.delete(key);
    return { key, item };
  }

  /** Takes `item` out of line (its caller gave up); false when it was not waiting. */
  remove(key: string, item: T): boolean {
    const items = this.#items.get(key);
    const at = items ? items.indexOf(item) : -1;
    if (!items || at < 0) return false;
    items.splice(at, 1);
    this.#size--;
    if (items.length === 0) {
      this.#items.delete(key);
      this.#ring.splice(this.#ring.indexOf(key), 1);
    }
    return true;
  }

  /** Keys that have items waiting. */
  keys(): readonly string[] {
    return this.#ring;
  }
}
