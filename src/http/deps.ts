import type { Jobs } from '../jobs/index.ts';
import type { Monitors } from '../monitors/index.ts';
import type { Services } from '../ops/index.ts';
import type { SessionManager } from '../sessions/index.ts';
import type { KeyStore, LedgerStore } from '../store/index.ts';

/** The operations' services plus what only a serving process runs: remote browser sessions. */
export type ServingServices = Services & { sessions: SessionManager };

/** What route plugins receive: the operations' services and the stores the HTTP layer touches. */
export interface RouteDeps {
  services: ServingServices;
  keys: KeyStore;
  ledger: LedgerStore;
  jobs: Jobs;
  monitors: Monitors;
}
