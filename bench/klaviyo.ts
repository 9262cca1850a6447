// Klaviyo requests per event: the Klaviyo consumer, in this process, on the twin's table (its demo member)
// and against a platform simulator of its own whose Klaviyo holds one key. Events of each kind (worth an
// e-mail, sent quietly with notify false, profile only) each go through the consumer once, then every one
// again as a redelivery; counted are the requests Klaviyo received per event and what it recorded, with the
// consumer's time per event. Klaviyo's limits are not reached: 3 × ROUNDS events stay under a minute's share.
import { startPlatformSimulator } from '../infra/local/simulator/platform-simulator';
import { klaviyoDeliveryDeps, processKlaviyoMessage, setKlaviyoRefusals } from '../shared/klaviyo/klaviyo-consumer';
import type { KlaviyoRefusal } from '../shared/klaviyo/klaviyo-delivery';
import { registerLocalShopSecrets } from '../shared/platform/shop-secrets';
import { percentile } from './statistics';
import { pointEnvAt } from './point-env';

const KEY = 'pk_bench_0123456789';
const ROUNDS = 50;

export interface KlaviyoKindFigures {
  kind: string;
  events: number;
  requestsPerEvent: number;
  /** Klaviyo events recorded per loyalty event. */
  recordedPerEvent: number;
}

export interface KlaviyoFigures {
  events: number;
  requestsPerEvent: number;
  kinds: KlaviyoKindFigures[];
  /** The same events delivered again: requests sent, Klaviyo events recorded (0: deduplicated by unique_id). */
  redelivery: { requestsPerEvent: number; recorded: number };
  p50Ms: number;
  p99Ms: number;
  refused: number;
}

const KINDS = [
  { kind: 'points.approved (metric)', type: 'points.approved', notify: true },
  { kind: 'points.adjusted, notify false', type: 'points.adjusted', notify: false },
  { kind: 'points.pending (profile only)', type: 'points.pending', notify: true },
] as const;

/** `shopId`'s member `customerId` must exist on the table the process points at. */
export async function klaviyoRequestsPerEvent(shopId: string, customerId: string): Promise<KlaviyoFigures> {
  const simulator = await startPlatformSimulator({ shops: {}, klaviyoKeys: [KEY] });
  const restore = pointEnvAt(['KLAVIYO_BASE_URL'], { KLAVIYO_BASE_URL: simulator.klaviyoUrl });
  const refused: KlaviyoRefusal[] = [];
  registerLocalShopSecrets({ [shopId]: { webhook_secret: 'bench', klaviyo_private_key: KEY } });
  setKlaviyoRefusals({ send: async (message) => void refused.push(message) });
  try {
    const deps = klaviyoDeliveryDeps();
    const times: number[] = [];
    const kinds: KlaviyoKindFigures[] = [];
    const sent: string[] = [];
    for (const { kind, type, notify } of KINDS) {
      const before = simulator.klaviyo();
      for (let i = 0; i < ROUNDS; i += 1) {
        const id = `bench-${type}-${i}-${Date.now()}`;
        const body = JSON.stringify({
          detail: { id, type, shop_id: shopId, customer_id: customerId, occurred_at: new Date().toISOString(), notify, points: 10 },
        });
        sent.push(body);
        const started = performance.now();
        await processKlaviyoMessage(body, deps);
        times.push(performance.now() - started);
      }
      const after = simulator.klaviyo();
      kinds.push({
        kind,
        events: ROUNDS,
        requestsPerEvent: (after.requests - before.requests) / ROUNDS,
        recordedPerEvent: (after.events.length - before.events.length) / ROUNDS,
      });
    }
    const first = simulator.klaviyo();
    for (const body of sent) await processKlaviyoMessage(body, deps);
    const again = simulator.klaviyo();
    const sorted = [...times].sort((a, b) => a - b);
    return {
      events: sent.length,
      requestsPerEvent: first.requests / sent.length,
      kinds,
      redelivery: {
        requestsPerEvent: (again.requests - first.requests) / sent.length,
        recorded: again.events.length - first.events.length,
      },
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      refused: refused.length,
    };
  } finally {
    setKlaviyoRefusals(undefined);
    registerLocalShopSecrets(null);
    restore();
    await simulator.stop();
  }
}

export function printKlaviyo(figures: KlaviyoFigures): void {
  console.log(`\nKlaviyo requests per event (${figures.events} events, the consumer in process against the simulator's Klaviyo)`);
  console.log('kind                              events  requests/event  Klaviyo events/event');
  for (const row of figures.kinds) {
    console.log(
      `${row.kind.padEnd(34)}${String(row.events).padStart(6)}  ${row.requestsPerEvent.toFixed(2).padStart(14)}  ${row.recordedPerEvent.toFixed(2).padStart(20)}`,
    );
  }
  console.log(
    `all: ${figures.requestsPerEvent.toFixed(2)} requests/event, consumer p50 ${figures.p50Ms.toFixed(1)} ms, p99 ${figures.p99Ms.toFixed(1)} ms; ` +
      `redelivered: ${figures.redelivery.requestsPerEvent.toFixed(2)} requests/event, ${figures.redelivery.recorded} recorded again; refused ${figures.refused}`,
  );
}
