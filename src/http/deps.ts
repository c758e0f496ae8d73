import type { Jobs } from '../jobs/index.ts';
import type { Services } from '../ops/index.ts';
import type { KeyStore, LedgerStore } from '../store/index.ts';

/** What route plugins receive: the operations' services and the stores the HTTP layer touches. */
export interface RouteDeps {
  services: Services;
  keys: KeyStore;
  ledger: LedgerStore;
  jobs: Jobs;
}
