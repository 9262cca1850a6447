// JSON:API serialization of customers and their birthday and anniversary views.
import type { CustomerRecord } from '../domain/customer';
import { formatMinorUnits } from '../domain/money';
import { referralUrl } from '../domain/referral';
import type { ShopCatalog, VipSettings, VipTier } from '../domain/shop';
import { primaryThreshold, resolveTier } from '../domain/tiers';

export interface CustomerViewOptions {
  excludeVip: boolean;
}

export function customerResource(record: CustomerRecord, shop: ShopCatalog, options: CustomerViewOptions) {
  const { settings } = shop;
  const tier = options.excludeVip ? null : resolveTier(record, shop.tiers, settings.vip_settings);
  return {
    type: 'customer',
    id: record.platform_customer_id,
    attributes: {
      platform_customer_id: record.platform_customer_id,
      email: record.email,
      first_name: record.first_name,
      last_name: record.last_name,
      current_points: record.current_points,
      lifetime_points: record.lifetime_points,
      redeemed_points: record.redeemed_points,
      loyalty_status: record.status,
      loyalty_mode: settings.loyalty_mode,
      store_credit:
        settings.loyalty_mode === 'store_credit'
          ? { balance: formatMinorUnits(record.current_points, settings.currency), currency: settings.currency }
          : null,
      date_of_birth: record.date_of_birth,
      anniversary_date: record.anniversary_date,
      referral_url: referralUrl(settings.referral_base_url, record.referral_code),
      referral_code: record.referral_code,
      vip_tier: tier && vipTierAttributes(tier, settings.vip_settings),
      created_at: record.created_at,
      updated_at: record.updated_at,
    },
  };
}

export function birthdayResource(record: CustomerRecord) {
  return {
    type: 'customer_birthday',
    id: record.platform_customer_id,
    attributes: { platform_customer_id: record.platform_customer_id, email: record.email, date_of_birth: record.date_of_birth },
  };
}

export function anniversaryResource(record: CustomerRecord) {
  return {
    type: 'customer_anniversary',
    id: record.platform_customer_id,
    attributes: {
      platform_customer_id: record.platform_customer_id,
      email: record.email,
      anniversary_date: record.anniversary_date,
    },
  };
}

/** A tier as the customer object shows it (`vip_tier`), also on the shopper's own page. */
export function vipTierAttributes(tier: VipTier, vipSettings: VipSettings) {
  return {
    id: tier.id,
    name: tier.name,
    threshold: primaryThreshold(tier, vipSettings),
    points_multiplier: tier.points_multiplier,
    badge_image_url: tier.badge_image_url,
    badge_color: tier.badge_color,
  };
}
