// The staff's member list (docs/admin.md#the-member-list; docs/performance.md#the-staffs-member-list), in this
// process on the twin's table: what GET /admin/api/members reads for its first page and for a page deep in the
// walk (after following the cursor), by each sort and for the search by name, in shops of each size: calls, read
// units and the p50 time of the answer's work, which must not grow with the members.
import { dynamoDbStats, pauseDynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { readShopCounters } from '../shared/data/shop-repository';
import { memberListPage } from '../shared/staff/member-list-requests';
import { seedScaleShop } from './scale-shop';
import { percentile } from './statistics';

const ROUNDS = 20;
const PAGE_SIZE = 20;
/** How many pages the deep case walks before it is measured. */
const DEEP_PAGES = 10;

export interface MemberListFigures {
  members: number;
  sort: string;
  page: 'first' | 'deep';
  calls: Record<string, number>;
  readUnits: number;
  p50Ms: number;
}

async function measure(shopId: string, members: number, sort: string, page: 'first' | 'deep'): Promise<MemberListFigures> {
  // `name`: the search by name for the word every seeded member's first name has (`Member`), a page as full as any.
  const parameters: Record<string, string> =
    sort === 'name' ? { 'filter[name]': 'member', 'page[size]': String(PAGE_SIZE) } : { sort, 'page[size]': String(PAGE_SIZE) };
  if (page === 'deep') {
    for (let walked = 0; walked < DEEP_PAGES; walked += 1) {
      const answer = await memberListPage(shopId, parameters);
      parameters['page[cursor]'] = answer.meta.page.next_cursor!;
    }
  }
  await memberListPage(shopId, parameters);
  resetDynamoDbStats();
  const answer = await memberListPage(shopId, parameters);
  const stats = dynamoDbStats();
  pauseDynamoDbStats();
  if (answer.data.length !== PAGE_SIZE) throw new Error(`${sort} ${page}: ${answer.data.length} members, not ${PAGE_SIZE}`);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    await memberListPage(shopId, parameters);
    times.push(performance.now() - started);
  }
  return { members, sort, page, calls: stats.calls, readUnits: stats.readUnits, p50Ms: percentile(times, 50) };
}

/** The bench process must point at the twin's table with DYNAMODB_STATS on. */
export async function memberListBench(scales: readonly number[]): Promise<MemberListFigures[]> {
  const figures: MemberListFigures[] = [];
  for (const members of scales) {
    const shopId = `scale-${members}`;
    const counters = await readShopCounters(shopId);
    if (counters.member !== members) await seedScaleShop(members, { emailIndex: false });
    for (const sort of ['-points', '-joined', '-last_activity', 'points', 'name'])
      for (const page of ['first', 'deep'] as const) figures.push(await measure(shopId, members, sort, page));
  }
  return figures;
}

export function printMemberList(figures: readonly MemberListFigures[]): void {
  console.log(
    `\nmember list: GET /admin/api/members, ${PAGE_SIZE} a page (the answer's work, in process; deep = after ${DEEP_PAGES} pages)`,
  );
  for (const row of figures) {
    const calls = Object.entries(row.calls)
      .map(([command, n]) => `${n} ${command.replace(/Command$/, '')}`)
      .join(', ');
    console.log(
      `  ${row.members} members, ${row.sort === 'name' ? 'filter[name]=member' : `sort=${row.sort}`}, ${row.page} page: ${calls}; ${row.readUnits.toFixed(1)} RCU; p50 ${row.p50Ms.toFixed(2)} ms`,
    );
  }
}
