import { join } from 'node:path';

/**
 * What keeps one kind of per-user folder under the data folder, `<data>/<kind>/<user>/<item>`
 * (sessions' saved files, profiles, recordings): where each user's and each item's folder is.
 */
export abstract class UserFolders {
  protected readonly root: string;

  constructor(dataDir: string, kind: string) {
    this.root = join(dataDir, kind);
  }

  /** The user's folder, holding one folder per item. */
  protected ofUser(userId: string): string {
    return join(this.root, userId);
  }

  /** One item's folder (a session's, a profile's). */
  protected of(userId: string, item: string): string {
    return join(this.root, userId, item);
  }
}
