// GET /admin/api/program: the program's rewards, tiers and rules as the storefront lists them (GET /shopper/program's
// body, for a shopper of no tier), for staff at the shop counter (the POS extension, docs/pos.md): the rewards a member
// can afford are read against it. Staff only, verified by the admin ID token (or POS's session token) as every
// /admin/api route; it reads the shop's catalog, nothing of any member. It takes no query parameter (400).
import { badRequest } from '../../shared/http/errors';
import { queryParameters } from '../../shared/http/query';
import { programResource } from '../../shared/shopper/shopper-resource';
import { shopperProgram } from '../../shared/shopper/shopper-program';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { createHandler } from '../../shared/staff/staff-requests';

export const handler = createHandler(async ({ caller, event }) => {
  const names = Object.keys(queryParameters(event));
  if (names.length > 0) throw badRequest(`GET /admin/api/program takes no query parameters: got ${names.join(', ')}`);
  return { statusCode: 200, body: { data: programResource(shopperProgram(await shopCatalog(caller.shopId), null)) } };
});
