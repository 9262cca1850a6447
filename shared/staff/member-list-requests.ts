// The staff's member list (`GET /admin/api/members`, docs/admin.md#the-member-list): the query read from the
// request, one page of the sorted index (or, with `filter[name]`, of the name postings: docs/admin.md#search-by-name),
// and the answer's body, each member with its last activity.
import { lastActivityOf } from '../data/items/customer-profile';
import { browseMembers, MemberBrowseRefusal } from '../data/member-browse';
import { ApiError, badRequest } from '../http/errors';
import { shopCatalog } from '../shops/shop-catalog';
import { customerResource } from '../customers/customer-resource';
import { parseMemberBrowseQuery, parseNameSearchQuery } from '../customers/member-browse-requests';
import { NameIndexIncomplete, NameSearchRefusal, searchByName } from '../data/name-search';
import type { CustomerRecord } from '../domain/customer';
import type { ShopCatalog } from '../domain/shop';

/** One page of the shop's members as the route answers it; a bad query or cursor is a 400. */
export async function memberListPage(shopId: string, parameters: Record<string, string>) {
  const shop = await shopCatalog(shopId);
  if (parameters['filter[name]'] !== undefined) return nameSearchPage(shop, parameters);
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
  return listBody(shop, page.records, { size: query.size, next_cursor: page.nextCursor }, `${query.descending ? '-' : ''}${query.sort}`);
}

/** The search by name (docs/admin.md#search-by-name): one page of the members whose names match, in name order. */
async function nameSearchPage(shop: ShopCatalog, parameters: Record<string, string>) {
  const query = parseNameSearchQuery(parameters);
  try {
    const page = await searchByName(shop.settings.id, query);
    return listBody(shop, page.records, { size: query.size, next_cursor: page.nextCursor }, 'name');
  } catch (error) {
    if (error instanceof NameSearchRefusal) throw badRequest(error.message);
    if (error instanceof NameIndexIncomplete) throw new ApiError(503, error.message);
    throw error;
  }
}

function listBody(shop: ShopCatalog, records: CustomerRecord[], page: { size: number; next_cursor: string | null }, sort: string) {
  return {
    data: records.map((record) => {
      const resource = customerResource(record, shop, { excludeVip: false });
      return { ...resource, attributes: { ...resource.attributes, last_activity_at: lastActivityOf(record) } };
    }),
    meta: { page, sort, loyalty_mode: shop.settings.loyalty_mode, currency: shop.settings.currency },
  };
}
