// The invariants-under-load mix (test/support/invariants-load.ts) run again with the database failing under it:
// the handlers' DynamoDB client throttled, answered 500, reset, slowed, and losing answers after DynamoDB Local
// committed the write (test/support/dynamodb-faults.ts, below the SDK's retry middleware, so the SDK retries
// every fault as it would in AWS). Every request must end in a success or a clean error in the spec's envelope
// (never a bare 500, never a hang), and the audit must be exact: no lost or doubled points, entries or codes.
import type { Twin } from '../../infra/local/twin';
import { startTestTwin } from '../support/twin';
import { dynamoDbFaults, evenRates, FAULT_KINDS, type FaultReport } from '../support/dynamodb-faults';
import {
  type ApiAnswer,
  type AuditFigures,
  auditEvents,
  auditFigures,
  auditInvariants,
  describeEvents,
  describeRun,
  type EventAudit,
  enrolAll,
  LOAD_CONFIG,
  loadDeliveries,
  type LoadOptions,
  runLoadMix,
  settle,
} from '../support/invariants-load';

/** `npm run bench:invariants` sets LOAD_REQUESTS (and may set DB_FAULT_RATE) and reads the report this mode prints. */
const LONG_MODE = process.env.LOAD_REQUESTS !== undefined;
jest.setTimeout(LONG_MODE ? 1_800_000 : 300_000);
const options: LoadOptions = {
  requests: Number(process.env.LOAD_REQUESTS ?? 250),
  concurrency: Number(process.env.LOAD_CONCURRENCY ?? 16),
  seed: Number(process.env.LOAD_SEED ?? 42),
  jobsEvery: 40,
};
/** Probability per attempt of each of the five failure kinds (so five times this fails in some way); latency on a quarter. */
const RATE = Number(process.env.DB_FAULT_RATE ?? 0.02);
/** Writes lose their answer after committing more often: the fault that can double an effect. */
const LOST_WRITE_RATE = Number(process.env.DB_FAULT_LOST_WRITE_RATE ?? 0.1);
const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem'];
const faults = dynamoDbFaults({
  seed: options.seed,
  rates: evenRates(RATE),
  commands: Object.fromEntries(WRITES.map((command) => [command, { ...evenRates(RATE), dropped_after_commit: LOST_WRITE_RATE }])),
  maxLatencyMs: 50,
});

/** Everything the twin printed to stderr (a handler or the delivery processor failing), kept out of the test output. */
const errorLines: string[] = [];
let twin: Twin;
beforeAll(async () => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errorLines.push(args.map(String).join(' '));
  });
  faults.install();
  // Webhook deliveries queued as in the stack, or inline with LOAD_DELIVERIES=inline.
  twin = await startTestTwin(LOAD_CONFIG, { throttling: false, deliveries: loadDeliveries() });
});
afterAll(async () => {
  await twin.stop();
  faults.uninstall();
  jest.restoreAllMocks();
});

/** Success, or the spec's envelope: exactly one error whose status is the answer's, a title and a detail, no stack. */
function clean(answer: { status: number; body: ApiAnswer['body'] }): boolean {
  if (answer.status >= 200 && answer.status < 300) return true;
  const errors = answer.body?.errors;
  if (answer.status < 400 || !Array.isArray(errors) || errors.length !== 1 || Object.keys(answer.body).length !== 1) return false;
  const [error] = errors;
  return (
    error.status === String(answer.status) &&
    typeof error.title === 'string' &&
    typeof error.detail === 'string' &&
    !/\n\s+at /.test(error.detail) &&
    Object.keys(error).sort().join() === 'detail,status,title'
  );
}

/** The twin's error lines (JSON) counted by their message. */
function byMessage(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    let message = line.slice(0, 60);
    try {
      message = String((JSON.parse(line) as { message?: unknown }).message);
    } catch {
      // not JSON: its start says enough
    }
    counts[message] = (counts[message] ?? 0) + 1;
  }
  return counts;
}

const total = (byCommand: Record<string, number> = {}) => Object.values(byCommand).reduce((sum, n) => sum + n, 0);

/** The long mode's report: faults by kind and command, the error answers. */
function faultLines(report: FaultReport, answers: ApiAnswer[]): string {
  const attempts = total(report.attempts);
  const kinds = [...FAULT_KINDS, 'latency' as const].map(
    (kind) => `  ${kind}: ${total(report.injected[kind])} ${JSON.stringify(report.injected[kind] ?? {})}`,
  );
  const errors: Record<string, number> = {};
  for (const answer of answers.filter((candidate) => candidate.status >= 400)) {
    const error = answer.body?.errors?.[0];
    // Refusals by title (their details carry figures); server errors by detail.
    const key = `${answer.status} ${answer.status >= 500 ? error?.detail : error?.title}`;
    errors[key] = (errors[key] ?? 0) + 1;
  }
  return [
    `faults injected over ${attempts} attempts ${JSON.stringify(report.attempts)} (${report.latencyMs} ms of latency added):`,
    ...kinds,
    `error answers: ${JSON.stringify(errors)}`,
  ].join('\n');
}

describe('invariants under database faults', () => {
  it('every request answered with a success or a clean error, and the audit exact: no lost or doubled points, entries or codes', async () => {
    await enrolAll(twin);
    faults.resume();
    const load = await runLoadMix(twin, options);
    // The audit reads the table as it settled: the settling runs and the scan go through a sound database.
    faults.pause();
    const settled = await settle(twin);
    expect(settled.jobsStatus).toBe(200);

    const report = faults.report();
    let audit: AuditFigures | undefined;
    let events: EventAudit | undefined;
    try {
      audit = await auditInvariants(twin, load);
      // Every committed change has its events on the bus, none is there without its change: a lost answer or a
      // retried transaction must neither drop an event nor deliver one whose change did not commit.
      events = await auditEvents(twin);
      // The figures consumer ran through the same faults: its events counted once each, the figures exact.
      await auditFigures(twin, ['load']);
    } finally {
      // Printed whether the audit holds or not: the faults that came before a failure are what explains it.
      if (LONG_MODE) {
        process.stdout.write(
          `invariants under database faults (${RATE} per kind per attempt, lost answers of writes ${LOST_WRITE_RATE}): ` +
            `${audit ? describeRun(options, load, audit, settled) : `${JSON.stringify(load.statuses)}; the audit failed (below)`}\n` +
            `${events ? describeEvents(events) : 'the events audit failed or did not run (below)'}\n` +
            `${faultLines(report, load.answers)}\n` +
            `webhook deliveries dead-lettered: ${twin.deliveryQueue.deadLetters().length}; error lines from the twin: ${JSON.stringify(byMessage(errorLines))}\n`,
        );
      }
    }

    expect(load.hangs).toEqual([]);
    expect(load.answers.filter((answer) => !clean(answer))).toEqual([]);
    // Job runs too: a run the database failed under answers a clean 500, the next one does the work.
    expect(load.jobErrors.filter((answer) => !clean(answer))).toEqual([]);
    expect(load.answers.filter((answer) => answer.status < 300).length).toBeGreaterThan(load.answers.length / 3);
    // The faults were there: every kind, lost answers on the writes that matter.
    expect(FAULT_KINDS.filter((kind) => total(report.injected[kind]) === 0)).toEqual([]);
    expect(Object.keys(report.injected.dropped_after_commit ?? {})).toEqual(
      expect.arrayContaining(['TransactWriteItems', 'PutItem', 'UpdateItem']),
    );
  });
});
