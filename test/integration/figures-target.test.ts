// The twin's figures queue stops with the twin: events handed after `stop()` are not counted, and what was
// still waiting is dropped, so no consumer work of a stopped twin runs on against its (deleted) table.
import { resolve } from 'node:path';
import { figuresTarget } from '../../infra/local/figures-target';
import { QUEUE_CONSUMERS } from '../../shared/runtime/entry-points';

const ROOT = resolve(__dirname, '..', '..');
const consumer = { ...QUEUE_CONSUMERS.find((entry) => entry.queue === 'figures')!, handler: 'test/support/refusing-consumer.ts' };
const silenced = () => jest.spyOn(console, 'error').mockImplementation(() => undefined);

it('running, it hands every event to the consumer and sets aside what the consumer keeps refusing', async () => {
  silenced();
  const target = figuresTarget(ROOT, consumer);
  for (let i = 0; i < 5; i += 1) target({ id: `e${i}`, type: 'points.adjusted' });
  await target.idle();

  expect(target.deadLetters().map((envelope) => envelope.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
});

it('stopped, it takes no more events and drops what was waiting', async () => {
  silenced();
  const target = figuresTarget(ROOT, consumer);
  for (let i = 0; i < 5; i += 1) target({ id: `before${i}`, type: 'points.adjusted' });
  await target.stop();
  for (let i = 0; i < 5; i += 1) target({ id: `after${i}`, type: 'points.adjusted' });
  await target.idle();

  // At most the batch being counted when it stopped was handed over once; nothing was received again.
  expect(target.deadLetters()).toEqual([]);
});
