// The bench rows whose requests each need data of their own, prepared through the API before the row loads:
// an unused redemption per refund (a purchase of the demo's $5 off), a new friend's mailbox per referral
// (round the demo's members, so no one referrer's day is all of them), and a member with referrals to list.
// Each row takes its requests in turn from what was prepared; a run that outlasts the preparation shows
// as errors in the row.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../infra/local/twin';

/** Requests sent at once while preparing. */
const PREPARE_CONCURRENCY = 8;

/** The n-th request's path and body. */
export interface PreparedRequest {
  path: string;
  body?: unknown;
}

export interface PreparedRow {
  /** Makes `count` requests' worth of data on the twin at `url`. */
  prepare: (url: string, count: number) => Promise<void>;
  /** The next request's path and body (null: nothing prepared is left; the row's own path is sent). */
  next: () => PreparedRequest | null;
}

async function call(url: string, method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status} while preparing: ${text}`);
  return JSON.parse(text) as { data: { id: string; attributes: Record<string, unknown> } };
}

async function inParallel(count: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PREPARE_CONCURRENCY, count) }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

/** The demo's members whose redemptions the refund row undoes, in turn (1006 is excluded). */
const REFUND_CUSTOMERS = ['1001', '1002', '1003', '1004', '1005', '1007', '1008'];
/** The path a refund request takes when nothing prepared is left (an unknown entry: 404). */
export const REFUND_FALLBACK_PATH = '/v1/customers/1005/reward-history/none/refund';
const REFUND_REWARD = { id: 'five-off', points: 500 };

/**
 * A redemption refunded per request: each one a purchase made for it, its code on the platform, spread over
 * the demo's members so that the row measures a refund, not ten writers racing for one profile (that is
 * what the one-customer rows measure).
 */
export function refundRow(): PreparedRow {
  const refunds: string[] = [];
  return {
    prepare: async (url, count) => {
      const each = Math.ceil(count / REFUND_CUSTOMERS.length);
      for (const id of REFUND_CUSTOMERS) {
        await call(url, 'POST', `/v1/customers/${id}/points`, 'demo_full_key', { adjustment: each * REFUND_REWARD.points });
      }
      await inParallel(each * REFUND_CUSTOMERS.length, async (i) => {
        const customer = REFUND_CUSTOMERS[i % REFUND_CUSTOMERS.length]!;
        const bought = await call(url, 'POST', `/v1/rewards/${REFUND_REWARD.id}/purchase`, 'demo_full_key', {
          customer_identifier: customer,
        });
        refunds.push(`/v1/customers/${customer}/reward-history/${bought.data.id}/refund`);
      });
    },
    next: () => {
      const path = refunds.shift();
      return path === undefined ? null : { path };
    },
  };
}

/** A referrer's cap of friends a day on the bench's own twin: the referral row's requests all fit in one day. */
const BENCH_FRIENDS_PER_DAY = 100_000;

/**
 * The demo configuration as the bench's own twin runs it: the same, but for a referrer's daily cap of friends
 * high enough for the referral row (the cap costs the same condition whatever its value). Returns its file.
 */
export async function writeEndpointsConfig(): Promise<string> {
  const demo = JSON.parse(await readFile(join(PROJECT_ROOT, 'config', 'demo.json'), 'utf8')) as {
    shops: Array<{ id: string; referral_settings?: { max_friends_per_day?: number } }>;
  };
  for (const shop of demo.shops) {
    if (shop.referral_settings) shop.referral_settings.max_friends_per_day = BENCH_FRIENDS_PER_DAY;
  }
  const file = join(await mkdtemp(join(tmpdir(), 'loyalty-endpoints-')), 'demo-bench.json');
  await writeFile(file, JSON.stringify(demo));
  return file;
}

/** The demo's members who refer friends in turn in the referral row (1006 is excluded; 1007's are listed). */
const REFERRERS = ['1001', '1002', '1003', '1004', '1005', '1008'];

/** A new friend's mailbox per request, referred by the demo's members in turn. */
export function referralRow(): PreparedRow {
  const codes: string[] = [];
  const run = randomUUID().slice(0, 8);
  let sent = 0;
  return {
    prepare: async (url) => {
      if (codes.length > 0) return;
      for (const id of REFERRERS) {
        codes.push(String((await call(url, 'GET', `/v1/customers/${id}`, 'demo_read_key')).data.attributes.referral_code));
      }
    },
    next: () => {
      if (codes.length === 0) return null;
      const n = sent++;
      return { path: '/v1/referrals', body: { referral_code: codes[n % codes.length], email: `bench.friend.${run}.${n}@example.com` } };
    },
  };
}

/** The member the list row reads, and how many friends it referred. */
export const LISTED_REFERRER = '1007';
const LISTED_REFERRALS = 12;

/** A member with referrals to list: made once; every request reads the same list. */
export function listedReferralsRow(): PreparedRow {
  let made = false;
  return {
    prepare: async (url) => {
      if (made) return;
      made = true;
      const code = String((await call(url, 'GET', `/v1/customers/${LISTED_REFERRER}`, 'demo_read_key')).data.attributes.referral_code);
      const run = randomUUID().slice(0, 8);
      await inParallel(LISTED_REFERRALS, async (i) => {
        await call(url, 'POST', '/v1/referrals', 'demo_full_key', { referral_code: code, email: `bench.listed.${run}.${i}@example.com` });
      });
    },
    next: () => null,
  };
}
