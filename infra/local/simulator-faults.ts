// Fault injection of the platform simulator: per area of the Admin API, answer normally, fail, throttle or
// drop the connection, switched by PUT /_faults (or setFaults) so tests reach every failure path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { methodNotAllowed, parseWith, readJson } from './simulator-http';
import { sendJson } from './http-server';

/**
 * `ok` answers; `error` fails (a query with a top-level INTERNAL_SERVER_ERROR, a mutation with an
 * INTERNAL_ERROR user error); `throttled` answers THROTTLED with the cost extension, as Shopify does when
 * the bucket is empty; `unreachable` drops the connection without an answer.
 */
export type FaultMode = 'ok' | 'error' | 'throttled' | 'unreachable';

export interface FaultModes {
  /** The customer query. */
  customers: FaultMode;
  /** Creating, finding and deleting discount codes. */
  discount_codes: FaultMode;
  /** The orders query of order reconciliation. */
  orders: FaultMode;
}

export type FaultArea = keyof FaultModes;

const faultModeSchema = z.enum(['ok', 'error', 'throttled', 'unreachable']);
const faultsBodySchema = z.strictObject({
  customers: faultModeSchema.optional(),
  discount_codes: faultModeSchema.optional(),
  orders: faultModeSchema.optional(),
});

export interface Faults {
  current(): FaultModes;
  set(update: Partial<FaultModes>): FaultModes;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createFaults(): Faults {
  let modes: FaultModes = { customers: 'ok', discount_codes: 'ok', orders: 'ok' };
  const set = (update: Partial<FaultModes>): FaultModes => {
    modes = {
      customers: update.customers ?? modes.customers,
      discount_codes: update.discount_codes ?? modes.discount_codes,
      orders: update.orders ?? modes.orders,
    };
    return { ...modes };
  };
  return {
    current: () => ({ ...modes }),
    set,
    async handle(req, res) {
      if (req.method === 'GET') return sendJson(res, 200, modes);
      if (req.method !== 'PUT') return methodNotAllowed(res, 'GET, PUT');
      const update = parseWith(
        faultsBodySchema,
        await readJson(req),
        'Invalid fault modes (each of customers, discount_codes, orders is ok, error, throttled or unreachable)',
      );
      sendJson(res, 200, set(update));
    },
  };
}
