// The purchase rules for the reward kinds peers give (pure, no table): store credit can be bought in a points
// shop; in a store-credit shop only a flexible reward, whose name is then the amount credited; the other kinds
// spend their points_cost and name themselves.
import { toErrorResponse } from '../../shared/http/errors';
import { planPurchase } from '../../shared/purchases/purchase-rules';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog } from '../fixtures/shop-catalog';

const member = customerRecord({ shop_id: 'kinds', platform_customer_id: '1001', current_points: 5000 });
const credit = reward('credit', { name: '$5.00 store credit', discount_type: 'store_credit', discount_amount: 5, points_cost: 500 });
const flexibleCredit = reward('credit-flex', {
  name: 'Store credit, you choose',
  discount_type: 'store_credit',
  discount_amount: 1,
  redemption_mode: 'flexible',
  flexible_config: { min_points: 100, max_points: 5000, points_per_unit: 100 },
});
const scarf = reward('scarf', {
  name: 'Free Merino scarf',
  discount_type: 'free_product',
  discount_amount: 35,
  product_variant_id: '4401',
});
const ship = reward('ship', { name: 'Free shipping', discount_type: 'free_shipping', discount_amount: 0, points_cost: 300 });

describe('purchase rules for the other reward kinds', () => {
  it('sells store credit, a free product and free shipping in a points shop for their points_cost, under their own names', () => {
    const shop = shopCatalog('kinds', { rewards: [credit, scarf, ship] });

    expect(planPurchase(shop, member, 'credit', null)).toMatchObject({
      pointsToSpend: 500,
      discountValue: 5,
      rewardName: '$5.00 store credit',
    });
    expect(planPurchase(shop, member, 'scarf', null)).toMatchObject({
      pointsToSpend: 100,
      discountValue: 35,
      rewardName: 'Free Merino scarf',
    });
    expect(planPurchase(shop, member, 'ship', null)).toMatchObject({ pointsToSpend: 300, discountValue: 0, rewardName: 'Free shipping' });
  });

  it('names a flexible store credit by the amount chosen, and in a store-credit shop refuses a fixed store credit (the spec rule)', () => {
    const shop = shopCatalog('kinds', { settings: { loyalty_mode: 'store_credit' }, rewards: [credit, flexibleCredit] });

    expect(planPurchase(shop, member, 'credit-flex', 750)).toMatchObject({
      pointsToSpend: 750,
      discountValue: 7.5,
      rewardName: '$7.50 store credit',
    });
    let refused: unknown;
    try {
      planPurchase(shop, member, 'credit', null);
    } catch (error) {
      refused = error;
    }
    expect(toErrorResponse(refused).statusCode).toBe(403);
  });
});
