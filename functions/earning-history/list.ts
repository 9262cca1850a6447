// GET /v1/customers/{identifier}/earning-history: one page of a customer's earning history.
import { createHandler } from '../../shared/staff/staff-requests';
import { pageMeta, queryParameters } from '../../shared/http/query';
import { parseEarningHistoryQuery } from '../../shared/history/history-requests';
import { earningHistoryResource } from '../../shared/history/history-resource';
import { listEarningHistory } from '../../shared/history/history-service';

export const handler = createHandler(async ({ caller, event, path }) => {
  const { page, listQuery } = parseEarningHistoryQuery(queryParameters(event));
  const list = await listEarningHistory(caller.shopId, path('identifier'), listQuery);
  return {
    statusCode: 200,
    body: {
      data: list.entries.map((entry) => earningHistoryResource(entry, { staff: caller.actor !== undefined })),
      meta: pageMeta(list.total, page),
    },
  };
});
