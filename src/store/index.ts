export { type Database, openDatabase } from './db.ts';
export { type AuthenticatedUser, KeyStore } from './keys.ts';
export {
  DAY_MS,
  type LedgerEntry,
  type LedgerRow,
  LedgerStore,
  type UsageTotal,
} from './ledger.ts';
export { usersRows } from './owned.ts';
export { newestPage } from './paging.ts';
export { type ProfileRow, ProfileStore } from './profiles.ts';
export type { Tables } from './schema.ts';
export { type SessionRow, SessionStore } from './sessions.ts';
