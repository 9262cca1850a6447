// JSON:API form of a points adjustment; store-credit shops add the money view of the same figures.
import { formatMinorUnits } from '../domain/money';
import type { ShopSettings } from '../domain/shop';
import type { PointsAdjustment } from './adjust-points';

export function pointsAdjustmentResource({ customerId, change }: PointsAdjustment, settings: ShopSettings) {
  const money = (minor: number) => formatMinorUnits(minor, settings.currency);
  return {
    type: 'points_adjustment',
    id: customerId,
    attributes: {
      platform_customer_id: customerId,
      adjustment: change.applied,
      points_before: change.before,
      points_after: change.after,
      current_points: change.after,
      loyalty_mode: settings.loyalty_mode,
      currency: settings.currency,
      ...(settings.loyalty_mode === 'store_credit'
        ? {
            credit_adjustment: money(change.applied),
            credit_before: money(change.before),
            credit_after: money(change.after),
            credit_balance: money(change.after),
          }
        : {}),
    },
  };
}
