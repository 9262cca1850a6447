// Birthday points: an active `birthday` rule awards once per calendar year on the member's date of birth
// (29 February on 28 February in other years), at most 7 days late. Each member's birthday timer says
// when to look; the award, the member's awarded year and the timer's next date change in one
// transaction conditional on the profile's version, with an entry id fixed per member, rule and year.
import { moveBirthdayTimer, removeBirthdayTimer } from '../data/items/birthday-timer';
import { readItem, writeCalendarChange } from '../data/calendar-repository';
import { getCustomer } from '../data/customer-repository';
import type { ItemKey } from '../data/keys';
import { approvedEntry, type EarningEntry } from '../domain/history';
import { addDays } from '../domain/dates';
import { movePoints, tierProgramOf } from '../domain/member-points';
import { birthdayDecision, giveBatches } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import { withMemberFacts } from '../domain/events';
import type { DomainEvent } from '../domain/events';
import { orderEntryId } from '../orders/order-state';
import { activeCampaign, earningRulePoints } from '../domain/earning-rule-points';
import { type DueJob, type DueJobContext, type DueOutcome, tidy } from './due-job';

export const BIRTHDAY_ACTION = 'birthday';

export const birthdaysJob: DueJob = {
  name: 'birthdays',
  // Birthdays are calendar days (UTC): everything due up to today.
  kinds: (_shop, now) => [{ kind: 'birthday', until: now.toISOString().slice(0, 10) }],
  handle: awardBirthday,
};

async function awardBirthday(key: ItemKey, { shop, shopId, at, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  const today = now.slice(0, 10);
  const [timer, customer] = await Promise.all([readItem(key), getCustomer(shopId, customerId, true)]);
  if (!timer) return { changed: false };
  const dateOfBirth = customer?.record.date_of_birth ?? null;
  // Gone, or the date was cleared: the timer goes too.
  if (!customer || dateOfBirth === null) {
    return tidy({ shopId, customerId, writes: [removeBirthdayTimer(shopId, customerId)] });
  }
  const record = customer.record;
  const decision = birthdayDecision(dateOfBirth, record.birthday_awarded_year ?? null, today);
  const rules = shop.earningRules.filter((rule) => rule.is_active && rule.action === BIRTHDAY_ACTION);
  if (!decision.award || rules.length === 0 || record.status !== 'member') {
    // Within the 7 days a rule may still be switched on or the member included again: look again tomorrow.
    const next = decision.award ? addDays(`${today}T00:00:00.000Z`, 1).slice(0, 10) : decision.next;
    if (String(timer.due_at ?? '').startsWith(`${next}#`)) return { changed: false };
    return tidy({ shopId, customerId, writes: [moveBirthdayTimer(shopId, customerId, timer.due_at, next)] });
  }

  const context = {
    tier: resolveTier(record, shop.tiers, shop.settings.vip_settings),
    campaign: activeCampaign(shop.campaigns, at),
    vipSettings: shop.settings.vip_settings,
  };
  const entries: EarningEntry[] = rules.map((rule) => {
    const priced = earningRulePoints(rule, context);
    return approvedEntry(
      {
        id: orderEntryId(shopId, `birthday:${customerId}`, rule.id, decision.year),
        earning_rule_id: rule.id,
        action: BIRTHDAY_ACTION,
        points: priced.points,
        base_points: priced.base_points,
        points_multiplier: (priced.tier_boost ?? 1) * (priced.campaign_boost ?? 1),
      },
      now,
    );
  });
  const points = entries.reduce((sum, entry) => sum + entry.points, 0);
  const move = movePoints(record, { points, lifetime: points, send_email: true, now }, tierProgramOf(shop));
  const after = { ...move.next, birthday_awarded_year: decision.year };
  const ledger = giveBatches(record, after, entries, shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS, now);
  const base = { shop_id: shopId, customer_id: customerId, occurred_at: now };
  // An approved entry created directly: `points.earned` (EVENTS-CONTRACT.md), with the fields of today's event.
  const events: DomainEvent[] = [
    ...entries.map((entry): DomainEvent => ({
      type: 'points.earned',
      ...base,
      earning_history_entry_id: entry.id,
      action: BIRTHDAY_ACTION,
      points: entry.points,
    })),
    ...move.events,
  ];
  const written = await writeCalendarChange({
    shopId,
    customerId,
    customer: { current: customer, next: ledger.record },
    newEntries: ledger.entries,
    writes: [moveBirthdayTimer(shopId, customerId, timer.due_at, decision.next)],
    events: withMemberFacts(events, ledger.record, shop.tiers),
  });
  if (!written) return undefined;
  return { changed: true };
}
