export { openDatabase, type Database } from './db.ts';
export { KeyStore, type AuthenticatedUser } from './keys.ts';
export { DAY_MS, LedgerStore, type LedgerEntry, type LedgerRow, type UsageTotal } from './ledger.ts';
export type { Tables } from './schema.ts';
export { SessionStore, type SessionRow } from './sessions.ts';
