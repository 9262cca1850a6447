// The thank-you block (purchase.thank-you.block.render) and the order status block
// (customer-account.order-status.block.render), every plan but Starter, each standing on its own: the points this
// order earns and when they arrive, the member's balance and tier progress; for a signed-in customer who has not
// joined, a join button that enrols them (this order's customer); for a guest, an invitation to sign in.
// "The points this order earns" is POST /shopper/estimate on the order's own lines: the engine's functions, which
// the paid order's orders/paid webhook awards exactly (docs/decisions.md, "The points an order earns, after
// checkout").
import { useEffect, useState } from 'preact/hooks';
import { ShopperApiError, type Estimate, type Member, type Program, type ShopperErrorKind } from './checkout-api';
import { estimateCart, pointsDueAt, tierProgress, type CheckoutLine, type Money } from './checkout-view';
import { useSignal, type BlockHost, type SignalLike } from './host-shared';

export interface OrderHost extends BlockHost {
  currency: () => string;
  lines: SignalLike<readonly CheckoutLine[]>;
  orderDiscounts: SignalLike<ReadonlyArray<{ discountedAmount: Money }>>;
  /** When the order was placed (the order status page); null on the thank-you page, which is the moment of payment. */
  placedAt: () => string | null;
  /** Whether the order was cancelled since (the order status page). */
  cancelled: () => boolean;
}

type Load =
  | { status: 'loading' }
  | { status: 'failed'; kind: ShopperErrorKind }
  | { status: 'ready'; program: Program; loggedIn: boolean; member: Member | null; estimate: Estimate | null; askedAt: number };

const kindOf = (error: unknown): ShopperErrorKind => (error instanceof ShopperApiError ? error.kind : 'network');

export function OrderPoints({ host }: { host: OrderHost }) {
  const { api, t } = host;
  const lines = useSignal(host.lines, []);
  const discounts = useSignal(host.orderDiscounts, []);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [joining, setJoining] = useState<'idle' | 'busy' | 'joined' | ShopperErrorKind>('idle');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    const cart = estimateCart(lines, [...discounts], host.currency());
    const askedAt = host.now();
    Promise.all([api.program(), api.member(), cart ? api.estimate(cart) : Promise.resolve(null)]).then(
      ([program, who, estimate]) =>
        current && setLoad({ status: 'ready', program, loggedIn: who.loggedIn, member: who.member, estimate, askedAt }),
      (error: unknown) => current && setLoad({ status: 'failed', kind: kindOf(error) }),
    );
    return () => {
      current = false;
    };
    // The order's lines do not change once it is placed; the first value is the order.
  }, [api, lines.length, attempt]);

  const join = async () => {
    setJoining('busy');
    try {
      const joined = await api.join();
      setJoining('joined');
      setLoad((current) => (current.status === 'ready' ? { ...current, member: joined.member } : current));
    } catch (error) {
      setJoining(kindOf(error));
    }
  };

  if (load.status === 'loading') return <s-spinner accessibilityLabel={t('order.loading')} />;
  if (load.status === 'failed') {
    return (
      <s-banner tone="critical" heading={t('order.heading')}>
        <s-stack gap="small-200">
          <s-text>{t(`error.${load.kind}`)}</s-text>
          <s-button onClick={() => setAttempt((count) => count + 1)}>{t('action.retry')}</s-button>
        </s-stack>
      </s-banner>
    );
  }

  const { program, member, estimate } = load;
  if (!load.loggedIn) {
    return (
      <s-section heading={t('order.heading')}>
        <s-text>{t('order.guest')}</s-text>
      </s-section>
    );
  }
  if (!member) {
    return (
      <s-section heading={t('order.joinHeading')}>
        <s-stack gap="small-200">
          <s-text>
            {estimate && estimate.points > 0
              ? t('order.joinBody', { count: estimate.points, points: host.number(estimate.points) })
              : t('order.joinPlain')}
          </s-text>
          {joining !== 'idle' && joining !== 'busy' && joining !== 'joined' && (
            <s-banner tone="critical">
              <s-text>{t(`error.${joining}`)}</s-text>
            </s-banner>
          )}
          <s-button variant="primary" loading={joining === 'busy'} onClick={() => void join()}>
            {t('join.action')}
          </s-button>
        </s-stack>
      </s-section>
    );
  }

  const progress = tierProgress(member, program);
  const dueAt = estimate ? pointsDueAt(estimate, load.askedAt, host.placedAt()) : null;
  const arrived = dueAt !== null && Date.parse(dueAt) <= host.now();
  return (
    <s-section heading={t('order.heading')}>
      <s-stack gap="small-200">
        {joining === 'joined' && (
          <s-banner tone="success">
            <s-text>{t('join.welcome')}</s-text>
          </s-banner>
        )}
        {host.cancelled() ? (
          <s-text>{t('order.cancelled')}</s-text>
        ) : (
          estimate &&
          member.loyalty_status === 'member' &&
          joining !== 'joined' && (
            <>
              <s-text type="strong">{t('order.earns', { count: estimate.points, points: host.number(estimate.points) })}</s-text>
              {estimate.points > 0 && (
                <s-text>{dueAt === null || arrived ? t('order.approved') : t('order.pending', { date: host.date(dueAt) })}</s-text>
              )}
            </>
          )
        )}
        <s-stack direction="inline" gap="small-200" alignItems="center">
          <s-text>{t('balance.now', { count: member.current_points, points: host.number(member.current_points) })}</s-text>
          {member.vip_tier && <s-badge>{member.vip_tier.name}</s-badge>}
        </s-stack>
        {member.pending_points > 0 && (
          <s-text color="subdued">
            {t('balance.pending', { count: member.pending_points, points: host.number(member.pending_points) })}
          </s-text>
        )}
        {progress && (
          <s-stack gap="small-400">
            <s-progress value={progress.percent} max={100} accessibilityLabel={t('tier.progressLabel', { tier: progress.next })} />
            <s-text color="subdued">
              {t('tier.remaining', { count: progress.remaining, points: host.number(progress.remaining), tier: progress.next })}
            </s-text>
          </s-stack>
        )}
      </s-stack>
    </s-section>
  );
}
