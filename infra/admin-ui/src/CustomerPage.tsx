// One member: balance, tier, pending and expiring points, the activity (earning and reward history with
// internal notes and who made each adjustment) and the actions staff take: adjust with a reason, refund an
// unused reward, exclude or include, set the birthday. Every action's outcome is said in a live region
// and the figures are read again from the service.
import { useEffect, useState } from 'preact/hooks';
import { get, request, type Document, type Resource } from './api';
import { ViewHeading } from './Heading';
import {
  type Customer,
  customerName,
  type EarningEntry,
  expiringPoints,
  formatDate,
  formatPoints,
  mergeActivity,
  pendingPoints,
  refundable,
  type RewardEntry,
} from './model';

interface Loaded {
  customer: Customer;
  earning: Array<Resource<EarningEntry>>;
  rewards: Array<Resource<RewardEntry>>;
}

async function load(id: string): Promise<Loaded> {
  const path = `/v1/customers/${encodeURIComponent(id)}`;
  const [customer, earning, rewards] = await Promise.all([
    get<Document<Resource<Customer>>>(path),
    get<Document<Array<Resource<EarningEntry>>>>(`${path}/earning-history?page[size]=50`),
    get<Document<Array<Resource<RewardEntry>>>>(`${path}/reward-history?page[size]=50`),
  ]);
  return { customer: customer.data.attributes, earning: earning.data, rewards: rewards.data };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function CustomerPage({ id }: { id: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const refresh = () =>
    load(id).then(
      (next) => (setLoaded(next), setFailure(null)),
      (error: unknown) => setFailure(message(error)),
    );
  useEffect(() => void refresh(), [id]);
  /** Runs an action, says its outcome, and reads the member again. */
  const act = async (action: () => Promise<unknown>, done: string): Promise<boolean> => {
    setNotice('');
    try {
      await action();
    } catch (error) {
      setFailure(message(error));
      return false;
    }
    await refresh();
    setNotice(done);
    return true;
  };
  if (!loaded) {
    return (
      <section>
        <ViewHeading>Customer {id}</ViewHeading>
        {failure ? (
          <p role="alert" class="error">
            {failure}
          </p>
        ) : (
          <p role="status">Loading…</p>
        )}
      </section>
    );
  }
  const { customer, earning, rewards } = loaded;
  const path = `/v1/customers/${encodeURIComponent(customer.platform_customer_id)}`;
  const entries = earning.map((entry) => entry.attributes);
  const expiring = expiringPoints(entries, customer.current_points, new Date());
  return (
    <section>
      <p>
        <a href="#/customers">Back to customers</a>
      </p>
      <ViewHeading>{customerName(customer)}</ViewHeading>
      <p class="muted">
        {customer.email} · id {customer.platform_customer_id} · member since {formatDate(customer.created_at)}
        {customer.loyalty_status === 'excluded' && <span class="badge">Excluded</span>}
      </p>
      <div role="status" aria-live="polite" class="status notice">
        {notice}
      </div>
      {failure && (
        <p role="alert" class="error">
          {failure}
        </p>
      )}
      <dl class="figures">
        <div class="figure">
          <dt>Balance</dt>
          <dd data-figure="balance">{formatPoints(customer.current_points)} points</dd>
        </div>
        <div class="figure">
          <dt>Tier</dt>
          <dd>{customer.vip_tier?.name ?? 'None'}</dd>
        </div>
        <div class="figure">
          <dt>Pending</dt>
          <dd>{formatPoints(pendingPoints(entries))} points</dd>
        </div>
        <div class="figure">
          <dt>Expiring next</dt>
          <dd>{expiring ? `${formatPoints(expiring.points)} points on ${formatDate(expiring.at)}` : 'Nothing'}</dd>
        </div>
        <div class="figure">
          <dt>Lifetime</dt>
          <dd>{formatPoints(customer.lifetime_points)} points</dd>
        </div>
      </dl>
      <div class="actions">
        <AdjustForm
          onAdjust={(adjustment, note) =>
            act(() => request('POST', `${path}/points`, { adjustment, note }), `Adjusted by ${adjustment} points.`)
          }
        />
        <StatusForm
          customer={customer}
          onStatus={(excluded) =>
            act(
              () => request('PUT', path, { is_excluded: excluded }),
              excluded ? 'Excluded from the program.' : 'Included in the program again.',
            )
          }
          onBirthday={(date) =>
            act(() => request('PUT', path, { date_of_birth: date }), date ? `Birthday set to ${date}.` : 'Birthday cleared.')
          }
        />
      </div>
      <Rewards
        rewards={rewards}
        onRefund={(entry) =>
          act(
            () => request('POST', `${path}/reward-history/${encodeURIComponent(entry.id)}/refund`),
            `Refunded ${entry.attributes.reward_name}: ${formatPoints(entry.attributes.points_spent)} points returned.`,
          )
        }
      />
      <ActivityTable earning={earning} rewards={rewards} />
    </section>
  );
}

function AdjustForm({ onAdjust }: { onAdjust: (adjustment: number, note: string) => Promise<boolean> }) {
  const [points, setPoints] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="card"
      aria-labelledby="adjust-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const adjustment = Number(points);
        if (!Number.isInteger(adjustment) || adjustment === 0)
          return setProblem('Enter a whole number of points other than 0 (negative deducts).');
        if (reason.trim() === '') return setProblem('Give the reason: it is kept as the adjustment’s internal note.');
        setProblem('');
        setBusy(true);
        const applied = await onAdjust(adjustment, reason.trim());
        setBusy(false);
        if (applied) {
          setPoints('');
          setReason('');
        }
      }}
    >
      <h2 id="adjust-title">Adjust points</h2>
      <div class="field">
        <label for="adjust-points">Points (negative deducts)</label>
        <input
          id="adjust-points"
          type="number"
          step="1"
          required
          inputMode="numeric"
          value={points}
          aria-invalid={problem !== '' && !Number.isInteger(Number(points))}
          onInput={(event) => setPoints((event.target as HTMLInputElement).value)}
        />
      </div>
      <div class="field">
        <label for="adjust-reason">Reason (internal note)</label>
        <input
          id="adjust-reason"
          type="text"
          required
          maxLength={500}
          value={reason}
          onInput={(event) => setReason((event.target as HTMLInputElement).value)}
        />
      </div>
      {problem && (
        <p role="alert" class="error">
          {problem}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        Adjust
      </button>
    </form>
  );
}

function StatusForm({
  customer,
  onStatus,
  onBirthday,
}: {
  customer: Customer;
  onStatus: (excluded: boolean) => Promise<boolean>;
  onBirthday: (date: string | null) => Promise<boolean>;
}) {
  const [birthday, setBirthday] = useState(customer.date_of_birth?.slice(0, 10) ?? '');
  const excluded = customer.loyalty_status === 'excluded';
  return (
    <div class="card">
      <h2>Membership</h2>
      <p>{excluded ? 'Excluded: earns and redeems nothing.' : 'Member of the program.'}</p>
      <button type="button" onClick={() => void onStatus(!excluded)}>
        {excluded ? 'Include in the program' : 'Exclude from the program'}
      </button>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void onBirthday(birthday === '' ? null : birthday);
        }}
      >
        <div class="field">
          <label for="birthday">Birthday</label>
          <input id="birthday" type="date" value={birthday} onInput={(event) => setBirthday((event.target as HTMLInputElement).value)} />
        </div>
        <button type="submit">Save birthday</button>
      </form>
    </div>
  );
}

function Rewards({
  rewards,
  onRefund,
}: {
  rewards: Array<Resource<RewardEntry>>;
  onRefund: (entry: Resource<RewardEntry>) => Promise<boolean>;
}) {
  return (
    <section aria-labelledby="rewards-title">
      <h2 id="rewards-title">Rewards</h2>
      {rewards.length === 0 ? (
        <p>No reward redeemed.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Redeemed</th>
              <th scope="col">Reward</th>
              <th scope="col">Code</th>
              <th scope="col">Points</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rewards.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDate(entry.attributes.created_at)}</td>
                <td>{entry.attributes.reward_name}</td>
                <td>
                  <code>{entry.attributes.discount_code}</code>
                </td>
                <td>{formatPoints(entry.attributes.points_spent)}</td>
                <td>{entry.attributes.is_refunded ? 'refunded' : entry.attributes.status}</td>
                <td>
                  {refundable(entry.attributes) && (
                    <button
                      type="button"
                      onClick={() => void onRefund(entry)}
                      aria-label={`Refund ${entry.attributes.reward_name} (${entry.attributes.discount_code})`}
                    >
                      Refund
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ActivityTable({ earning, rewards }: { earning: Array<Resource<EarningEntry>>; rewards: Array<Resource<RewardEntry>> }) {
  const activity = mergeActivity(earning, rewards);
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      {activity.length === 0 ? (
        <p>No activity yet.</p>
      ) : (
        <table class="activity">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">What</th>
              <th scope="col">Points</th>
              <th scope="col">Status</th>
              <th scope="col">Internal note</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {activity.map((row) => (
              <tr key={row.id}>
                <td>{formatDate(row.at)}</td>
                <td>
                  {row.kind}
                  {row.detail && <span class="muted"> · {row.detail}</span>}
                </td>
                <td class={row.points < 0 ? 'negative' : 'positive'}>
                  {row.points > 0 ? `+${formatPoints(row.points)}` : formatPoints(row.points)}
                </td>
                <td>{row.status}</td>
                <td>{row.note ?? ''}</td>
                <td>
                  {row.actor ? (row.actor.type === 'staff' ? `Staff user ${row.actor.id}` : `${row.actor.type} ${row.actor.id}`) : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
