// Fault injection of the platform simulator: per area of the Admin API, answer normally, fail, throttle,
// refuse access, drop the connection or never answer, and the lifetime of the access tokens it grants,
// switched by PUT /_faults (or setFaults) so tests reach every failure path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { methodNotAllowed, parseWith, readJson } from './simulator-http';
import { sendJson } from '../http-server';

/**
 * `ok` answers; `error` fails (a query with a top-level INTERNAL_SERVER_ERROR, a mutation with an
 * INTERNAL_ERROR user error); `throttled` answers THROTTLED with the cost extension, as Shopify does when
 * the bucket is empty; `access_denied` answers the area's root fields null with an ACCESS_DENIED error, as
 * Shopify does when the store has not granted the scope (a mutation then has no effect); `unreachable`
 * drops the connection without an answer; `hang` reads the request and never answers it, nor does what
 * it asks (the connection stays open until the client gives up or the simulator stops); `hold` reads the
 * request and keeps it until the area's mode is set to another, then runs and answers it under that mode
 * (a test decides exactly when a platform call completes, e.g. to interleave another request with it).
 */
export const FAULT_MODES = ['ok', 'error', 'throttled', 'access_denied', 'unreachable', 'hang', 'hold'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/**
 * Store credit (storeCreditAccountCredit, storeCreditAccountDebit): `ok`; `error` answers a top-level
 * INTERNAL_SERVER_ERROR and does nothing (the payloads' user error codes have no internal error); `unreachable`
 * drops the connection without doing anything; `lost_answer` makes the credit or debit and then drops the
 * connection, so the answer never comes.
 */
export const STORE_CREDIT_FAULT_MODES = ['ok', 'error', 'unreachable', 'lost_answer'] as const;
export type StoreCreditFaultMode = (typeof STORE_CREDIT_FAULT_MODES)[number];

export interface FaultModes {
  /** The customer query. */
  customers: FaultMode;
  /** Creating, finding and deleting discount codes. */
  discount_codes: FaultMode;
  /** The orders query of order reconciliation. */
  orders: FaultMode;
  /** Crediting and debiting store credit accounts. */
  store_credit: StoreCreditFaultMode;
}

export type FaultArea = keyof FaultModes;

/** The twin's event bus: `error` refuses every delivery (the twin's stream reader hands the events again later). */
export const BUS_MODES = ['ok', 'error'] as const;
export type BusMode = (typeof BUS_MODES)[number];

/**
 * The simulator's Klaviyo (simulated-klaviyo.ts): `ok`; `throttled` answers 429 with `Retry-After: 1`; `error`
 * answers 503 with Klaviyo's error body; `unreachable` drops the connection.
 */
export const KLAVIYO_FAULT_MODES = ['ok', 'throttled', 'error', 'unreachable'] as const satisfies readonly FaultMode[];
export type KlaviyoFaultMode = (typeof KLAVIYO_FAULT_MODES)[number];

/** What PUT /_faults sets and GET /_faults shows: the modes, Klaviyo's, the bus's, and how long tokens granted from now on live. */
export interface FaultSettings extends FaultModes {
  klaviyo: KlaviyoFaultMode;
  token_lifetime_seconds: number;
  bus: BusMode;
}

/** Shopify's client credentials tokens: valid for 86399 seconds. */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_399;
// Ten years: any longer and an expiry would leave the range of a Date.
const MAX_TOKEN_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;

const faultModeSchema = z.enum(FAULT_MODES);
export const faultsBodySchema = z.strictObject({
  customers: faultModeSchema.optional(),
  discount_codes: faultModeSchema.optional(),
  orders: faultModeSchema.optional(),
  store_credit: z.enum(STORE_CREDIT_FAULT_MODES).optional(),
  klaviyo: z.enum(KLAVIYO_FAULT_MODES).optional(),
  token_lifetime_seconds: z.int().min(1).max(MAX_TOKEN_LIFETIME_SECONDS).optional(),
  bus: z.enum(BUS_MODES).optional(),
});

export interface Faults {
  current(): FaultSettings;
  set(update: Partial<FaultSettings>): FaultSettings;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** `hang`: the request stays open and unanswered until its client gives up or `dropHung` is called. */
  hang(res: ServerResponse): void;
  /** How many requests the `hang` fault holds open now. */
  hungCount(): number;
  /** Destroys the connection of every request still hung, so that stopping never waits on one. */
  dropHung(): void;
  /** `hold`: resolves once the fault settings change (the held request then reads them again). */
  held(): Promise<void>;
  /** How many requests the `hold` fault keeps now. */
  heldCount(): number;
  /** Resolves when `count` requests are held (at once if they are). */
  whenHeld(count: number): Promise<void>;
  /** Lets every held request go (stopping), whatever the modes. */
  releaseHeld(): void;
}

export function createFaults(): Faults {
  let settings: FaultSettings = {
    customers: 'ok',
    discount_codes: 'ok',
    orders: 'ok',
    store_credit: 'ok',
    klaviyo: 'ok',
    token_lifetime_seconds: DEFAULT_TOKEN_LIFETIME_SECONDS,
    bus: 'ok',
  };
  // Held requests wait for the next change of the settings; tests wait for a number of them to be held.
  let releases: Array<() => void> = [];
  let watchers: Array<{ count: number; resolve: () => void }> = [];
  let heldNow = 0;
  const release = () => {
    const waiting = releases;
    releases = [];
    for (const resolve of waiting) resolve();
  };
  const set = (update: Partial<FaultSettings>): FaultSettings => {
    release();
    settings = {
      customers: update.customers ?? settings.customers,
      discount_codes: update.discount_codes ?? settings.discount_codes,
      orders: update.orders ?? settings.orders,
      store_credit: update.store_credit ?? settings.store_credit,
      klaviyo: update.klaviyo ?? settings.klaviyo,
      token_lifetime_seconds: update.token_lifetime_seconds ?? settings.token_lifetime_seconds,
      bus: update.bus ?? settings.bus,
    };
    return { ...settings };
  };
  const hung = new Set<Socket>();
  return {
    current: () => ({ ...settings }),
    set,
    async handle(req, res) {
      if (req.method === 'GET') return sendJson(res, 200, settings);
      if (req.method !== 'PUT') return methodNotAllowed(res, 'GET, PUT');
      const update = parseWith(
        faultsBodySchema,
        await readJson(req),
        `Invalid fault settings (each of customers, discount_codes, orders is one of ${FAULT_MODES.join(', ')}; ` +
          `store_credit is one of ${STORE_CREDIT_FAULT_MODES.join(', ')}; ` +
          `klaviyo is one of ${KLAVIYO_FAULT_MODES.join(', ')}; ` +
          `token_lifetime_seconds is a whole number of seconds from 1 to ${MAX_TOKEN_LIFETIME_SECONDS}; ` +
          `bus is one of ${BUS_MODES.join(', ')})`,
      );
      sendJson(res, 200, set(update));
    },
    hang(res) {
      const socket = res.socket;
      if (!socket || socket.destroyed) return;
      hung.add(socket);
      socket.once('close', () => hung.delete(socket));
    },
    hungCount: () => hung.size,
    async held() {
      heldNow += 1;
      const released = new Promise<void>((resolve) => releases.push(resolve));
      watchers = watchers.filter((watcher) => (heldNow >= watcher.count ? (watcher.resolve(), false) : true));
      await released;
      heldNow -= 1;
    },
    heldCount: () => heldNow,
    whenHeld: (count) => (heldNow >= count ? Promise.resolve() : new Promise<void>((resolve) => watchers.push({ count, resolve }))),
    releaseHeld: release,
    dropHung() {
      for (const socket of hung) socket.destroy();
      hung.clear();
    },
  };
}
