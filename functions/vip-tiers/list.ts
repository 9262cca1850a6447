// GET /v1/vip-tiers: every tier in one response, lowest threshold first.
import { createHandler } from '../../shared/http/handler';
import { rankTiers } from '../../shared/domain/tiers';
import { vipTierResource } from '../../shared/rules/vip-tier-resource';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller }) => {
  const { settings, tiers, rewards } = await shopCatalog(caller.shopId);
  const vip = settings.vip_settings;
  return {
    statusCode: 200,
    body: {
      data: rankTiers(tiers, vip).map((tier) => vipTierResource(tier, rewards, settings)),
      meta: {
        total: tiers.length,
        page: 1,
        per_page: tiers.length,
        total_pages: tiers.length > 0 ? 1 : 0,
        entry_method: vip.entry_method,
        entry_methods_extra: vip.entry_methods_extra,
        entry_logic: vip.entry_logic,
        points_multiplier_mode: vip.points_multiplier_mode,
        loyalty_mode: settings.loyalty_mode,
        currency: settings.currency,
      },
    },
  };
});
