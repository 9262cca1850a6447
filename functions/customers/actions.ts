// POST /v1/customers/{identifier}/actions: the customer took an action an earning rule rewards.
import { earnAction } from '../../shared/actions/earn-action';
import { parseEarnActionBody } from '../../shared/actions/action-requests';
import { earningHistoryResource, loyaltyModeMeta } from '../../shared/history/history-resource';
import { createHandler } from '../../shared/staff/staff-requests';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, body, path, idempotency }) => {
    const { action } = parseEarnActionBody(body);
    const shop = await shopCatalog(caller.shopId);
    // Under an Idempotency-Key every attempt of the request writes the same entry (once); who asked is kept on it.
    const actor = caller.actor ?? caller.keyActor;
    const award = await earnAction(shop, path('identifier'), action, {
      ...(idempotency ? { requestId: idempotency.workId, replayable: true } : {}),
      ...(actor ? { actor } : {}),
    });
    return {
      statusCode: 201,
      body: { data: earningHistoryResource(award.entry, { staff: caller.actor !== undefined }), meta: loyaltyModeMeta(shop.settings) },
    };
  },
  { jsonBody: true, idempotent: true },
);
