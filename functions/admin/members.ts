// GET /admin/api/members: the staff's member list (docs/admin.md#the-member-list), one page sorted by points,
// enrolment or last activity, filtered by status and tier, or found by name (`filter[name]`), continued by a
// cursor; staff only, verified by the admin ID token as every /admin/api route.
import { memberListPage } from '../../shared/staff/member-list-requests';
import { queryParameters } from '../../shared/http/query';
import { createHandler } from '../../shared/staff/staff-requests';

export const handler = createHandler(async ({ caller, event }) => ({
  statusCode: 200,
  body: await memberListPage(caller.shopId, queryParameters(event)),
}));
