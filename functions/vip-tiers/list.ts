// GET /v1/vip-tiers: every tier in one response, lowest threshold first. Query parameters are ignored:
// the spec gives this endpoint no pagination, sorting or filters.
import { rankTiers } from '../../shared/domain/tiers';
import { createHandler } from '../../shared/staff/staff-requests';
import { vipTierListMeta, vipTierResource } from '../../shared/rules/vip-tier-resource';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller }) => {
  const { settings, tiers, rewards } = await shopCatalog(caller.shopId);
  const ranked = rankTiers(tiers, settings.vip_settings);
  return {
    statusCode: 200,
    body: { data: ranked.map((tier) => vipTierResource(tier, rewards, settings)), meta: vipTierListMeta(settings, ranked.length) },
  };
});
