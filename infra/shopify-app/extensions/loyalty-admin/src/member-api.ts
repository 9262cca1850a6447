// The block's one call: the member as `GET /admin/api/v1/customers/{id}` answers it (the spec's customer
// object), read down to what the block shows. A customer who is not a member is a 404; anything else that
// is not a customer object means the program could not be reached, and the block says so.

import type { Customer } from '../../../../../shared/openapi/client-types';

/** What the block reads of the customer object (shared/openapi/client-types.ts, types only). */
type MemberFields = Pick<Customer, 'current_points' | 'loyalty_status' | 'vip_tier'>;

export interface MemberSummary {
  kind: 'member';
  currentPoints: number;
  excluded: boolean;
  tier: string | null;
}

export type MemberLookupResult = MemberSummary | { kind: 'not-member' } | { kind: 'unavailable' };

export interface MemberLookup {
  member(customerId: string): Promise<MemberLookupResult>;
}

type Fetch = (url: string) => Promise<{ status: number; ok: boolean; json(): Promise<unknown> }>;

/** The link that opens the member in the app's home (app: resolves against the app's URL, /admin). */
export const memberPageHref = (customerId: string): string => `app:?customer=${encodeURIComponent(customerId)}`;

export function createMemberLookup(options: { serviceUrl: string; fetch: Fetch }): MemberLookup {
  return {
    async member(customerId) {
      let response: Awaited<ReturnType<Fetch>>;
      try {
        response = await options.fetch(`${options.serviceUrl}/admin/api/v1/customers/${encodeURIComponent(customerId)}`);
      } catch {
        return { kind: 'unavailable' };
      }
      if (response.status === 404) return { kind: 'not-member' };
      if (!response.ok) return { kind: 'unavailable' };
      // Read as possibly absent: an answer that is not the service's (a proxy's page) means the program could not be reached.
      const attributes = ((await response.json().catch(() => null)) as { data?: { attributes?: Partial<MemberFields> } } | null)?.data
        ?.attributes;
      if (!attributes || typeof attributes.current_points !== 'number') return { kind: 'unavailable' };
      const tier = attributes.vip_tier;
      return {
        kind: 'member',
        currentPoints: attributes.current_points,
        excluded: attributes.loyalty_status === 'excluded',
        tier: tier && typeof tier.name === 'string' ? tier.name : null,
      };
    },
  };
}
