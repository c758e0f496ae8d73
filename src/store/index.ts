export { openDatabase, type Backend, type Database } from './db.ts';
export { KeyStore, hashKey, type AuthenticatedUser, type KeyInfo } from './keys.ts';
export { DAY_MS, LedgerStore, type LedgerEntry, type LedgerRow, type UsageTotal } from './ledger.ts';
export type { Tables } from './schema.ts';
export { SessionStore, type SessionRow, type SessionPatch } from './sessions.ts';
