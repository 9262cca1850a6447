// Each shop's shopper budget as the data layer writes it (docs/decisions.md, "Each shop its own shopper budget"):
// one conditional counter per shop, class and window, its window from real time, its TTL a minute after it.
import { SHOPPER_BUDGET_PARTITIONS, shopperBudgetKey, takeShopperBudget } from '../../shared/data/items/shopper-budget';
import { budgetWindowSeconds } from '../../shared/data/shopper-budget-repository';
import { SHOPPER_BUDGET } from '../../shared/runtime/entry-points';

beforeAll(() => {
  process.env.TABLE_NAME ??= 'shopper-budget-test';
});

describe("a shop's shopper budget", () => {
  it('counts in windows of burstLimit / rateLimit seconds: 2 s for reads and writes, their burst each', () => {
    expect(budgetWindowSeconds(SHOPPER_BUDGET.read)).toBe(2);
    expect(budgetWindowSeconds(SHOPPER_BUDGET.write)).toBe(2);
    expect(budgetWindowSeconds({ rateLimit: 50, burstLimit: 10 })).toBe(1);
  });

  it('is one conditional ADD per request, refused at the limit, the TTL a minute after the window', () => {
    const { request, name } = takeShopperBudget('demo', 'write', 1_700_000_000, 1_700_000_002, 40);

    expect(name).toBe("take from the shop's shopper budget");
    expect(request.Update).toMatchObject({
      Key: { pk: 'SHOP#demo#SHOPPERBUDGET#write', sk: 'AT#1700000000' },
      UpdateExpression: 'SET #i0 = if_not_exists(#i0, :i0) ADD #a0 :a0',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
      ExpressionAttributeNames: { '#count': 'requests', '#a0': 'requests', '#i0': 'ttl' },
      ExpressionAttributeValues: { ':a0': 1, ':limit': 40, ':i0': 1_700_000_062 },
    });
    expect(shopperBudgetKey('demo', 'read', 0).pk.startsWith(SHOPPER_BUDGET_PARTITIONS.split('*')[0]!)).toBe(true);
  });
});
