// The purchase validations in the spec's order, and what a valid purchase spends and grants.
// Pure: no AWS, no platform.
import type { CustomerRecord } from '../domain/customer';
import { formatMinorAsMoney, formatMoney, minorDigits } from '../domain/money';
import type { Reward, ShopCatalog } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import { DOMAIN_DETAILS, echoed, invalid, notFound, notPermitted, unprocessable } from '../domain/errors';

export interface PurchasePlan {
  reward: Reward;
  /** Points (minor units in store-credit shops) to deduct. */
  pointsToSpend: number;
  /**
   * Discount value in major currency units (fixed, store_credit; free_shipping: the shipping cap, 0 for none;
   * free_product: the variant's price) or percent (percentage).
   */
  discountValue: number;
  rewardName: string;
}

export const insufficientPoints = (balance: number, cost: number) =>
  unprocessable('Insufficient Points', `Customer has ${balance} points but this reward costs ${cost}`);

/** A reward the caller may see at all: exists, active, not deleted. */
export function findPurchasableReward(shop: ShopCatalog, rewardId: string): Reward {
  const reward = shop.rewards.find((candidate) => candidate.id === rewardId);
  if (!reward || !reward.is_active || reward.deleted) throw notFound(`Reward '${echoed(rewardId)}' not found`);
  return reward;
}

function redemptionAmount(points: number, shop: ShopCatalog): string {
  const { loyalty_mode, currency } = shop.settings;
  return loyalty_mode === 'store_credit' ? formatMinorAsMoney(points, currency) : `${points} points`;
}

/**
 * Validates a purchase for a resolved customer, in the spec's order: excluded (403), reward (404),
 * entry reward (400), VIP restriction (403), points_cost (422), flexible amount (400/422), store-credit
 * mode (403). Returns what to spend and grant.
 */
export function planPurchase(shop: ShopCatalog, customer: CustomerRecord, rewardId: string, requestedPoints: number | null): PurchasePlan {
  const { settings } = shop;
  if (customer.status === 'excluded') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
  const reward = findPurchasableReward(shop, rewardId);
  if (reward.reward_type === 'entry') throw invalid('Entry rewards cannot be purchased');
  if (reward.vip_tier_id !== null) {
    const tier = resolveTier(customer, shop.tiers, settings.vip_settings);
    if (tier?.id !== reward.vip_tier_id) throw notPermitted('Customer is not eligible for this reward');
  }
  if (customer.current_points < reward.points_cost) throw insufficientPoints(customer.current_points, reward.points_cost);

  let pointsToSpend = reward.points_cost;
  let discountValue = reward.discount_amount;
  let rewardName = reward.name;
  if (reward.redemption_mode === 'flexible' && reward.flexible_config) {
    const range = reward.flexible_config;
    if (requestedPoints === null) throw invalid('points is required for flexible rewards');
    if (requestedPoints < range.min_points) {
      throw unprocessable('Invalid Points', `Minimum redemption is ${redemptionAmount(range.min_points, shop)}`);
    }
    if (requestedPoints > range.max_points) {
      throw unprocessable('Invalid Points', `Maximum redemption is ${redemptionAmount(range.max_points, shop)}`);
    }
    pointsToSpend = requestedPoints;
    discountValue = flexibleValue(requestedPoints, range.points_per_unit, settings.currency);
    rewardName =
      reward.discount_type === 'percentage'
        ? `${discountValue}% off`
        : reward.discount_type === 'store_credit'
          ? `${formatMoney(discountValue, settings.currency)} store credit`
          : `${formatMoney(discountValue, settings.currency)} off`;
  }
  if (settings.loyalty_mode === 'store_credit' && reward.redemption_mode !== 'flexible') {
    throw notPermitted('This reward cannot be redeemed in store credit mode');
  }
  if (customer.current_points < pointsToSpend) throw insufficientPoints(customer.current_points, pointsToSpend);
  return { reward, pointsToSpend, discountValue, rewardName };
}

/** points / points_per_unit currency units, rounded down to the currency's minor unit. */
export function flexibleValue(points: number, pointsPerUnit: number, currency: string): number {
  const scale = 10 ** minorDigits(currency);
  return Math.floor((points * scale) / pointsPerUnit) / scale;
}
