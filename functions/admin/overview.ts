// GET /admin/api/overview?from=YYYY-MM-DD&to=YYYY-MM-DD: the program's figures for a staff member of the shop
// (SURFACES-CONTRACT.md, "The program's figures"; docs/admin.md#figures), verified by the admin ID token.
import { programOverview } from '../../shared/figures/program-figures';
import { queryParameters } from '../../shared/http/query';
import { createHandler } from '../../shared/staff/staff-requests';

export const handler = createHandler(async ({ caller, event }) => {
  const query = queryParameters(event);
  const attributes = await programOverview(caller.shopId, { from: query.from, to: query.to });
  return { statusCode: 200, body: { data: { type: 'program_overview', id: caller.shopId, attributes } } };
});
