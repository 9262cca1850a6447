// Checks across a shop's sections that a single field cannot make: unique ids, rules and rewards that
// exist, members who are platform customers, consistent VIP settings.
import { isEngineAction } from '../domain/action-limit';
import { formatPath, type Path } from './config-errors';
import type { ShopShape } from './shop-schema';

export type Report = (path: Path, message: string) => void;

/** Reports every item whose key was already used earlier in the list; returns the key -> index map. */
export function checkUnique<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  listPath: Path,
  field: string,
  report: Report,
): Map<string, number> {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else report([...listPath, index, field], `duplicate '${key}', already used at ${formatPath([...listPath, first])}`);
  });
  return seen;
}

export function checkVipSettings(shop: ShopShape, at: Path, report: Report): void {
  const { entry_method, entry_methods_extra } = shop.vip_settings;
  const seen = new Set<string>();
  entry_methods_extra.forEach((method, index) => {
    const path = [...at, 'vip_settings', 'entry_methods_extra', index];
    if (method === entry_method) report(path, `'${method}' is already the primary entry_method`);
    else if (seen.has(method)) report(path, `'${method}' is listed twice`);
    seen.add(method);
  });
}

export function checkCatalog(shop: ShopShape, at: Path, report: Report): void {
  checkUnique(shop.earning_rules, (rule) => rule.id, [...at, 'earning_rules'], 'id', report);
  // POST .../actions earns the active rule of an action: one per action (the engine's actions may have several).
  const activeActions = new Map<string, number>();
  shop.earning_rules.forEach((rule, r) => {
    if (!rule.is_active || isEngineAction(rule.action)) return;
    const first = activeActions.get(rule.action);
    if (first === undefined) activeActions.set(rule.action, r);
    else
      report(
        [...at, 'earning_rules', r, 'action'],
        `'${rule.action}' is already the action of the active rule at ${formatPath([...at, 'earning_rules', first])}: one active rule per action`,
      );
  });
  checkUnique(shop.campaigns, (campaign) => campaign.id, [...at, 'campaigns'], 'id', report);
  const tierIds = checkUnique(shop.vip_tiers, (tier) => tier.id, [...at, 'vip_tiers'], 'id', report);
  const rewardIds = checkUnique(shop.rewards, (reward) => reward.id, [...at, 'rewards'], 'id', report);

  const method = shop.vip_settings.entry_method;
  shop.vip_tiers.forEach((tier, t) => {
    const tierPath = [...at, 'vip_tiers', t];
    const thresholdField = `threshold_${method}` as const;
    if (tier[thresholdField] === null) {
      report([...tierPath, thresholdField], `is required because vip_settings.entry_method is '${method}'`);
    }
    tier.reward_ids.forEach((rewardId, r) => {
      if (!rewardIds.has(rewardId)) report([...tierPath, 'reward_ids', r], `no reward with id '${rewardId}' in this shop`);
    });
  });

  const referral = shop.referral_settings;
  if (referral) {
    const path = [...at, 'referral_settings', 'friend_reward_id'];
    const index = rewardIds.get(referral.friend_reward_id);
    const friendReward = index === undefined ? undefined : shop.rewards[index];
    if (!friendReward) report(path, `no reward with id '${referral.friend_reward_id}' in this shop`);
    else if (friendReward.deleted) report(path, `reward '${friendReward.id}' is deleted`);
    else if (friendReward.redemption_mode === 'flexible') {
      report(path, `reward '${friendReward.id}' is flexible: a friend's reward needs a fixed discount`);
    } else if (friendReward.discount_type === 'store_credit') {
      report(path, `reward '${friendReward.id}' is store credit: a friend's reward is a code the friend can use before being a customer`);
    }
  }

  shop.rewards.forEach((reward, r) => {
    if (reward.vip_tier_id !== null && !tierIds.has(reward.vip_tier_id)) {
      report([...at, 'rewards', r, 'vip_tier_id'], `no VIP tier with id '${reward.vip_tier_id}' in this shop`);
    }
  });
}

export function checkPeople(shop: ShopShape, at: Path, report: Report): void {
  const customersPath = [...at, 'platform', 'customers'];
  const customerIds = checkUnique(shop.platform.customers, (customer) => customer.id, customersPath, 'id', report);
  // Customers are found by email as well as by id, so one address must name one customer.
  checkUnique(shop.platform.customers, (customer) => customer.email.toLowerCase(), customersPath, 'email', report);

  const ruleIds = new Set(shop.earning_rules.map((rule) => rule.id));
  const rewardIds = new Set(shop.rewards.map((reward) => reward.id));
  const membersPath = [...at, 'members'];
  checkUnique(shop.members, (member) => member.platform_customer_id, membersPath, 'platform_customer_id', report);

  shop.members.forEach((member, m) => {
    const memberPath = [...membersPath, m];
    if (!customerIds.has(member.platform_customer_id)) {
      report([...memberPath, 'platform_customer_id'], `no customer with id '${member.platform_customer_id}' in platform.customers`);
    }
    checkUnique(member.earning_history, (entry) => entry.id, [...memberPath, 'earning_history'], 'id', report);
    member.earning_history.forEach((entry, e) => {
      if (entry.earning_rule_id !== null && !ruleIds.has(entry.earning_rule_id)) {
        report([...memberPath, 'earning_history', e, 'earning_rule_id'], `no earning rule with id '${entry.earning_rule_id}' in this shop`);
      }
    });
    checkUnique(member.reward_history, (entry) => entry.id, [...memberPath, 'reward_history'], 'id', report);
    member.reward_history.forEach((entry, h) => {
      if (!rewardIds.has(entry.reward_id)) {
        report([...memberPath, 'reward_history', h, 'reward_id'], `no reward with id '${entry.reward_id}' in this shop`);
      }
    });
  });
}
