// One member: balance, tier and status badges, pending and expiring points, the activity (earning and reward
// history with internal notes and who made each entry) and the actions staff take: adjust with a reason (a
// deduction confirmed first), undo an unused redemption (confirmed first), exclude or include, set the
// birthday. Every action's outcome is said in a live region, as the service answered it, and the figures are
// read again from the service. Dates and numbers in the staff member's locale.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, request, type Document, type Resource } from './api';
import { ViewHeading } from './Heading';
import {
  actorLabel,
  adjustmentOutcome,
  type Customer,
  customerName,
  deductionPreview,
  type EarningEntry,
  expiringPoints,
  formatDate,
  formatDateTime,
  formatPoints,
  mergeActivity,
  pendingPoints,
  type PointsAdjustment,
  refundable,
  type RewardEntry,
  statusWord,
} from './model';

/** What a confirmation asks: its title, what will happen, the confirming button's words, and the action. */
interface Confirmation {
  title: string;
  body: string;
  confirm: string;
  run: () => Promise<boolean>;
  /** Called when staff cancel instead. */
  cancelled?: () => void;
}

/**
 * A modal confirmation (the browser's `<dialog>`: focus moves into it and stays there, Escape cancels). Focus
 * goes back to where it was when it closes.
 */
function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation; onClose: (confirmed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const element = dialog.current;
    element?.showModal();
    return () => {
      // Closed before focus goes back: while the dialog is modal, the rest of the page cannot take focus.
      element?.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose(false);
      }}
    >
      <h2 id="confirm-title">{confirmation.title}</h2>
      <p id="confirm-body">{confirmation.body}</p>
      <div class="dialog-buttons">
        <button type="button" onClick={() => onClose(false)} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class="critical"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            await confirmation.run();
            onClose(true);
          }}
        >
          {confirmation.confirm}
        </button>
      </div>
    </dialog>
  );
}

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
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const refresh = () =>
    load(id).then(
      (next) => (setLoaded(next), setFailure(null)),
      (error: unknown) => setFailure(message(error)),
    );
  useEffect(() => void refresh(), [id]);
  /** Runs an action, says its outcome (from the service's answer when `done` is a function), and reads the member again. */
  const act = async <T,>(action: () => Promise<T>, done: string | ((answer: T) => string)): Promise<boolean> => {
    setNotice('');
    let answer: T;
    try {
      answer = await action();
    } catch (error) {
      setFailure(message(error));
      return false;
    }
    setFailure(null);
    await refresh();
    setNotice(typeof done === 'string' ? done : done(answer));
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
      <p class="badges">
        <span class={`badge ${customer.loyalty_status === 'excluded' ? 'critical' : 'success'}`}>
          {statusWord(customer.loyalty_status)}
        </span>
        <span class="badge tier">{customer.vip_tier ? `Tier: ${customer.vip_tier.name}` : 'No tier'}</span>
      </p>
      <p class="muted">
        {customer.email} · id {customer.platform_customer_id} · member since {formatDate(customer.created_at)}
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
          onAdjust={(adjustment, note) => {
            const run = () =>
              act(
                () =>
                  request<Document<Resource<Pick<PointsAdjustment, 'adjustment' | 'points_after'>>>>('POST', `${path}/points`, {
                    adjustment,
                    note,
                  }),
                (answer) => adjustmentOutcome(adjustment, answer.data.attributes.adjustment, answer.data.attributes.points_after),
              );
            if (adjustment > 0) return run();
            // Every deduction is confirmed first, saying what the balance floor will leave of it.
            return new Promise<boolean>((resolve) =>
              setConfirmation({
                title: `Deduct ${formatPoints(-adjustment)} points from ${customerName(customer)}?`,
                body: `${deductionPreview(-adjustment, customer.current_points)} Reason: “${note}”.`,
                confirm: 'Deduct points',
                run: async () => {
                  const done = await run();
                  resolve(done);
                  return done;
                },
                cancelled: () => resolve(false),
              }),
            );
          }}
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
          setConfirmation({
            title: `Undo the redemption of ${entry.attributes.reward_name}?`,
            body:
              `${formatPoints(entry.attributes.points_spent)} points go back to ${customerName(customer)} and the discount code ` +
              `${entry.attributes.discount_code} is deleted in Shopify: it can no longer be used. This cannot be undone.`,
            confirm: 'Undo redemption',
            run: () =>
              act(
                () => request('POST', `${path}/reward-history/${encodeURIComponent(entry.id)}/refund`),
                `Refunded ${entry.attributes.reward_name}: ${formatPoints(entry.attributes.points_spent)} points returned, code ${entry.attributes.discount_code} deleted.`,
              ),
          })
        }
      />
      <ActivityTable earning={earning} rewards={rewards} />
      {confirmation && (
        <ConfirmDialog
          key={confirmation.title}
          confirmation={confirmation}
          onClose={(confirmed) => {
            if (!confirmed) confirmation.cancelled?.();
            setConfirmation(null);
          }}
        />
      )}
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

function Rewards({ rewards, onRefund }: { rewards: Array<Resource<RewardEntry>>; onRefund: (entry: Resource<RewardEntry>) => void }) {
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
                <td>{statusWord(entry.attributes.is_refunded ? 'refunded' : entry.attributes.status)}</td>
                <td>
                  {refundable(entry.attributes) && (
                    <button
                      type="button"
                      onClick={() => onRefund(entry)}
                      aria-label={`Refund ${entry.attributes.reward_name} (${entry.attributes.discount_code})`}
                    >
                      Refund…
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
                <td>{formatDateTime(row.at)}</td>
                <td>
                  {row.kind}
                  {row.detail && <span class="muted"> · {row.detail}</span>}
                </td>
                <td class={row.points < 0 ? 'negative' : 'positive'}>
                  {row.points > 0 ? `+${formatPoints(row.points)}` : formatPoints(row.points)}
                </td>
                <td>{statusWord(row.status)}</td>
                <td>{row.note ?? ''}</td>
                <td>{actorLabel(row.actor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
