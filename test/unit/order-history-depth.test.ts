// Reconciliation never asks Shopify for orders further back than the app can see (SHOPIFY-CONTRACT.md, "Order
// history depth"): 60 days without read_all_orders, and it says which window it could not read.
import { reconcileFrom } from '../../shared/orders/order-reconciliation';

const START = new Date('2027-06-01T00:00:00.000Z');

describe('where order reconciliation starts reading', () => {
  it('starts at the watermark when it is within the 60 days the app can see', () => {
    expect(reconcileFrom('2027-05-31T23:00:00.000Z', START, false)).toEqual({ since: '2027-05-31T23:00:00.000Z', unreadable: null });
    expect(reconcileFrom('2027-04-02T00:00:00.000Z', START, false)).toEqual({ since: '2027-04-02T00:00:00.000Z', unreadable: null });
  });

  it('reads a day back on the first run', () => {
    expect(reconcileFrom(null, START, false)).toEqual({ since: '2027-05-31T00:00:00.000Z', unreadable: null });
  });

  it('stops at 60 days without read_all_orders and names the window it skipped', () => {
    expect(reconcileFrom('2027-01-01T00:00:00.000Z', START, false)).toEqual({
      since: '2027-04-02T00:00:00.000Z',
      unreadable: '2027-01-01T00:00:00.000Z',
    });
  });

  it('reads from an old watermark when the app holds read_all_orders', () => {
    expect(reconcileFrom('2027-01-01T00:00:00.000Z', START, true)).toEqual({ since: '2027-01-01T00:00:00.000Z', unreadable: null });
  });
});
