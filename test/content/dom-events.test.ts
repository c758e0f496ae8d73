import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';

// linkedom is patched (patches/linkedom+0.18.12.patch) to make a node's listener map with its
// first listener; events must behave as before on nodes with and without listeners.
it('dispatches to listeners added later, and removing a listener never added is harmless', () => {
  const { document, Event } = parseHTML(
    '<html><body><main><p id="a">one</p><p id="b">two</p></main></body></html>',
  );
  const a = document.getElementById('a')!;
  const b = document.getElementById('b')!;
  expect(() => b.removeEventListener('click', () => {})).not.toThrow();

  const seen: string[] = [];
  const onClick = (e: Event) =>
    seen.push(`${(e.currentTarget as Element).id || (e.currentTarget as Element).tagName}`);
  a.addEventListener('click', onClick);
  document.querySelector('main')!.addEventListener('click', onClick);
  a.dispatchEvent(new Event('click', { bubbles: true }));
  b.dispatchEvent(new Event('click', { bubbles: true }));
  expect(seen).toEqual(['a', 'MAIN', 'MAIN']);

  a.removeEventListener('click', onClick);
  a.dispatchEvent(new Event('click'));
  expect(seen).toHaveLength(3);
});
