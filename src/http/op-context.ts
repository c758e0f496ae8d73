import type { FastifyReply, FastifyRequest } from 'fastify';
import { Meter } from '../billing/index.ts';
import { countCharges } from '../metrics/index.ts';
import type { OpContext, Services } from '../ops/index.ts';
import type { LedgerStore } from '../store/index.ts';

/**
 * Runs an operation for a request: the work stops when the client goes away, and every charge
 * the operation made is written to the ledger before the response leaves.
 */
export async function runOp<T>(
  services: Services,
  ledger: LedgerStore,
  request: FastifyRequest,
  reply: FastifyReply,
  op: (ctx: OpContext) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client closed the connection'));
  };
  reply.raw.on('close', onClose);
  const meter = new Meter(request.user.userId);
  try {
    return await op({
      userId: request.user.userId,
      signal: controller.signal,
      meter,
      log: request.log,
      services,
    });
  } finally {
    reply.raw.off('close', onClose);
    countCharges(await meter.flush(ledger));
  }
}
