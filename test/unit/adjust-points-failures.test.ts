// The failure paths of adjustPoints with the repositories replaced: what is refused, and that
// nothing is published when nothing was written.
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { responseFailureOf } from '../support/failure';

jest.mock('../../shared/data/points-repository', () => ({ writePointsChange: jest.fn() }));
jest.mock('../../shared/data/customer-repository', () => ({ getCustomer: jest.fn(), findCustomerByEmail: jest.fn() }));
jest.mock('../../shared/events/domain-events', () => ({ publishAfterCommit: jest.fn() }));

import { getCustomer } from '../../shared/data/customer-repository';
import { writePointsChange } from '../../shared/data/points-repository';
import { publishAfterCommit } from '../../shared/events/domain-events';
import { adjustPoints } from '../../shared/points/adjust-points';

const shop = shopCatalog('shop-a');
const input = { adjustment: 10, note: null, update_lifetime_points: true, send_email: true };

beforeEach(() => jest.resetAllMocks());

const failure = (promise: Promise<unknown>) => responseFailureOf(promise);

describe('adjust points failures', () => {
  it('answers 500 when the write keeps losing the race, and publishes nothing', async () => {
    jest.mocked(getCustomer).mockResolvedValue({ record: customerRecord({ platform_customer_id: '1' }), version: 1 });
    jest.mocked(writePointsChange).mockResolvedValue({ written: false, latest: null });

    const error = await failure(adjustPoints(shop, '1', input, { maxAttempts: 3 }));

    expect(error.statusCode).toBe(500);
    expect(error.detail).toBe('The points adjustment could not be applied. Please try again.');
    expect(writePointsChange).toHaveBeenCalledTimes(3);
    expect(publishAfterCommit).not.toHaveBeenCalled();
  });

  it('answers 403 for an excluded customer without writing', async () => {
    jest.mocked(getCustomer).mockResolvedValue({ record: customerRecord({ platform_customer_id: '1', status: 'excluded' }), version: 1 });

    const error = await failure(adjustPoints(shop, '1', input));

    expect(error.statusCode).toBe(403);
    expect(error.detail).toBe('Customer is excluded from the loyalty program');
    expect(writePointsChange).not.toHaveBeenCalled();
    expect(publishAfterCommit).not.toHaveBeenCalled();
  });

  it('answers 403 when the customer was excluded between the read and the write', async () => {
    jest
      .mocked(getCustomer)
      .mockResolvedValueOnce({ record: customerRecord({ platform_customer_id: '1' }), version: 1 })
      .mockResolvedValueOnce({ record: customerRecord({ platform_customer_id: '1', status: 'excluded' }), version: 2 });
    jest.mocked(writePointsChange).mockResolvedValue({ written: false, latest: null });

    const error = await failure(adjustPoints(shop, '1', input));

    expect(error.statusCode).toBe(403);
    expect(publishAfterCommit).not.toHaveBeenCalled();
  });

  it('publishes the adjustment once the write commits', async () => {
    jest.mocked(getCustomer).mockResolvedValue({ record: customerRecord({ platform_customer_id: '1', current_points: 5 }), version: 1 });
    jest.mocked(writePointsChange).mockResolvedValueOnce({ written: false, latest: null }).mockResolvedValueOnce({ written: true });

    const result = await adjustPoints(shop, '1', { ...input, send_email: false });

    expect(result.change.after).toBe(15);
    expect(publishAfterCommit).toHaveBeenCalledTimes(1);
    expect(jest.mocked(publishAfterCommit).mock.calls[0]![0]).toEqual([
      expect.objectContaining({
        type: 'points.adjusted',
        customer_id: '1',
        adjustment: 10,
        points_before: 5,
        points_after: 15,
        send_email: false,
      }),
    ]);
  });
});
