// POST /v1/customers/{identifier}/points: add or deduct points with an audit entry.
import { createHandler } from '../../shared/staff/staff-requests';
import { adjustPoints } from '../../shared/points/adjust-points';
import { pointsAdjustmentResource } from '../../shared/points/points-adjustment-resource';
import { parseAdjustPointsBody } from '../../shared/points/points-requests';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, body, path, idempotency }) => {
    const input = parseAdjustPointsBody(body);
    const shop = await shopCatalog(caller.shopId);
    // Under an Idempotency-Key every attempt of the request is the same adjustment (applied once).
    // Who made it (a staff user on /admin/api, an API key on /v1) is kept on its entry.
    const adjustment = await adjustPoints(shop, path('identifier'), input, {
      ...(idempotency ? { requestId: idempotency.workId } : {}),
      ...(caller.actor ? { actor: caller.actor } : caller.keyActor ? { actor: caller.keyActor } : {}),
    });
    return { statusCode: 200, body: { data: pointsAdjustmentResource(adjustment, shop.settings) } };
  },
  { jsonBody: true, idempotent: true },
);
