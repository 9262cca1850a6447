// Writes of one hot customer (`--only one-customer`): every connection updates or adjusts the same
// customer, the worst case for the profile's write path (docs/architecture.md#one-hot-customer). A twin of
// its own, warm-up on these rows only, then the rows as the full bench loads them, with each row's
// DynamoDB calls by command and the calls DynamoDB refused (lost races) per request.
import { ONE_CUSTOMER_ENDPOINTS, ONE_CUSTOMER_MIX } from './endpoints';
import { load, warmUp, type EndpointFigures, type LoadSettings } from './load';
import { twinDynamoDbStats } from './twin-control';

/** The rows of the section, in the order they run: PUT, points, then both at once. */
export const ONE_CUSTOMER_ROWS = [...ONE_CUSTOMER_ENDPOINTS, ONE_CUSTOMER_MIX];

export async function oneCustomer(url: string, settings: LoadSettings & { warmupSeconds: number }): Promise<EndpointFigures[]> {
  await twinDynamoDbStats(url, 'pause');
  await warmUp(url, ONE_CUSTOMER_ENDPOINTS, settings.connections, settings.warmupSeconds);
  const rows: EndpointFigures[] = [];
  for (const row of ONE_CUSTOMER_ROWS) rows.push(await load(url, row, settings));
  return rows;
}
