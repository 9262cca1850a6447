// GET /admin/api/members: the staff's member list (docs/admin.md#the-member-list), one page sorted by points,
// enrolment or last activity, filtered by status and tier, continued by a cursor; staff only, verified by
// the admin ID token as every /admin/api route.
import { parseMemberBrowseQuery } from '../../shared/customers/member-browse-requests';
import { customerResource } from '../../shared/customers/customer-resource';
import { lastActivityOf } from '../../shared/data/items/customer-profile';
import { browseMembers, MemberBrowseRefusal } from '../../shared/data/member-browse';
import { badRequest } from '../../shared/http/errors';
import { queryParameters } from '../../shared/http/query';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { createHandler } from '../../shared/staff/staff-requests';

export const handler = createHandler(async ({ caller, event }) => {
  const shop = await shopCatalog(caller.shopId);
  const query = parseMemberBrowseQuery(queryParameters(event), shop.tiers);
  let page;
  try {
    page = await browseMembers(
      caller.shopId,
      query,
      shop.tiers.map((tier) => tier.id),
    );
  } catch (error) {
    if (error instanceof MemberBrowseRefusal) throw badRequest(error.message);
    throw error;
  }
  return {
    statusCode: 200,
    body: {
      data: page.records.map((record) => {
        const resource = customerResource(record, shop, { excludeVip: false });
        return { ...resource, attributes: { ...resource.attributes, last_activity_at: lastActivityOf(record) } };
      }),
      meta: {
        page: { size: query.size, next_cursor: page.nextCursor },
        sort: `${query.descending ? '-' : ''}${query.sort}`,
        loyalty_mode: shop.settings.loyalty_mode,
        currency: shop.settings.currency,
      },
    },
  };
});
