// The failure paths of adjustPoints with the repositories replaced: what is refused, that a request given up
// on is taken back out of its queue, and that nothing is published when nothing was written.
import type { QueuedAdjustment } from '../../shared/domain/customer';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { responseFailureOf } from '../support/failure';

jest.mock('../../shared/data/points-repository', () => ({
  enqueueAdjustment: jest.fn(),
  commitAdjustments: jest.fn(),
  withdrawAdjustment: jest.fn(),
}));
jest.mock('../../shared/data/history-repository', () => ({ getEarningEntry: jest.fn() }));
jest.mock('../../shared/data/customer-repository', () => ({ getCustomer: jest.fn(), findCustomerByEmail: jest.fn() }));

import { getEarningEntry } from '../../shared/data/history-repository';
import { commitAdjustments, enqueueAdjustment, withdrawAdjustment } from '../../shared/data/points-repository';
import { adjustPoints } from '../../shared/points/adjust-points';

const shop = shopCatalog('shop-a');
const input = { adjustment: 10, note: null, update_lifetime_points: true, send_email: true };

beforeEach(() => jest.resetAllMocks());

const failure = (promise: Promise<unknown>) => responseFailureOf(promise);

/** The profile with this call's request queued on it, as the enqueue answers it. */
function queuedProfile(overrides: Parameters<typeof customerRecord>[0] = { platform_customer_id: '1' }) {
  jest.mocked(enqueueAdjustment).mockImplementation(async (_shop, _customer, request: QueuedAdjustment) => ({
    queued: true,
    current: { record: customerRecord({ ...overrides, points_queue: [request] }), version: 1 },
  }));
}

describe('adjust points failures', () => {
  it('answers 500 when the commit keeps conflicting, takes the request back out of the queue, and publishes nothing', async () => {
    queuedProfile();
    jest.mocked(commitAdjustments).mockResolvedValue({ written: false, alreadyApplied: [], conflict: true });
    jest
      .mocked(withdrawAdjustment)
      .mockResolvedValue({ withdrawn: true, current: { record: customerRecord({ platform_customer_id: '1' }), version: 2 } });

    const error = await failure(adjustPoints(shop, '1', input, { maxAttempts: 3 }));

    expect(error.statusCode).toBe(500);
    expect(error.detail).toBe('The points adjustment could not be applied. Please try again.');
    expect(commitAdjustments).toHaveBeenCalledTimes(3);
    expect(withdrawAdjustment).toHaveBeenCalledTimes(1);
  });

  it('answers with the result instead when a commit applied the request before it could be taken back', async () => {
    queuedProfile();
    jest.mocked(commitAdjustments).mockResolvedValue({ written: false, alreadyApplied: [], conflict: true });
    jest.mocked(withdrawAdjustment).mockResolvedValue({
      withdrawn: false,
      conflict: false,
      current: { record: customerRecord({ platform_customer_id: '1' }), version: 2 },
    });
    jest.mocked(getEarningEntry).mockResolvedValue({ points: 10, points_before: 0, points_after: 10 } as never);

    const result = await adjustPoints(shop, '1', input, { maxAttempts: 2 });

    expect(result.change).toEqual({ applied: 10, before: 0, after: 10 });
  });

  it('answers 404 for a customer that does not exist, without writing', async () => {
    jest.mocked(enqueueAdjustment).mockResolvedValue({ queued: false, conflict: false, current: null });

    const error = await failure(adjustPoints(shop, '1', input));

    expect(error.statusCode).toBe(404);
    expect(error.detail).toBe("Customer '1' not found");
    expect(commitAdjustments).not.toHaveBeenCalled();
  });

  it('answers 403 for an excluded customer without writing', async () => {
    jest.mocked(enqueueAdjustment).mockResolvedValue({
      queued: false,
      conflict: false,
      current: { record: customerRecord({ platform_customer_id: '1', status: 'excluded' }), version: 1 },
    });

    const error = await failure(adjustPoints(shop, '1', input));

    expect(error.statusCode).toBe(403);
    expect(error.detail).toBe('Customer is excluded from the loyalty program');
    expect(commitAdjustments).not.toHaveBeenCalled();
  });

  it('answers 403 when the customer was excluded between joining the queue and the commit, and leaves the queue', async () => {
    let queued: QueuedAdjustment | undefined;
    jest.mocked(enqueueAdjustment).mockImplementation(async (_shop, _customer, request) => {
      queued = request;
      return { queued: true, current: { record: customerRecord({ platform_customer_id: '1', points_queue: [request] }), version: 1 } };
    });
    jest.mocked(commitAdjustments).mockImplementation(async () => ({
      written: false,
      alreadyApplied: [],
      conflict: false,
      current: { record: customerRecord({ platform_customer_id: '1', status: 'excluded', points_queue: [queued!] }), version: 2 },
    }));
    jest
      .mocked(withdrawAdjustment)
      .mockResolvedValue({ withdrawn: true, current: { record: customerRecord({ platform_customer_id: '1' }), version: 2 } });

    const error = await failure(adjustPoints(shop, '1', input));

    expect(error.statusCode).toBe(403);
    expect(withdrawAdjustment).toHaveBeenCalledWith('shop-a', '1', 0, queued!.id);
  });

  it('commits the adjustment with its events, in the write that applies it, and publishes nothing after it', async () => {
    queuedProfile({ platform_customer_id: '1', current_points: 5 });
    jest
      .mocked(commitAdjustments)
      .mockResolvedValueOnce({ written: false, alreadyApplied: [], conflict: true })
      .mockResolvedValueOnce({ written: true });

    const result = await adjustPoints(shop, '1', { ...input, send_email: false });

    expect(result.change.after).toBe(15);
    expect(commitAdjustments).toHaveBeenCalledTimes(2);
    expect(jest.mocked(commitAdjustments).mock.calls[1]![0].events).toEqual([
      expect.objectContaining({
        type: 'points.adjusted',
        customer_id: '1',
        adjustment: 10,
        points_before: 5,
        points_after: 15,
        send_email: false,
        // The member's facts after the change travel with the event.
        points_balance: 15,
      }),
    ]);
  });
});
