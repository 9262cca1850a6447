// The loyalty program at the shop counter: the home tile, the finder (the cart's customer, or a search by e-mail,
// name or id) and the member's panel (balance, tier, the rewards they can afford, redeem into a code added to the
// POS cart, undo, adjust with a reason, recent activity), the block and the menu item on the customer details
// screen. Every write is confirmed first; the service records the staff member (the token's `sub`) on each.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { PosHost } from './pos-host';
import { StaffApiError, type HistoryLine, type Member, type Program, type Redemption, type Reward } from './staff-api';

/** The member of a customer id, followed as the id changes: loading, a member, not a member, or a failure. */
type MemberLoad =
  { status: 'loading' } | { status: 'member'; member: Member } | { status: 'not-member' } | { status: 'failed'; why: string };

function failure(host: PosHost, error: unknown): string {
  if (error instanceof StaffApiError && error.kind === 'no-permission') return host.t('noPermission');
  if (error instanceof StaffApiError && error.kind === 'refused') return error.message;
  return host.t('unavailable');
}

function useMember(host: PosHost, customerId: string | null, version = 0): MemberLoad | null {
  const [load, setLoad] = useState<MemberLoad | null>(null);
  useEffect(() => {
    if (customerId === null) return setLoad(null);
    let current = true;
    setLoad({ status: 'loading' });
    host.api.member(customerId).then(
      (member) => current && setLoad(member ? { status: 'member', member } : { status: 'not-member' }),
      (error: unknown) => current && setLoad({ status: 'failed', why: failure(host, error) }),
    );
    return () => {
      current = false;
    };
  }, [host, customerId, version]);
  return load;
}

/** The cart's customer id, following the cart. */
function useCartCustomer(host: PosHost): string | null {
  const [customerId, setCustomerId] = useState(host.cart.customerId());
  useEffect(() => host.cart.subscribe(() => setCustomerId(host.cart.customerId())), [host]);
  return customerId;
}

/** The cart's codes, following the cart. */
function useCartCodes(host: PosHost): string[] {
  const [codes, setCodes] = useState(host.cart.codes());
  useEffect(() => host.cart.subscribe(() => setCodes(host.cart.codes())), [host]);
  return codes;
}

const pointsText = (host: PosHost, points: number) => host.t('points', { count: points, points: host.number(points) });

/** The smart grid's tile: the cart's member and balance, or an invitation to find one; a tap opens the modal. */
export function HomeTile({ host }: { host: PosHost }) {
  const load = useMember(host, useCartCustomer(host));
  const subheading =
    load?.status === 'member'
      ? host.t('tile.member', { name: load.member.name, points: pointsText(host, load.member.currentPoints) })
      : host.t('tile.find');
  return <s-tile heading={host.t('title')} subheading={subheading} onClick={() => host.presentModal()} />;
}

/** The customer details screen's menu item: opens the member's panel (the action target). */
export function CustomerMenuItem({ host }: { host: PosHost }) {
  return <s-button onClick={() => host.presentModal()}>{host.t('menuItem')}</s-button>;
}

/** The customer details screen's block: the member's balance and tier, and the way to their panel. */
export function CustomerBlock({ host }: { host: PosHost }) {
  const load = useMember(host, host.viewedCustomerId());
  return (
    <s-pos-block heading={host.t('title')}>
      <s-stack direction="block" gap="small">
        {(load === null || load.status === 'not-member') && <s-text>{host.t('notMember')}</s-text>}
        {load?.status === 'loading' && <s-text>{host.t('loading')}</s-text>}
        {load?.status === 'failed' && <s-banner tone="critical" heading={load.why} />}
        {load?.status === 'member' && (
          <>
            <s-text type="strong">{pointsText(host, load.member.currentPoints)}</s-text>
            <s-text>{load.member.tier ? host.t('tier', { tier: load.member.tier.name }) : host.t('noTier')}</s-text>
            {load.member.excluded && <s-badge tone="warning">{host.t('excluded')}</s-badge>}
            <s-button onClick={() => host.presentModal()}>{host.t('openPanel')}</s-button>
          </>
        )}
      </s-stack>
    </s-pos-block>
  );
}

/** The customer details action: the member's panel for the customer whose screen it is. */
export function CustomerAction({ host }: { host: PosHost }) {
  const customerId = host.viewedCustomerId();
  return (
    <s-page heading={host.t('title')}>
      <s-scroll-box>
        {customerId ? <MemberPanel host={host} customerId={customerId} /> : <s-text>{host.t('notMember')}</s-text>}
      </s-scroll-box>
    </s-page>
  );
}

/** The home modal: the cart's customer or one found by search, then their panel. */
export function HomeModal({ host }: { host: PosHost }) {
  const cartCustomer = useCartCustomer(host);
  const [chosen, setChosen] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<
    { status: 'idle' } | { status: 'searching' } | { status: 'found'; members: Member[] } | { status: 'failed'; why: string }
  >({
    status: 'idle',
  });
  const cartLoad = useMember(host, cartCustomer);

  const search = (text: string) => {
    if (text.trim() === '') return;
    setResults({ status: 'searching' });
    host.api.search(text).then(
      (members) => setResults({ status: 'found', members }),
      (error: unknown) => setResults({ status: 'failed', why: failure(host, error) }),
    );
  };

  if (chosen !== null) {
    return (
      <s-page heading={host.t('title')}>
        <s-scroll-box>
          <s-stack direction="block" gap="base">
            <s-button onClick={() => setChosen(null)}>{host.t('finder.back')}</s-button>
            <MemberPanel host={host} customerId={chosen} />
          </s-stack>
        </s-scroll-box>
      </s-page>
    );
  }
  return (
    <s-page heading={host.t('title')}>
      <s-scroll-box>
        <s-stack direction="block" gap="base">
          <s-section heading={host.t('finder.cart')}>
            <s-stack direction="block" gap="small">
              {cartCustomer === null && <s-text>{host.t('finder.noCartCustomer')}</s-text>}
              {cartLoad?.status === 'loading' && <s-text>{host.t('loading')}</s-text>}
              {cartLoad?.status === 'not-member' && <s-text>{host.t('finder.cartNotMember')}</s-text>}
              {cartLoad?.status === 'failed' && <s-banner tone="critical" heading={cartLoad.why} />}
              {cartLoad?.status === 'member' && (
                <s-button variant="primary" onClick={() => setChosen(cartLoad.member.id)}>
                  {host.t('finder.open', { name: cartLoad.member.name, points: pointsText(host, cartLoad.member.currentPoints) })}
                </s-button>
              )}
            </s-stack>
          </s-section>
          <s-section heading={host.t('finder.search')}>
            <s-stack direction="block" gap="small">
              <s-search-field
                placeholder={host.t('finder.placeholder')}
                value={query}
                onInput={(event) => setQuery(String((event.currentTarget as unknown as { value?: string }).value ?? ''))}
                onChange={(event) => search(String((event.currentTarget as unknown as { value?: string }).value ?? query))}
              />
              <s-button onClick={() => search(query)}>{host.t('finder.go')}</s-button>
              {results.status === 'searching' && <s-text>{host.t('finder.searching')}</s-text>}
              {results.status === 'failed' && <s-banner tone="critical" heading={results.why} />}
              {results.status === 'found' && results.members.length === 0 && <s-text>{host.t('finder.none')}</s-text>}
              {results.status === 'found' &&
                results.members.map((member) => (
                  <s-button key={member.id} onClick={() => setChosen(member.id)}>
                    {host.t('finder.result', {
                      name: member.name,
                      email: member.email ?? host.t('finder.noEmail'),
                      points: pointsText(host, member.currentPoints),
                    })}
                  </s-button>
                ))}
            </s-stack>
          </s-section>
        </s-stack>
      </s-scroll-box>
    </s-page>
  );
}

/** An entry's action in words: the program's own actions by name, an earning rule's (a follow, a review...) as written. */
function actionLabel(host: PosHost, action: string): string {
  const key = `history.action.${action}`;
  const label = host.t(key);
  return label === key ? action.replace(/[_-]+/g, ' ') : label;
}

/** What a reward gives: "$5.00 off", "10% off", "Free shipping", "$5.00 store credit". */
function offer(host: PosHost, reward: Reward, currency: string, points: number): string {
  const amount = reward.flexible ? Math.floor((points / reward.flexible.step) * 100) / 100 : reward.discountAmount;
  if (reward.discountType === 'percentage') return host.t('offer.percentage', { amount });
  if (reward.discountType === 'free_shipping') return host.t('offer.freeShipping');
  if (reward.discountType === 'store_credit') return host.t('offer.storeCredit', { amount: host.money(amount, currency) });
  if (reward.discountType === 'free_product') return host.t('offer.freeProduct');
  return host.t('offer.fixed', { amount: host.money(amount, currency) });
}

/** Why a member cannot redeem a reward now, or null when they can. */
function blocker(host: PosHost, member: Member, reward: Reward): string | null {
  if (member.excluded) return host.t('excluded');
  if (reward.tierId !== null && member.tier?.id !== reward.tierId) return host.t('rewards.tierOnly');
  const cost = reward.flexible ? reward.flexible.min : reward.pointsCost;
  if (member.currentPoints < cost) return host.t('rewards.short', { points: pointsText(host, cost - member.currentPoints) });
  return null;
}

type Asking =
  | { kind: 'redeem'; reward: Reward; points: number }
  | { kind: 'undo'; redemption: Redemption }
  | { kind: 'adjust'; adjustment: number; reason: string };

interface PanelData {
  program: Program;
  active: Redemption[];
  history: HistoryLine[];
}

/** A confirmation, with its Confirm button focused when it appears so the keyboard user answers it at once. */
function Confirm(props: { host: PosHost; question: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const confirm = useRef<HTMLElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <s-banner tone="warning" heading={props.question}>
      <s-stack direction="inline" gap="small">
        <s-button ref={confirm} variant="primary" loading={props.busy} onClick={props.onConfirm}>
          {props.host.t('confirm')}
        </s-button>
        <s-button disabled={props.busy} onClick={props.onCancel}>
          {props.host.t('cancel')}
        </s-button>
      </s-stack>
    </s-banner>
  );
}

/** The member's panel: balance and tier, rewards, the cart's codes with undo, adjust, recent activity. */
export function MemberPanel({ host, customerId }: { host: PosHost; customerId: string }) {
  const [version, setVersion] = useState(0);
  const load = useMember(host, customerId, version);
  const codes = useCartCodes(host);
  const [data, setData] = useState<PanelData | { failed: string } | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'critical'; text: string } | null>(null);
  const [chosenPoints, setChosenPoints] = useState<Record<string, number>>({});
  const [adjustment, setAdjustment] = useState('');
  const [reason, setReason] = useState('');
  const [adjustError, setAdjustError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    Promise.all([host.api.program(), host.api.activeRedemptions(customerId), host.api.history(customerId)]).then(
      ([program, active, history]) => current && setData({ program, active, history }),
      (error: unknown) => current && setData({ failed: failure(host, error) }),
    );
    return () => {
      current = false;
    };
  }, [host, customerId, version]);

  const refresh = useCallback(() => setVersion((value) => value + 1), []);

  if (load === null || load.status === 'loading' || data === null) return <s-text>{host.t('loading')}</s-text>;
  if (load.status === 'not-member') return <s-text>{host.t('notMember')}</s-text>;
  if (load.status === 'failed') return <s-banner tone="critical" heading={load.why} />;
  if ('failed' in data) return <s-banner tone="critical" heading={data.failed} />;
  const { member } = load;
  const { program } = data;

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      const text = await work();
      setNotice({ tone: 'success', text });
      host.toast(text);
      setAsking(null);
      refresh();
    } catch (error) {
      setNotice({ tone: 'critical', text: failure(host, error) });
      setAsking(null);
    } finally {
      setBusy(false);
    }
  };

  const redeem = (reward: Reward, points: number) =>
    run(async () => {
      const redemption = await host.api.redeem(reward.id, member.id, reward.flexible ? points : undefined);
      // Store credit is credited to the customer's account: no code to add.
      if (redemption.code === null) return host.t('redeemed.credited', { reward: redemption.rewardName, name: member.name });
      await host.cart.addCode(redemption.code);
      return host.t('redeemed.code', { code: redemption.code, reward: redemption.rewardName });
    });

  const undo = (redemption: Redemption) =>
    run(async () => {
      await host.api.undo(member.id, redemption.id);
      if (redemption.code !== null) await host.cart.removeCode(redemption.code);
      return host.t('undone', { reward: redemption.rewardName, points: pointsText(host, redemption.pointsSpent) });
    });

  const adjust = (amount: number, why: string) =>
    run(async () => {
      const balance = await host.api.adjust(member.id, amount, why);
      setAdjustment('');
      setReason('');
      return host.t('adjusted', { name: member.name, points: pointsText(host, balance) });
    });

  const askAdjust = () => {
    const amount = Number(adjustment);
    if (!Number.isInteger(amount) || amount === 0) return setAdjustError(host.t('adjust.badAmount'));
    if (reason.trim() === '') return setAdjustError(host.t('adjust.noReason'));
    setAdjustError(null);
    setNotice(null);
    setAsking({ kind: 'adjust', adjustment: amount, reason: reason.trim() });
  };

  const inCart = (redemption: Redemption) =>
    redemption.code !== null && codes.some((code) => code.toUpperCase() === redemption.code!.toUpperCase());

  return (
    <s-stack direction="block" gap="base">
      <s-section heading={member.name}>
        <s-stack direction="block" gap="small">
          <s-text type="strong">{pointsText(host, member.currentPoints)}</s-text>
          <s-text>{member.tier ? host.t('tier', { tier: member.tier.name }) : host.t('noTier')}</s-text>
          {member.email && <s-text color="subdued">{member.email}</s-text>}
          {member.excluded && <s-badge tone="warning">{host.t('excluded')}</s-badge>}
        </s-stack>
      </s-section>
      {notice && <s-banner tone={notice.tone} heading={notice.text} />}
      <s-section heading={host.t('rewards.heading')}>
        <s-stack direction="block" gap="base">
          {program.rewards.length === 0 && <s-text>{host.t('rewards.none')}</s-text>}
          {program.rewards.map((reward) => {
            const why = blocker(host, member, reward);
            const flexible = reward.flexible;
            const most = flexible
              ? flexible.min + Math.floor((Math.min(flexible.max, member.currentPoints) - flexible.min) / flexible.step) * flexible.step
              : 0;
            const points = flexible
              ? Math.min(Math.max(chosenPoints[reward.id] ?? flexible.min, flexible.min), Math.max(most, flexible.min))
              : reward.pointsCost;
            const askingThis = asking?.kind === 'redeem' && asking.reward.id === reward.id;
            return (
              <s-box key={reward.id} padding="small">
                <s-stack direction="block" gap="small">
                  <s-text type="strong">{reward.name}</s-text>
                  <s-text>
                    {flexible
                      ? host.t('rewards.flexible', { min: pointsText(host, flexible.min), max: pointsText(host, flexible.max) })
                      : host.t('rewards.cost', {
                          points: pointsText(host, reward.pointsCost),
                          offer: offer(host, reward, program.currency, reward.pointsCost),
                        })}
                  </s-text>
                  {why !== null && <s-text color="subdued">{why}</s-text>}
                  {why === null && flexible && (
                    <s-number-field
                      label={host.t('rewards.choose', { reward: reward.name })}
                      details={host.t('rewards.gives', { offer: offer(host, reward, program.currency, points) })}
                      value={String(points)}
                      min={flexible.min}
                      max={Math.max(most, flexible.min)}
                      onInput={(event) =>
                        setChosenPoints({
                          ...chosenPoints,
                          [reward.id]: Number((event.currentTarget as unknown as { value?: string }).value ?? points),
                        })
                      }
                    />
                  )}
                  {askingThis ? (
                    <Confirm
                      host={host}
                      busy={busy}
                      question={host.t('rewards.ask', {
                        offer: offer(host, reward, program.currency, asking.points),
                        points: pointsText(host, asking.points),
                        name: member.name,
                      })}
                      onConfirm={() => redeem(reward, asking.points)}
                      onCancel={() => setAsking(null)}
                    />
                  ) : (
                    why === null && (
                      <s-button
                        disabled={
                          busy || (flexible !== null && (points < flexible.min || points > flexible.max || points > member.currentPoints))
                        }
                        onClick={() => {
                          setNotice(null);
                          setAsking({ kind: 'redeem', reward, points });
                        }}
                      >
                        {host.t('rewards.redeem', { reward: reward.name })}
                      </s-button>
                    )
                  )}
                </s-stack>
              </s-box>
            );
          })}
        </s-stack>
      </s-section>
      <s-section heading={host.t('codes.heading')}>
        <s-stack direction="block" gap="small">
          {data.active.length === 0 && <s-text>{host.t('codes.none')}</s-text>}
          {data.active.map((redemption) => (
            <s-box key={redemption.id} padding="small">
              <s-stack direction="block" gap="small">
                <s-text type="strong">{redemption.code ?? redemption.rewardName}</s-text>
                <s-text>
                  {host.t(inCart(redemption) ? 'codes.inCart' : 'codes.notInCart', {
                    reward: redemption.rewardName,
                    points: pointsText(host, redemption.pointsSpent),
                  })}
                </s-text>
                {asking?.kind === 'undo' && asking.redemption.id === redemption.id ? (
                  <Confirm
                    host={host}
                    busy={busy}
                    question={host.t('codes.ask', { reward: redemption.rewardName, points: pointsText(host, redemption.pointsSpent) })}
                    onConfirm={() => undo(redemption)}
                    onCancel={() => setAsking(null)}
                  />
                ) : (
                  <s-stack direction="inline" gap="small">
                    {redemption.code !== null && !inCart(redemption) && (
                      <s-button disabled={busy} onClick={() => host.cart.addCode(redemption.code!)}>
                        {host.t('codes.add', { code: redemption.code })}
                      </s-button>
                    )}
                    <s-button
                      tone="critical"
                      disabled={busy}
                      onClick={() => {
                        setNotice(null);
                        setAsking({ kind: 'undo', redemption });
                      }}
                    >
                      {host.t('codes.undo', { code: redemption.code ?? redemption.rewardName })}
                    </s-button>
                  </s-stack>
                )}
              </s-stack>
            </s-box>
          ))}
        </s-stack>
      </s-section>
      <s-section heading={host.t('adjust.heading')}>
        <s-stack direction="block" gap="small">
          <s-number-field
            label={host.t('adjust.points')}
            details={host.t('adjust.pointsHelp')}
            value={adjustment}
            onInput={(event) => setAdjustment(String((event.currentTarget as unknown as { value?: string }).value ?? ''))}
          />
          <s-text-field
            label={host.t('adjust.reason')}
            required
            value={reason}
            error={adjustError ?? undefined}
            onInput={(event) => setReason(String((event.currentTarget as unknown as { value?: string }).value ?? ''))}
          />
          {asking?.kind === 'adjust' ? (
            <Confirm
              host={host}
              busy={busy}
              question={host.t(asking.adjustment > 0 ? 'adjust.askAdd' : 'adjust.askTake', {
                points: pointsText(host, Math.abs(asking.adjustment)),
                name: member.name,
                reason: asking.reason,
              })}
              onConfirm={() => adjust(asking.adjustment, asking.reason)}
              onCancel={() => setAsking(null)}
            />
          ) : (
            <s-button disabled={busy} onClick={askAdjust}>
              {host.t('adjust.go')}
            </s-button>
          )}
        </s-stack>
      </s-section>
      <s-section heading={host.t('history.heading')}>
        <s-stack direction="block" gap="small">
          {data.history.length === 0 && <s-text>{host.t('history.none')}</s-text>}
          {data.history.map((line) => (
            <s-text key={line.id}>
              {host.t('history.line', {
                points: (line.points > 0 ? '+' : '') + host.number(line.points),
                what: line.orderNumber
                  ? host.t(line.source === 'pos' ? 'history.orderPos' : 'history.order', { order: line.orderNumber })
                  : actionLabel(host, line.action),
              })}
            </s-text>
          ))}
        </s-stack>
      </s-section>
    </s-stack>
  );
}
