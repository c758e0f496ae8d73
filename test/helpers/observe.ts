import type { SeenRequest, StandInServer } from '../fixtures/stand-in-server.ts';
import { TEST_KEY, type TestServer } from './server.ts';

export interface Charge {
  operation: string;
  units: number;
  costMicros: number;
}

/** Runs `call` and returns what it answered, the model requests it caused and the ledger rows it wrote, by operation. */
export async function observed<T>(
  server: TestServer,
  model: StandInServer,
  call: () => Promise<T>,
  key = TEST_KEY,
): Promise<{ out: T; llm: SeenRequest[]; rows: Charge[] }> {
  const ledgerBefore = (await server.ledger(key)).length;
  const llmBefore = model.requests.length;
  const out = await call();
  const rows = (await server.ledger(key))
    .slice(ledgerBefore)
    .map(({ operation, units, costMicros }) => ({ operation, units, costMicros }));
  rows.sort((a, b) => a.operation.localeCompare(b.operation));
  return { out, llm: model.requests.slice(llmBefore), rows };
}
