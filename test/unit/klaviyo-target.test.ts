// The twin's stand-in for the stack's Klaviyo rule: the bus's delivered events of the types the rule matches
// go on the Klaviyo queue in EventBridge's envelope, the others not at all, and the bus never waits for them.
import type { EventBridgeEnvelope } from '../../infra/local/klaviyo-target';
import { klaviyoSubscriber, klaviyoTarget } from '../../infra/local/klaviyo-target';
import type { InProcessQueue } from '../../infra/local/in-process-queue';

function heldQueue() {
  const sent: EventBridgeEnvelope[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const queue: InProcessQueue<EventBridgeEnvelope> = {
    send: async (message) => {
      await gate;
      sent.push(message);
    },
    deadLetters: () => [],
  };
  return { queue, sent, release };
}

describe("the twin's Klaviyo target", () => {
  it('queues the matched types in EventBridge’s envelope, answers before the queue has worked them, and idles after', async () => {
    // Arrange
    const { queue, sent, release } = heldQueue();
    const target = klaviyoTarget(queue);
    const approved = { id: 'e1', type: 'points.approved', shop_id: 'demo', customer_id: '1001', points: 5 };

    // Act
    target([
      { id: 'e1', type: 'points.approved', detail: approved },
      { id: 'e2', type: 'referral.created', detail: { id: 'e2' } },
      { id: 'e3', type: 'customer.data_requested', detail: { id: 'e3' } },
    ]);
    klaviyoSubscriber(target)({ ...approved, id: 'e4', type: 'tier.changed' });

    // Assert: nothing sent yet (the queue is held), and the target has already answered.
    expect(sent).toEqual([]);
    release();
    await target.idle();
    expect(sent.map((message) => [message.id, message['detail-type']])).toEqual([
      ['e1', 'points.approved'],
      ['e4', 'tier.changed'],
    ]);
    expect(sent[0]).toMatchObject({ version: '0', source: 'loyalty-api', detail: approved, resources: [] });
  });
});
