// The member list (`GET /admin/api/members`, docs/admin.md#the-member-list): every member of the shop, sorted
// by points, last activity or joined date either way (the sortable column headers are buttons, `aria-sort`
// says the order), filtered by status and tier, a page at a time (the service's cursor; earlier pages are
// remembered for "Previous"). What is shown is said in a live region.
import { useEffect, useState } from 'preact/hooks';
import { get, type Document, type Resource } from './api';
import {
  type Customer,
  customerName,
  formatDate,
  formatPoints,
  MEMBER_SORTS,
  type MemberListMeta,
  type MemberListQuery,
  type MemberSortKey,
  membersPath,
  statusWord,
  type VipTier,
} from './model';

/** A tier to filter by: its id and, of `GET /admin/api/v1/vip-tiers`' attributes, its name. */
type Tier = Pick<VipTier, 'name'> & { id: string };

type Page =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; members: Customer[]; next: string | null; currency: string };

const PAGE_SIZE = 20;

export function MembersView() {
  const [query, setQuery] = useState<MemberListQuery>({ sort: 'points', descending: true, status: '', tier: '', size: PAGE_SIZE });
  // The cursors of the pages shown so far: the last is the current page's (null: the first page).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [page, setPage] = useState<Page>({ kind: 'loading' });
  const [tiers, setTiers] = useState<Tier[]>([]);
  useEffect(() => {
    get<Document<Array<Resource<Pick<VipTier, 'name'>>>>>('/v1/vip-tiers?page[size]=100').then(
      (document) => setTiers(document.data.map((resource) => ({ id: resource.id, name: resource.attributes.name }))),
      () => setTiers([]),
    );
  }, []);
  const cursor = cursors[cursors.length - 1] ?? null;
  useEffect(() => {
    let live = true;
    setPage({ kind: 'loading' });
    get<Document<Array<Resource<Customer>>>>(membersPath(query, cursor)).then(
      (document) => {
        if (!live) return;
        const meta = document.meta as Partial<MemberListMeta> | undefined;
        setPage({
          kind: 'ready',
          members: document.data.map((resource) => resource.attributes),
          next: meta?.page?.next_cursor ?? null,
          currency: meta?.currency ?? 'USD',
        });
      },
      (error: unknown) => live && setPage({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [query, cursor]);
  const change = (next: Partial<MemberListQuery>) => {
    setQuery({ ...query, ...next });
    setCursors([null]);
  };
  const sortBy = (key: MemberSortKey) =>
    change(query.sort === key && !query.tier ? { descending: !query.descending } : { sort: key, descending: true });
  const effectiveSort: MemberSortKey = query.tier ? 'last_activity' : query.sort;
  const first = (cursors.length - 1) * PAGE_SIZE + 1;
  const sortLabel = MEMBER_SORTS.find((sort) => sort.key === effectiveSort)!.label.toLowerCase();
  const order = query.descending
    ? effectiveSort === 'points'
      ? 'most first'
      : 'newest first'
    : effectiveSort === 'points'
      ? 'fewest first'
      : 'oldest first';
  const header = (key: MemberSortKey, label: string) => {
    const active = effectiveSort === key;
    const disabled = query.tier !== '' && key !== 'last_activity';
    return (
      <th scope="col" aria-sort={active ? (query.descending ? 'descending' : 'ascending') : undefined}>
        <button
          type="button"
          class="sort"
          disabled={disabled}
          title={disabled ? 'Within a tier the list is sorted by last activity' : undefined}
          onClick={() => sortBy(key)}
        >
          {label}
          <span aria-hidden="true">{active ? (query.descending ? ' ▼' : ' ▲') : ''}</span>
        </button>
      </th>
    );
  };
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">All members</h2>
      <div class="filters">
        <div class="field inline">
          <label for="members-sort">Sort by</label>
          <select
            id="members-sort"
            value={`${query.descending ? '-' : ''}${effectiveSort}`}
            onChange={(event) => {
              const value = (event.target as HTMLSelectElement).value;
              change({ sort: value.replace(/^-/, '') as MemberSortKey, descending: value.startsWith('-') });
            }}
          >
            {MEMBER_SORTS.flatMap((sort) => [
              <option key={`-${sort.key}`} value={`-${sort.key}`} disabled={query.tier !== '' && sort.key !== 'last_activity'}>
                {sort.label}, {sort.key === 'points' ? 'most first' : 'newest first'}
              </option>,
              <option key={sort.key} value={sort.key} disabled={query.tier !== '' && sort.key !== 'last_activity'}>
                {sort.label}, {sort.key === 'points' ? 'fewest first' : 'oldest first'}
              </option>,
            ])}
          </select>
        </div>
        <div class="field inline">
          <label for="members-status">Status</label>
          <select
            id="members-status"
            value={query.status}
            onChange={(event) => change({ status: (event.target as HTMLSelectElement).value })}
          >
            <option value="">All</option>
            <option value="member">Member</option>
            <option value="excluded">Excluded</option>
          </select>
        </div>
        <div class="field inline">
          <label for="members-tier">Tier</label>
          <select
            id="members-tier"
            aria-describedby="members-tier-hint"
            value={query.tier}
            onChange={(event) => change({ tier: (event.target as HTMLSelectElement).value })}
          >
            <option value="">All tiers</option>
            {tiers.map((tier) => (
              <option key={tier.id} value={tier.id}>
                {tier.name}
              </option>
            ))}
            <option value="none">No tier</option>
          </select>
        </div>
      </div>
      <p id="members-tier-hint" class="hint">
        A tier’s members are listed by last activity.
      </p>
      <div role="status" aria-live="polite" class="status">
        {page.kind === 'loading' && 'Loading members…'}
        {page.kind === 'ready' &&
          (page.members.length === 0
            ? 'No member on this page.'
            : `Members ${formatPoints(first)} to ${formatPoints(first + page.members.length - 1)}, by ${sortLabel}, ${order}.`)}
      </div>
      {page.kind === 'failed' && (
        <p role="alert" class="error">
          The members could not be loaded: {page.message}
        </p>
      )}
      {page.kind === 'ready' && page.members.length > 0 && (
        <div class="table-scroll">
          <table class="members">
            <caption class="visually-hidden">
              Members, by {sortLabel}, {order}
            </caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                {header('points', 'Points')}
                <th scope="col">Tier</th>
                <th scope="col">Status</th>
                {header('last_activity', 'Last activity')}
                {header('joined', 'Joined')}
              </tr>
            </thead>
            <tbody>
              {page.members.map((member) => (
                <tr key={member.platform_customer_id}>
                  <th scope="row">
                    <a href={`#/customers/${encodeURIComponent(member.platform_customer_id)}`}>{customerName(member)}</a>
                    <span class="muted small">{member.email}</span>
                  </th>
                  <td class="number">{formatPoints(member.current_points)}</td>
                  <td>{member.vip_tier ? <span class="badge tier">{member.vip_tier.name}</span> : <span class="muted">None</span>}</td>
                  <td>
                    <span class={`badge ${member.loyalty_status === 'excluded' ? 'critical' : 'success'}`}>
                      {statusWord(member.loyalty_status)}
                    </span>
                  </td>
                  <td>{formatDate(member.last_activity_at ?? null)}</td>
                  <td>{formatDate(member.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Member list pages">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button
          type="button"
          disabled={page.kind !== 'ready' || page.next === null}
          onClick={() => page.kind === 'ready' && page.next && setCursors([...cursors, page.next])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
