/** Times are epoch milliseconds (bigint in Postgres, integer in SQLite) so both backends agree. */
export interface UsersTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  /** First characters of the key, shown by `keys list` so a user can tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface UsageLedgerTable {
  id: string;
  user_id: string;
  operation: string;
  units: number;
  cost_micros: number;
  /** What the charge belongs to: a job id, a session id, or null for a synchronous call. */
  ref: string | null;
  created_at: number;
}

export interface Tables {
  users: UsersTable;
  api_keys: ApiKeysTable;
  usage_ledger: UsageLedgerTable;
}
