import { join } from 'node:path';

/** One kind of per-user folder under the data folder: `<data>/<kind>/<user>/<item>`. */
export class UserFolders {
  readonly root: string;

  constructor(dataDir: string, kind: string) {
    this.root = join(dataDir, kind);
  }

  /** The user's folder, holding one folder per item. */
  ofUser(userId: string): string {
    return join(this.root, userId);
  }

  /** One item's folder (a session's, a profile's). */
  of(userId: string, item: string): string {
    return join(this.root, userId, item);
  }
}
