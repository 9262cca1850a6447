// Builders for customer records in tests.
import type { CustomerRecord } from '../../shared/domain/customer';

export function customerRecord(overrides: Partial<CustomerRecord> & { platform_customer_id: string }): CustomerRecord {
  const id = overrides.platform_customer_id;
  return {
    shop_id: 'shop-a',
    email: `customer${id}@example.com`,
    first_name: 'Test',
    last_name: `Customer ${id}`,
    current_points: 0,
    lifetime_points: 0,
    redeemed_points: 0,
    status: 'member',
    date_of_birth: null,
    anniversary_date: null,
    referral_code: `REF${id}`,
    total_spend: 0,
    orders_count: 0,
    vip_tier_id: null,
    platform_created_at: null,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}
