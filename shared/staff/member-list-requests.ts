// The staff's member list (`GET /admin/api/members`, docs/admin.md#the-member-list): the query read from the
// request, one page of the sorted index, and the answer's body, each member with its last activity.
import { lastActivityOf } from '../data/items/customer-profile';
import { browseMembers, MemberBrowseRefusal } from '../data/member-browse';
import { badRequest } from '../http/errors';
import { shopCatalog } from '../shops/shop-catalog';
import { customerResource } from '../customers/customer-resource';
import { parseMemberBrowseQuery } from '../customers/member-browse-requests';

/** One page of the shop's members as the route answers it; a bad query or cursor is a 400. */
export async function memberListPage(shopId: string, parameters: Record<string, string>) {
  const shop = await shopCatalog(shopId);
  const query = parseMemberBrowseQuery(parameters, shop.tiers);
  let page;
  try {
    page = await browseMembers(
      shopId,
      query,
      shop.tiers.map((tier) => tier.id),
    );
  } catch (error) {
    if (error instanceof MemberBrowseRefusal) throw badRequest(error.message);
    throw error;
  }
  return {
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
  };
}
