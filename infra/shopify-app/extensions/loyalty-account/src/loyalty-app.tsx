// The loyalty page (customer-account.page.render): balance, tier and progress, points expiring, rewards
// with redeem (the code shown and copyable), ways to earn, the referral link and the activity, or the
// join button for a signed-in customer who is not a member. Polaris web components only; every text
// from locales/ through the host's translate.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { Translate } from './host';
import { activityLine, errorMessageKey, isExcluded, rewardOffers, tierProgress, waysToEarn, type OfferState } from './loyalty-view';
import {
  ShopperApiError,
  type ActivityPage,
  type Member,
  type MemberAnswer,
  type OwnedReward,
  type Program,
  type ProgramReward,
  type Redemption,
  type ShopperApi,
  type ShopperErrorKind,
} from './shopper-api';

export interface Host {
  api: ShopperApi;
  t: Translate;
  number: (value: number) => string;
  /** An amount of the shop's currency, whole amounts without decimals ($1, $2.50). */
  money: (amount: number, currency: string) => string;
  date: (iso: string) => string;
  /** A fresh Idempotency-Key for a new redemption. */
  newKey: () => string;
}

type Load = { status: 'loading' } | { status: 'failed'; kind: ShopperErrorKind } | { status: 'ready'; program: Program; who: MemberAnswer };

type Notice =
  | { kind: 'redeemed'; redemption: Redemption }
  | { kind: 'joined'; created: boolean; points: number }
  | { kind: 'error'; error: ShopperErrorKind };

export const ACTIVITY_PAGE_SIZE = 10;

interface Asking {
  rewardId: string;
  points: number;
}

export function kindOf(error: unknown): ShopperErrorKind {
  return error instanceof ShopperApiError ? error.kind : 'network';
}

export function LoyaltyApp({ host }: { host: Host }) {
  const { api, t } = host;
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [activityPage, setActivityPage] = useState(1);
  // The spend being asked about (every redemption is confirmed first), with the points chosen for a flexible reward.
  const [asking, setAsking] = useState<Asking | null>(null);
  // One key per reward until its redemption is answered: a retry after a lost answer is the same redemption.
  const keys = useRef(new Map<string, string>());

  const reload = useCallback(async () => {
    try {
      const [program, who] = await Promise.all([api.program(), api.member()]);
      setLoad({ status: 'ready', program, who });
    } catch (error) {
      setLoad({ status: 'failed', kind: kindOf(error) });
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const refreshMember = async () => {
    try {
      const who = await api.member();
      setLoad((current) => (current.status === 'ready' ? { ...current, who } : current));
    } catch {
      // The notice already says what happened; the figures stay as they were until the next load.
    }
  };

  const redeem = async (rewardId: string, points: number | undefined) => {
    const idempotencyKey = keys.current.get(rewardId) ?? host.newKey();
    keys.current.set(rewardId, idempotencyKey);
    setBusy(rewardId);
    setNotice(null);
    try {
      const redemption = await api.redeem(rewardId, { idempotencyKey, ...(points !== undefined ? { points } : {}) });
      keys.current.delete(rewardId);
      setNotice({ kind: 'redeemed', redemption });
      setActivityPage(1);
    } catch (error) {
      const kind = kindOf(error);
      // Only an unanswered request may have been applied: keep its key for the retry, drop it otherwise.
      if (kind !== 'network' && kind !== 'unavailable') keys.current.delete(rewardId);
      setNotice({ kind: 'error', error: kind });
    } finally {
      setBusy(null);
      await refreshMember();
    }
  };

  const join = async () => {
    setBusy('join');
    setNotice(null);
    try {
      const joined = await api.join();
      setNotice({ kind: 'joined', created: joined.created, points: joined.member.current_points });
    } catch (error) {
      setNotice({ kind: 'error', error: kindOf(error) });
    } finally {
      setBusy(null);
      await refreshMember();
    }
  };

  if (load.status === 'loading') {
    return (
      <s-page heading={t('page.title')}>
        <s-spinner accessibilityLabel={t('page.loading')} />
      </s-page>
    );
  }
  if (load.status === 'failed') {
    return (
      <s-page heading={t('page.title')}>
        <s-banner tone="critical" heading={t('error.heading')}>
          <s-stack gap="base">
            <s-paragraph>{t(errorMessageKey(load.kind))}</s-paragraph>
            <s-button onClick={() => void reload()}>{t('action.retry')}</s-button>
          </s-stack>
        </s-banner>
      </s-page>
    );
  }

  const { program, who } = load;
  const member = who.member;
  return (
    <s-page heading={t('page.title')}>
      <s-stack gap="large">
        {notice && <NoticeBanner notice={notice} host={host} onDismiss={() => setNotice(null)} />}
        {member ? (
          <Balance member={member} program={program} host={host} />
        ) : who.loggedIn ? (
          <Join busy={busy === 'join'} onJoin={() => void join()} program={program} host={host} />
        ) : (
          <s-banner tone="info" heading={t('guest.heading')}>
            <s-paragraph>{t('guest.body')}</s-paragraph>
          </s-banner>
        )}
        <Rewards
          program={program}
          member={member}
          busy={busy}
          host={host}
          asking={asking}
          onAsk={(id, points) => setAsking(id === null ? null : { rewardId: id, points })}
          onRedeem={(id, points) => {
            setAsking(null);
            void redeem(id, points);
          }}
        />
        <WaysToEarn program={program} host={host} />
        {member && <YourRewards host={host} currency={program.currency} version={member.current_points} />}
        {member?.referral_url && <Referral url={member.referral_url} host={host} />}
        {member && <Activity host={host} page={activityPage} onPage={setActivityPage} version={member.current_points} />}
      </s-stack>
    </s-page>
  );
}

function NoticeBanner({ notice, host, onDismiss }: { notice: Notice; host: Host; onDismiss: () => void }) {
  const { t } = host;
  const [copied, setCopied] = useState(false);
  if (notice.kind === 'error') {
    return (
      <s-banner tone="critical" heading={t('error.heading')} dismissible onDismiss={onDismiss}>
        <s-paragraph>{t(errorMessageKey(notice.error))}</s-paragraph>
      </s-banner>
    );
  }
  if (notice.kind === 'joined') {
    return (
      <s-banner tone="success" heading={t(notice.created ? 'join.welcome' : 'join.already')} dismissible onDismiss={onDismiss}>
        <s-paragraph>{t('join.balance', { count: notice.points, points: host.number(notice.points) })}</s-paragraph>
      </s-banner>
    );
  }
  const { redemption } = notice;
  // Store credit has no code: it is on the customer's account already.
  if (redemption.discount_code === null)
    return (
      <s-banner tone="success" heading={t('redeemed.creditedHeading', { reward: redemption.reward_name })}>
        <s-paragraph>
          {t('redeemed.body', { count: redemption.points_spent, points: host.number(redemption.points_spent) })} {t('redeemed.credited')}
        </s-paragraph>
      </s-banner>
    );
  const code = redemption.discount_code;
  return (
    <s-banner tone="success" heading={t('redeemed.heading', { reward: redemption.reward_name })}>
      <s-stack gap="base">
        <s-paragraph>{t('redeemed.body', { count: redemption.points_spent, points: host.number(redemption.points_spent) })}</s-paragraph>
        <s-stack direction="inline" gap="base" alignItems="center">
          <s-text>{t('redeemed.code')}</s-text>
          <s-text type="strong">{code}</s-text>
          <s-clipboard-item id="loyalty-redeemed-code" text={code} onCopy={() => setCopied(true)} />
          <s-button
            command="--copy"
            commandFor="loyalty-redeemed-code"
            accessibilityLabel={t(copied ? 'redeemed.copiedLabel' : 'redeemed.copyLabel', { code })}
          >
            {t(copied ? 'action.copied' : 'action.copy')}
          </s-button>
        </s-stack>
        {redemption.expires_at && <s-text color="subdued">{t('redeemed.expires', { date: host.date(redemption.expires_at) })}</s-text>}
      </s-stack>
    </s-banner>
  );
}

function Balance({ member, program, host }: { member: Member; program: Program; host: Host }) {
  const { t } = host;
  const progress = tierProgress(member, program);
  return (
    <s-section heading={t('balance.heading')}>
      <s-stack gap="base">
        <s-heading>{t('balance.points', { count: member.current_points, points: host.number(member.current_points) })}</s-heading>
        {isExcluded(member) && (
          <s-banner tone="warning">
            <s-paragraph>{t('balance.excluded')}</s-paragraph>
          </s-banner>
        )}
        {member.vip_tier && (
          <s-stack direction="inline" gap="small" alignItems="center">
            <s-text>{t('tier.current')}</s-text>
            <s-badge>{member.vip_tier.name}</s-badge>
          </s-stack>
        )}
        {progress && (
          <s-stack gap="small">
            <s-progress value={progress.percent} max={100} accessibilityLabel={t('tier.progressLabel', { tier: progress.next })} />
            <s-text>
              {t('tier.remaining', { count: progress.remaining, points: host.number(progress.remaining), tier: progress.next })}
            </s-text>
          </s-stack>
        )}
        {member.pending_points > 0 && (
          <s-text color="subdued">
            {t('balance.pending', { count: member.pending_points, points: host.number(member.pending_points) })}
          </s-text>
        )}
        {member.points_expiring && (
          <s-text tone="warning">
            {t('balance.expiring', {
              count: member.points_expiring.points,
              points: host.number(member.points_expiring.points),
              date: host.date(member.points_expiring.at),
            })}
          </s-text>
        )}
      </s-stack>
    </s-section>
  );
}

function Join({ busy, onJoin, program, host }: { busy: boolean; onJoin: () => void; program: Program; host: Host }) {
  const { t } = host;
  const signup = program.earning_rules.find((rule) => rule.action === 'signup');
  return (
    <s-section heading={t('join.heading')}>
      <s-stack gap="base">
        <s-paragraph>
          {signup ? t('join.bodySignup', { count: signup.points, points: host.number(signup.points) }) : t('join.body')}
        </s-paragraph>
        <s-button variant="primary" loading={busy} onClick={onJoin}>
          {t('join.action')}
        </s-button>
      </s-stack>
    </s-section>
  );
}

function Rewards(props: {
  program: Program;
  member: Member | null;
  busy: string | null;
  host: Host;
  asking: Asking | null;
  onAsk: (rewardId: string | null, points: number) => void;
  onRedeem: (rewardId: string, points: number | undefined) => void;
}) {
  const { t } = props.host;
  const offers = rewardOffers(props.program, props.member);
  return (
    <s-section heading={t('rewards.heading')}>
      {offers.length === 0 ? (
        <s-paragraph>{t('rewards.none')}</s-paragraph>
      ) : (
        <s-stack gap="base">
          {offers.map(({ reward, cost, state }) => (
            <s-box key={reward.id} padding="base" border="base" borderRadius="base">
              <s-stack gap="small">
                <s-heading>{reward.name}</s-heading>
                {reward.description && <s-paragraph>{reward.description}</s-paragraph>}
                <s-text>{t('rewards.cost', { count: cost, points: props.host.number(cost) })}</s-text>
                {props.asking?.rewardId === reward.id && props.member ? (
                  <ConfirmSpend
                    reward={reward}
                    points={props.asking.points}
                    balance={props.member.current_points}
                    currency={props.program.currency}
                    host={props.host}
                    onPoints={(points) => props.onAsk(reward.id, points)}
                    onConfirm={() => props.onRedeem(reward.id, reward.flexible ? props.asking!.points : undefined)}
                    onCancel={() => props.onAsk(null, 0)}
                  />
                ) : (
                  <OfferAction
                    state={state}
                    rewardId={reward.id}
                    name={reward.name}
                    flexible={reward.flexible !== null}
                    busy={props.busy}
                    host={props.host}
                    onRedeem={(id) => props.onAsk(id, cost)}
                  />
                )}
              </s-stack>
            </s-box>
          ))}
        </s-stack>
      )}
    </s-section>
  );
}

/** A flexible reward's discount for `points`: one unit per `points_per_unit`, rounded down to the cent. */
function flexibleDiscount(reward: ProgramReward, points: number): number {
  const unit = reward.flexible?.points_per_unit ?? 1;
  return Math.floor((points / unit) * 100) / 100;
}

/** "Spend 500 points for $5 off?": a flexible reward's points chosen in its steps first, then Confirm or Cancel. */
function ConfirmSpend(props: {
  reward: ProgramReward;
  points: number;
  balance: number;
  currency: string;
  host: Host;
  onPoints: (points: number) => void;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t, number } = props.host;
  const { reward, points } = props;
  const flexible = reward.flexible;
  const offer = flexible
    ? codeValue({ discount_type: reward.discount_type, discount_value: flexibleDiscount(reward, points) }, props.currency, t)!
    : reward.name;
  const step = flexible?.points_per_unit ?? 1;
  const most = flexible
    ? Math.max(
        flexible.min_points,
        flexible.min_points + Math.floor((Math.min(flexible.max_points, props.balance) - flexible.min_points) / step) * step,
      )
    : points;
  return (
    <s-stack gap="small">
      {flexible && (
        <s-stack direction="inline" gap="base" alignItems="center">
          <s-button
            disabled={points <= flexible.min_points}
            accessibilityLabel={t('confirm.fewer', { points: number(step) })}
            onClick={() => props.onPoints(Math.max(flexible.min_points, points - step))}
          >
            −
          </s-button>
          <s-text type="strong">{t('confirm.buys', { points: number(points), value: offer })}</s-text>
          <s-button
            disabled={points >= most}
            accessibilityLabel={t('confirm.more', { points: number(step) })}
            onClick={() => props.onPoints(Math.min(most, points + step))}
          >
            +
          </s-button>
        </s-stack>
      )}
      <s-paragraph>{t('confirm.question', { points: number(points), reward: offer })}</s-paragraph>
      <s-stack direction="inline" gap="base">
        <s-button variant="primary" onClick={props.onConfirm}>
          {t('confirm.confirm')}
        </s-button>
        <s-button onClick={props.onCancel}>{t('confirm.cancel')}</s-button>
      </s-stack>
    </s-stack>
  );
}

function OfferAction(props: {
  state: OfferState | null;
  rewardId: string;
  name: string;
  flexible: boolean;
  busy: string | null;
  host: Host;
  onRedeem: (rewardId: string, points: number | undefined) => void;
}) {
  const { t, number } = props.host;
  const { state } = props;
  if (!state) return null;
  if (state.kind === 'redeemable') {
    return (
      <s-button
        variant="primary"
        loading={props.busy === props.rewardId}
        disabled={props.busy !== null && props.busy !== props.rewardId}
        accessibilityLabel={t('rewards.redeemLabel', { reward: props.name, count: state.points, points: number(state.points) })}
        onClick={() => props.onRedeem(props.rewardId, props.flexible ? state.points : undefined)}
      >
        {t('rewards.redeem')}
      </s-button>
    );
  }
  if (state.kind === 'short') {
    return <s-text color="subdued">{t('rewards.short', { count: state.needed, points: number(state.needed) })}</s-text>;
  }
  if (state.kind === 'tier') return <s-text color="subdued">{t('rewards.tier', { tier: state.tier })}</s-text>;
  return <s-text color="subdued">{t('rewards.unavailable')}</s-text>;
}

function WaysToEarn({ program, host }: { program: Program; host: Host }) {
  const { t } = host;
  const ways = waysToEarn(program);
  if (ways.length === 0) return null;
  const { campaign } = program;
  return (
    <s-section heading={t('earn.heading')}>
      <s-stack gap="base">
        {campaign && (
          <s-banner tone="info" heading={campaign.name}>
            {t('earn.campaign', {
              campaign: campaign.name,
              multiplier: host.number(campaign.multiplier),
              date: host.date(campaign.ends_at),
            })}
          </s-banner>
        )}
        <s-unordered-list>
          {ways.map((way) => {
            const points = t('earn.points', { count: way.points, points: host.number(way.points) });
            return (
              <s-list-item key={way.id}>
                {way.url ? <s-link href={way.url}>{way.label}</s-link> : way.label}
                {' — '}
                {way.per === null ? points : t('earn.perSpend', { points, amount: host.money(way.per, program.currency) })}
              </s-list-item>
            );
          })}
        </s-unordered-list>
      </s-stack>
    </s-section>
  );
}

function Referral({ url, host }: { url: string; host: Host }) {
  const { t } = host;
  const [copied, setCopied] = useState(false);
  return (
    <s-section heading={t('referral.heading')}>
      <s-stack gap="base">
        <s-paragraph>{t('referral.body')}</s-paragraph>
        <s-stack direction="inline" gap="base" alignItems="center">
          <s-text type="strong">{url}</s-text>
          <s-clipboard-item id="loyalty-referral-url" text={url} onCopy={() => setCopied(true)} />
          <s-button command="--copy" commandFor="loyalty-referral-url">
            {t(copied ? 'action.copied' : 'referral.copy')}
          </s-button>
        </s-stack>
      </s-stack>
    </s-section>
  );
}

type RewardsLoad =
  | { status: 'loading' }
  | { status: 'failed'; kind: ShopperErrorKind }
  | { status: 'ready'; codes: OwnedReward[]; page: number; hasMore: boolean; more: 'idle' | 'loading' | 'failed' };

/** What a reward gives, by its kind: "$5 off", "10% off", "Free shipping", "$5 store credit". */
function codeValue(code: Pick<OwnedReward, 'discount_type' | 'discount_value'>, currency: string, t: Host['t']): string | null {
  const money = (value: number) =>
    new Intl.NumberFormat(undefined, { style: 'currency', currency, minimumFractionDigits: value % 1 ? 2 : 0 }).format(value);
  if (code.discount_type === 'free_shipping')
    return code.discount_value ? t('yourRewards.freeShippingCap', { amount: money(code.discount_value) }) : t('yourRewards.freeShipping');
  if (code.discount_value === null) return null;
  if (code.discount_type === 'percentage') return t('yourRewards.percentage', { amount: code.discount_value });
  const key =
    { free_product: 'yourRewards.freeProduct', store_credit: 'yourRewards.storeCredit' }[code.discount_type] ?? 'yourRewards.fixed';
  return t(key, { amount: money(code.discount_value) });
}

/** The member's codes still to use, from the service: each reward's name, value, end date, the code and a copy button. */
function YourRewards({ host, currency, version }: { host: Host; currency: string; version: number }) {
  const { t, api } = host;
  const [state, setState] = useState<RewardsLoad>({ status: 'loading' });
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api.rewards(1).then(
      ({ codes, hasMore }) => current && setState({ status: 'ready', codes, page: 1, hasMore, more: 'idle' }),
      (error: unknown) => current && setState({ status: 'failed', kind: kindOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, version]);
  // Past the first page: the next page's codes added below the ones shown.
  const showMore = () => {
    if (state.status !== 'ready') return;
    const shown = state;
    setState({ ...shown, more: 'loading' });
    api.rewards(shown.page + 1).then(
      ({ codes, hasMore }) => setState({ ...shown, codes: [...shown.codes, ...codes], page: shown.page + 1, hasMore, more: 'idle' }),
      () => setState({ ...shown, more: 'failed' }),
    );
  };
  return (
    <s-section heading={t('yourRewards.heading')}>
      {state.status === 'loading' && <s-spinner accessibilityLabel={t('yourRewards.loading')} />}
      {state.status === 'failed' && <s-paragraph tone="critical">{t(errorMessageKey(state.kind))}</s-paragraph>}
      {state.status === 'ready' &&
        (state.codes.length === 0 ? (
          <s-paragraph>{t('yourRewards.none')}</s-paragraph>
        ) : (
          <s-stack gap="base">
            {state.codes.map((code) => {
              const value = codeValue(code, currency, t);
              const id = `loyalty-code-${code.id}`;
              return (
                <s-box key={code.id} padding="base" border="base" borderRadius="base">
                  <s-stack gap="small">
                    <s-heading>{code.reward_name}</s-heading>
                    {value && value.replace(/[.,]00\b/, '') !== code.reward_name.replace(/[.,]00\b/, '') && <s-text>{value}</s-text>}
                    <s-text color="subdued">
                      {code.expires_at ? t('yourRewards.expires', { date: host.date(code.expires_at) }) : t('yourRewards.noExpiry')}
                    </s-text>
                    <s-stack direction="inline" gap="base" alignItems="center">
                      <s-text type="strong">{code.discount_code}</s-text>
                      <s-clipboard-item id={id} text={code.discount_code} onCopy={() => setCopied(code.id)} />
                      <s-button
                        command="--copy"
                        commandFor={id}
                        accessibilityLabel={t(copied === code.id ? 'redeemed.copiedLabel' : 'redeemed.copyLabel', {
                          code: code.discount_code,
                        })}
                      >
                        {t(copied === code.id ? 'action.copied' : 'action.copy')}
                      </s-button>
                    </s-stack>
                  </s-stack>
                </s-box>
              );
            })}
            {state.more === 'failed' && <s-paragraph tone="critical">{t('error.network')}</s-paragraph>}
            {state.hasMore && (
              <s-button loading={state.more === 'loading'} onClick={showMore}>
                {t('yourRewards.more')}
              </s-button>
            )}
          </s-stack>
        ))}
    </s-section>
  );
}

type ActivityLoad = { status: 'loading' } | { status: 'failed'; kind: ShopperErrorKind } | { status: 'ready'; page: ActivityPage };

/** The member's history, a page at a time; `version` (the balance) reloads it after a redemption. */
function Activity({ host, page, onPage, version }: { host: Host; page: number; onPage: (page: number) => void; version: number }) {
  const { t, api } = host;
  const [state, setState] = useState<ActivityLoad>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    api.activity(page, ACTIVITY_PAGE_SIZE).then(
      (answer) => current && setState({ status: 'ready', page: answer }),
      (error: unknown) => current && setState({ status: 'failed', kind: kindOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, page, version]);

  return (
    <s-section heading={t('activity.heading')}>
      {state.status === 'loading' && <s-spinner accessibilityLabel={t('activity.loading')} />}
      {state.status === 'failed' && <s-paragraph tone="critical">{t(errorMessageKey(state.kind))}</s-paragraph>}
      {state.status === 'ready' && (
        <s-stack gap="base">
          {state.page.entries.length === 0 ? (
            <s-paragraph>{t('activity.none')}</s-paragraph>
          ) : (
            <s-unordered-list>
              {state.page.entries.map((entry) => {
                const line = activityLine(entry);
                return (
                  <s-list-item key={entry.id}>
                    {t(line.key, { label: entry.label })}
                    {': '}
                    {`${line.sign}${host.number(line.points)}`}
                    {' · '}
                    {host.date(entry.created_at)}
                    {entry.status === 'pending' ? ` · ${t('activity.pending')}` : ''}
                    {entry.discount_code ? ` · ${t('activity.code', { code: entry.discount_code })}` : ''}
                  </s-list-item>
                );
              })}
            </s-unordered-list>
          )}
          {(page > 1 || state.page.hasMore) && (
            <s-stack direction="inline" gap="base">
              {page > 1 && <s-button onClick={() => onPage(page - 1)}>{t('activity.newer')}</s-button>}
              {state.page.hasMore && <s-button onClick={() => onPage(page + 1)}>{t('activity.older')}</s-button>}
            </s-stack>
          )}
        </s-stack>
      )}
    </s-section>
  );
}
