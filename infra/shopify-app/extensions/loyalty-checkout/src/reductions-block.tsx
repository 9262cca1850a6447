// The block beside checkout's discount field (purchase.checkout.reductions.render-after, Shopify Plus only): what
// this order earns, and for a member the balance and the rewards they can afford now. Spending asks first (a
// flexible reward's points chosen in its steps), then the code is applied to the checkout at once; "Undo" before
// paying takes the code off the checkout and gives the points back. A guest gets the estimate and a sign-in link,
// a signed-in customer who has not joined the estimate and a join button. Polaris web components only; every text
// from locales/.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import {
  ShopperApiError,
  type Estimate,
  type Member,
  type OwnedCode,
  type Program,
  type ProgramReward,
  type ShopperErrorKind,
} from './checkout-api';
import {
  checkoutOffers,
  estimateCart,
  flexibleDiscount,
  flexibleMost,
  rewardValue,
  tierProgress,
  type CheckoutLine,
  type Money,
} from './checkout-view';
import { useSignal, type BlockHost, type SignalLike } from './host-shared';

export type DiscountCodeChange = { type: 'addDiscountCode'; code: string } | { type: 'removeDiscountCode'; code: string };

export interface CheckoutHost extends BlockHost {
  currency: () => string;
  lines: SignalLike<readonly CheckoutLine[]>;
  cartDiscounts: SignalLike<ReadonlyArray<{ discountedAmount: Money }>>;
  discountCodes: SignalLike<ReadonlyArray<{ code: string }>>;
  customer: SignalLike<{ id: string } | undefined> | undefined;
  canUpdateCodes: () => boolean;
  applyCode: (change: DiscountCodeChange) => Promise<{ type: 'success' } | { type: 'error'; message: string }>;
  signInUrl: string;
}

type Load =
  | { status: 'loading' }
  | { status: 'failed'; kind: ShopperErrorKind }
  | { status: 'ready'; program: Program; loggedIn: boolean; member: Member | null; codes: OwnedCode[] };

type Notice =
  | { kind: 'applied'; reward: string; code: string; points: number }
  | { kind: 'undone'; reward: string; points: number }
  | { kind: 'joined' }
  | { kind: 'notApplied'; message: string; code: string; refunded: boolean }
  | { kind: 'notRemoved'; message: string }
  | { kind: 'error'; error: ShopperErrorKind };

interface Asking {
  rewardId: string;
  points: number;
}

const kindOf = (error: unknown): ShopperErrorKind => (error instanceof ShopperApiError ? error.kind : 'network');

export function ReductionsBlock({ host }: { host: CheckoutHost }) {
  const { api, t } = host;
  const lines = useSignal(host.lines, []);
  const cartDiscounts = useSignal(host.cartDiscounts, []);
  const applied = useSignal(host.discountCodes, []);
  const customer = useSignal(host.customer, undefined);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  // One key per reward until its redemption is answered, one per undo: a retry is the same request.
  const keys = useRef(new Map<string, string>());
  const keyFor = (name: string) => {
    const key = keys.current.get(name) ?? host.newKey();
    keys.current.set(name, key);
    return key;
  };

  const reload = useCallback(async () => {
    try {
      const [program, who] = await Promise.all([api.program(), api.member()]);
      const codes = who.member ? await api.codes() : [];
      setLoad({ status: 'ready', program, loggedIn: who.loggedIn, member: who.member, codes });
    } catch (error) {
      setLoad({ status: 'failed', kind: kindOf(error) });
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload, customer?.id]);

  // What this order earns, asked again whenever the cart or its discounts change.
  const member = load.status === 'ready' ? load.member : null;
  const cartKey = JSON.stringify([
    lines.map((line) => [line.merchandise.id, line.quantity, line.cost.totalAmount.amount]),
    cartDiscounts,
    applied,
  ]);
  useEffect(() => {
    const cart = estimateCart(lines, [...cartDiscounts], host.currency());
    if (!cart) return setEstimate(null);
    let current = true;
    api.estimate(cart).then(
      (answer) => current && setEstimate(answer),
      () => current && setEstimate(null),
    );
    return () => {
      current = false;
    };
    // The cart's figures and the member (a tier changes the points) are what the estimate reads.
  }, [cartKey, member?.id, member?.vip_tier?.id]);

  const refresh = async () => {
    try {
      const who = await api.member();
      const codes = who.member ? await api.codes() : [];
      setLoad((current) => (current.status === 'ready' ? { ...current, loggedIn: who.loggedIn, member: who.member, codes } : current));
    } catch {
      // The notice says what happened; the figures stay until the next load.
    }
  };

  const spend = async (reward: ProgramReward, points: number | undefined) => {
    setAsking(null);
    setBusy(reward.id);
    setNotice(null);
    try {
      const redemption = await api.redeem(reward.id, {
        idempotencyKey: keyFor(`redeem:${reward.id}`),
        ...(points !== undefined ? { points } : {}),
      });
      keys.current.delete(`redeem:${reward.id}`);
      const code = redemption.discount_code!;
      const result = await host.applyCode({ type: 'addDiscountCode', code });
      if (result.type === 'success') {
        setNotice({ kind: 'applied', reward: redemption.reward_name, code, points: redemption.points_spent });
      } else {
        // Checkout refused the code: the points go back at once rather than wait in an unused code.
        const refunded = await api.refund(redemption.id, { idempotencyKey: keyFor(`undo:${redemption.id}`) }).then(
          () => true,
          () => false,
        );
        setNotice({ kind: 'notApplied', message: result.message, code, refunded });
      }
    } catch (error) {
      const kind = kindOf(error);
      if (kind !== 'network' && kind !== 'unavailable') keys.current.delete(`redeem:${reward.id}`);
      setNotice({ kind: 'error', error: kind });
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const undo = async (code: OwnedCode) => {
    setBusy(`undo:${code.id}`);
    setNotice(null);
    try {
      // The code leaves the checkout first, so an order can never be paid with a code whose points came back.
      const removed = await host.applyCode({ type: 'removeDiscountCode', code: code.discount_code });
      if (removed.type === 'error') {
        setNotice({ kind: 'notRemoved', message: removed.message });
        return;
      }
      await api.refund(code.id, { idempotencyKey: keyFor(`undo:${code.id}`) });
      keys.current.delete(`undo:${code.id}`);
      setNotice({ kind: 'undone', reward: code.reward_name, points: code.points_spent });
    } catch (error) {
      setNotice({ kind: 'error', error: kindOf(error) });
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  const join = async () => {
    setBusy('join');
    setNotice(null);
    try {
      await api.join();
      setNotice({ kind: 'joined' });
    } catch (error) {
      setNotice({ kind: 'error', error: kindOf(error) });
    } finally {
      setBusy(null);
      await refresh();
    }
  };

  if (load.status === 'loading') return <s-spinner accessibilityLabel={t('checkout.loading')} />;
  if (load.status === 'failed') {
    return (
      <s-banner tone="critical" heading={t('checkout.heading')}>
        <s-stack gap="small-200">
          <s-text>{t(`error.${load.kind}`)}</s-text>
          <s-button onClick={() => void reload()}>{t('action.retry')}</s-button>
        </s-stack>
      </s-banner>
    );
  }

  const { program, codes } = load;
  const inCheckout = new Set(applied.map((entry) => entry.code.toLowerCase()));
  const appliedCodes = codes.filter((code) => inCheckout.has(code.discount_code.toLowerCase()));
  const canSpend = host.canUpdateCodes();
  return (
    <s-section heading={t('checkout.heading')}>
      <s-stack gap="base">
        {notice && <NoticeBanner notice={notice} host={host} onDismiss={() => setNotice(null)} />}
        {estimate && <EarnLine estimate={estimate} member={member} loggedIn={load.loggedIn} host={host} />}
        {!load.loggedIn && (
          <s-stack direction="inline" gap="small-200" alignItems="center">
            <s-text>{t('guest.body')}</s-text>
            <s-link href={host.signInUrl}>{t('guest.signIn')}</s-link>
          </s-stack>
        )}
        {load.loggedIn && !member && (
          <s-stack gap="small-200">
            <s-text>{t('join.body')}</s-text>
            <s-button variant="primary" loading={busy === 'join'} onClick={() => void join()}>
              {t('join.action')}
            </s-button>
          </s-stack>
        )}
        {member && <Balance member={member} program={program} host={host} />}
        {member && appliedCodes.length > 0 && (
          <s-stack gap="small-200">
            {appliedCodes.map((code) => (
              <s-stack key={code.id} direction="inline" gap="base" alignItems="center">
                <s-text>
                  {t('applied.line', { reward: code.reward_name, code: code.discount_code, points: host.number(code.points_spent) })}
                </s-text>
                <s-button
                  loading={busy === `undo:${code.id}`}
                  disabled={busy !== null && busy !== `undo:${code.id}`}
                  accessibilityLabel={t('applied.undoLabel', { reward: code.reward_name, points: host.number(code.points_spent) })}
                  onClick={() => void undo(code)}
                >
                  {t('applied.undo')}
                </s-button>
              </s-stack>
            ))}
          </s-stack>
        )}
        {member && member.loyalty_status === 'member' && !canSpend && <s-text color="subdued">{t('rewards.cannotApply')}</s-text>}
        {member && member.loyalty_status === 'member' && canSpend && (
          <Offers
            program={program}
            member={member}
            busy={busy}
            asking={asking}
            host={host}
            onAsk={(rewardId, points) => setAsking(rewardId === null ? null : { rewardId, points })}
            onSpend={(reward, points) => void spend(reward, points)}
          />
        )}
      </s-stack>
    </s-section>
  );
}

function EarnLine({
  estimate,
  member,
  loggedIn,
  host,
}: {
  estimate: Estimate;
  member: Member | null;
  loggedIn: boolean;
  host: CheckoutHost;
}) {
  const { t } = host;
  if (member?.loyalty_status === 'excluded') return null;
  const points = { count: estimate.points, points: host.number(estimate.points) };
  const key = member ? 'earn.member' : loggedIn ? 'earn.joinFirst' : 'earn.guest';
  return (
    <s-stack gap="small-400">
      <s-text type="strong">{t(key, points)}</s-text>
      {estimate.points > 0 && estimate.points_due_at && (
        <s-text color="subdued">{t('earn.pendingUntil', { date: host.date(estimate.points_due_at) })}</s-text>
      )}
    </s-stack>
  );
}

function Balance({ member, program, host }: { member: Member; program: Program; host: CheckoutHost }) {
  const { t } = host;
  const progress = tierProgress(member, program);
  return (
    <s-stack gap="small-200">
      <s-stack direction="inline" gap="small-200" alignItems="center">
        <s-text>{t('balance.points', { count: member.current_points, points: host.number(member.current_points) })}</s-text>
        {member.vip_tier && <s-badge>{member.vip_tier.name}</s-badge>}
      </s-stack>
      {member.loyalty_status === 'excluded' && <s-text color="subdued">{t('balance.excluded')}</s-text>}
      {progress && (
        <s-text color="subdued">
          {t('tier.remaining', { count: progress.remaining, points: host.number(progress.remaining), tier: progress.next })}
        </s-text>
      )}
    </s-stack>
  );
}

function Offers(props: {
  program: Program;
  member: Member;
  busy: string | null;
  asking: Asking | null;
  host: CheckoutHost;
  onAsk: (rewardId: string | null, points: number) => void;
  onSpend: (reward: ProgramReward, points: number | undefined) => void;
}) {
  const { t, number, money } = props.host;
  const offers = checkoutOffers(props.program, props.member);
  if (offers.length === 0) return <s-text color="subdued">{t('rewards.none')}</s-text>;
  return (
    <s-stack gap="small-200">
      <s-heading>{t('rewards.heading')}</s-heading>
      {offers.map(({ reward, cost }) => {
        const value = rewardValue(reward, reward.discount_amount, money, t);
        if (props.asking?.rewardId === reward.id) {
          return (
            <ConfirmSpend
              key={reward.id}
              reward={reward}
              points={props.asking.points}
              balance={props.member.current_points}
              host={props.host}
              onPoints={(points) => props.onAsk(reward.id, points)}
              onConfirm={() => props.onSpend(reward, reward.flexible ? props.asking!.points : undefined)}
              onCancel={() => props.onAsk(null, 0)}
            />
          );
        }
        return (
          <s-stack key={reward.id} direction="inline" gap="base" alignItems="center">
            <s-text>
              {reward.flexible
                ? t('rewards.flexible', { reward: reward.name, points: number(cost) })
                : t('rewards.fixed', { reward: named(reward.name, value, t), points: number(cost) })}
            </s-text>
            <s-button
              loading={props.busy === reward.id}
              disabled={props.busy !== null && props.busy !== reward.id}
              accessibilityLabel={t('rewards.useLabel', { reward: reward.name })}
              onClick={() => props.onAsk(reward.id, cost)}
            >
              {t('rewards.use')}
            </s-button>
          </s-stack>
        );
      })}
    </s-stack>
  );
}

/** "Spend 500 points for $5 off this order?": a flexible reward's points chosen in its steps, then Apply or Cancel. */
function ConfirmSpend(props: {
  reward: ProgramReward;
  points: number;
  balance: number;
  host: CheckoutHost;
  onPoints: (points: number) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t, number, money } = props.host;
  const { reward, points } = props;
  const flexible = reward.flexible;
  const value = rewardValue(reward, flexible ? flexibleDiscount(reward, points) : reward.discount_amount, money, t);
  const step = flexible?.points_per_unit ?? 1;
  const most = flexibleMost(reward, props.balance);
  return (
    <s-box padding="base" border="base" borderRadius="base">
      <s-stack gap="small-200">
        {flexible && (
          <s-stack direction="inline" gap="base" alignItems="center">
            <s-button
              disabled={points <= flexible.min_points}
              accessibilityLabel={t('confirm.fewer', { points: number(step) })}
              onClick={() => props.onPoints(Math.max(flexible.min_points, points - step))}
            >
              −
            </s-button>
            <s-text type="strong">{t('confirm.buys', { points: number(points), value })}</s-text>
            <s-button
              disabled={points >= most}
              accessibilityLabel={t('confirm.more', { points: number(step) })}
              onClick={() => props.onPoints(Math.min(most, points + step))}
            >
              +
            </s-button>
          </s-stack>
        )}
        <s-text>{t('confirm.question', { points: number(points), reward: flexible ? value : named(reward.name, value, t) })}</s-text>
        <s-stack direction="inline" gap="base">
          <s-button variant="primary" onClick={props.onConfirm}>
            {t('confirm.apply')}
          </s-button>
          <s-button onClick={props.onCancel}>{t('confirm.cancel')}</s-button>
        </s-stack>
      </s-stack>
    </s-box>
  );
}

/** A reward's name with what it gives ("Spring treat ($5 off)"), or the name alone where it says as much ("$5 off", "Free shipping (Gold)"). */
function named(name: string, value: string, t: CheckoutHost['t']): string {
  return name.toLowerCase().includes(value.trim().toLowerCase()) ? name : t('rewards.named', { reward: name, value });
}

function NoticeBanner({ notice, host, onDismiss }: { notice: Notice; host: CheckoutHost; onDismiss: () => void }) {
  const { t } = host;
  if (notice.kind === 'error')
    return (
      <s-banner tone="critical" dismissible onDismiss={onDismiss}>
        <s-text>{t(`error.${notice.error}`)}</s-text>
      </s-banner>
    );
  if (notice.kind === 'notApplied')
    return (
      <s-banner tone="warning" dismissible onDismiss={onDismiss}>
        <s-text>
          {notice.refunded
            ? t('applied.refused', { message: notice.message })
            : t('applied.refusedKept', { message: notice.message, code: notice.code })}
        </s-text>
      </s-banner>
    );
  if (notice.kind === 'notRemoved')
    return (
      <s-banner tone="warning" dismissible onDismiss={onDismiss}>
        <s-text>{t('applied.notRemoved', { message: notice.message })}</s-text>
      </s-banner>
    );
  if (notice.kind === 'joined')
    return (
      <s-banner tone="success" dismissible onDismiss={onDismiss}>
        <s-text>{t('join.welcome')}</s-text>
      </s-banner>
    );
  if (notice.kind === 'undone')
    return (
      <s-banner tone="success" dismissible onDismiss={onDismiss}>
        <s-text>{t('applied.undone', { reward: notice.reward, count: notice.points, points: host.number(notice.points) })}</s-text>
      </s-banner>
    );
  return (
    <s-banner tone="success" dismissible onDismiss={onDismiss}>
      <s-text>
        {t('applied.done', { reward: notice.reward, code: notice.code, count: notice.points, points: host.number(notice.points) })}
      </s-text>
    </s-banner>
  );
}
