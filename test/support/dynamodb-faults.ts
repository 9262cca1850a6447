// Database faults for the tests: a middleware on the handlers' own DynamoDB client (through the seam
// `setRawClientHook` of shared/data/client.ts) that throttles, answers 500, resets connections, adds latency,
// and loses answers after DynamoDB Local has committed the write. It sits in the `deserialize` step at low
// priority, that is below the SDK's retry middleware (`finalizeRequest`, high) and its signing, right above the
// HTTP handler: every attempt of a call passes through it, a fault is an HTTP answer or a network error exactly
// as the SDK would get from DynamoDB, and the SDK's retry strategy retries it as it would in AWS.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { setRawClientHook } from '../../shared/data/client';
import { random } from './random';

/** What can go wrong with one attempt of a call. */
export const FAULT_KINDS = [
  /** 400 ProvisionedThroughputExceededException, as DynamoDB answers a table over its capacity. */
  'throughput_exceeded',
  /** 400 ThrottlingException, as DynamoDB answers requests over an account or on-demand limit. */
  'throttling',
  /** 500 InternalServerError. */
  'internal_error',
  /** The connection reset before the request reached DynamoDB: nothing was done. */
  'connection_reset',
  /** DynamoDB Local handled the request and it succeeded (a write committed), then the answer was lost on the way back. */
  'dropped_after_commit',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/**
 * Faults a test scripts, never drawn: `transaction_conflict` answers as DynamoDB does when another transaction
 * holds one of the items (a TransactWriteItems cancelled with `TransactionConflict`, any other write
 * `TransactionConflictException`); nothing is written.
 */
export type ScriptedFault = FaultKind | 'transaction_conflict';

/** Probability per attempt of each fault kind, and of added latency. */
export type FaultRates = Partial<Record<FaultKind | 'latency', number>>;

/** The command names DynamoDB knows (GetItem, Query, PutItem, UpdateItem, TransactWriteItems, ...). */
export type CommandName = string;

export interface FaultOptions {
  /** Seed of the draws: the same seed and the same sequence of attempts get the same faults. */
  seed: number;
  /** Rates for every command not named in `commands`. */
  rates: FaultRates;
  /** Rates of particular commands, replacing `rates` for them, e.g. `{ Scan: {} }` for none. */
  commands?: Record<CommandName, FaultRates>;
  /** Most latency added to one attempt, in ms (drawn uniformly up to it). Default 50. */
  maxLatencyMs?: number;
  /**
   * Faults not to inject on a call, given its command and input as the raw client sends it (attribute values in
   * DynamoDB's JSON: `{ S: "..." }`); for a known defect waiting for its fix, named in a comment where this is set. The draw is made all the same, so the rest of the sequence does not move.
   */
  exempt?: (fault: { kind: FaultKind; command: CommandName; input: Record<string, unknown> }) => boolean;
}

export interface FaultReport {
  /** Attempts that went through the layer while it was on, by command. */
  attempts: Record<CommandName, number>;
  /** Faults injected, by kind, then by command. */
  injected: Partial<Record<ScriptedFault | 'latency', Record<CommandName, number>>>;
  /** Faults drawn but left out by `exempt`, by kind, then by command. */
  exempted: Partial<Record<FaultKind, Record<CommandName, number>>>;
  /** Total latency added, ms. */
  latencyMs: number;
}

const THROUGHPUT_EXCEEDED = {
  status: 400,
  type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
  message:
    'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
};
const THROTTLING = {
  status: 400,
  type: 'com.amazon.coral.availability#ThrottlingException',
  message: 'Rate of requests exceeds the allowed throughput.',
};
const INTERNAL_ERROR = { status: 500, type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' };

/** An error answer as DynamoDB sends it (awsJson1_0); the SDK's own deserializer makes the exception of it. */
function errorAnswer(error: { status: number; type: string; message: string }) {
  return {
    statusCode: error.status,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID().replace(/-/g, '').toUpperCase() },
    body: Readable.from([Buffer.from(JSON.stringify({ __type: error.type, message: error.message }))]),
  };
}

/** DynamoDB's answer when another transaction holds an item: the first of a transaction's items named, the rest `None`. */
function conflictAnswer(command: CommandName, input: unknown) {
  const headers = { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID().replace(/-/g, '').toUpperCase() };
  if (command !== 'TransactWriteItems') {
    return errorAnswer({
      status: 400,
      type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException',
      message: 'Transaction is ongoing for the item',
    });
  }
  const items = ((input as { TransactItems?: unknown[] }).TransactItems ?? []).length;
  const reasons = Array.from({ length: items }, (_, index) =>
    index === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
  );
  const body = {
    __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((reason) => reason.Code).join(', ')}]`,
    CancellationReasons: reasons,
  };
  return { statusCode: 400, headers, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

/** A connection reset as Node's HTTP client reports it and the SDK's HTTP handler passes it on. */
function connectionReset(): Error {
  return Object.assign(new Error('read ECONNRESET'), { name: 'TimeoutError', code: 'ECONNRESET', errno: -104, syscall: 'read' });
}

/** The middleware's step: below retries and signing, above the HTTP handler. */
export const FAULT_MIDDLEWARE = { step: 'deserialize', priority: 'low', name: 'dynamoDbFaults' } as const;

export interface DynamoDbFaults {
  /** Puts the layer on the handlers' client (the current one is dropped; the next is built with it). Starts paused. */
  install(): void;
  /** Takes it off again. */
  uninstall(): void;
  /** Faults are drawn and injected from now on. */
  resume(): void;
  /** Calls pass through untouched (and uncounted) until `resume`. */
  pause(): void;
  /**
   * The next attempts of `command` get these faults, in order, whatever the draws say (`null`: none for that
   * attempt), e.g. `script('TransactWriteItems', null, 'dropped_after_commit')` loses the second one's answer.
   */
  script(command: CommandName, ...kinds: Array<ScriptedFault | null>): void;
  report(): FaultReport;
  /** The layer itself, for a client of a test's own. */
  attach(client: DynamoDBClient): void;
}

export function dynamoDbFaults(options: FaultOptions): DynamoDbFaults {
  const next = random(options.seed);
  const maxLatencyMs = options.maxLatencyMs ?? 50;
  const scripted = new Map<CommandName, Array<ScriptedFault | null>>();
  let active = false;
  const report: FaultReport = { attempts: {}, injected: {}, exempted: {}, latencyMs: 0 };
  const count = (table: Partial<Record<string, Record<CommandName, number>>>, kind: string, command: CommandName) => {
    const byCommand = (table[kind] ??= {});
    byCommand[command] = (byCommand[command] ?? 0) + 1;
  };

  /** Three draws per attempt, always: which fault, whether latency, how much. */
  const draw = (command: CommandName, input: Record<string, unknown>): { fault: ScriptedFault | null; latencyMs: number } => {
    const rates = options.commands?.[command] ?? options.rates;
    const [which, slow, howSlow] = [next(), next(), next()];
    const latencyMs = slow < (rates.latency ?? 0) ? Math.round(howSlow * maxLatencyMs) : 0;
    const queue = scripted.get(command);
    if (queue?.length) return { fault: queue.shift() ?? null, latencyMs };
    let threshold = 0;
    for (const kind of FAULT_KINDS) {
      threshold += rates[kind] ?? 0;
      if (which >= threshold) continue;
      if (options.exempt?.({ kind, command, input })) {
        count(report.exempted, kind, command);
        return { fault: null, latencyMs };
      }
      return { fault: kind, latencyMs };
    }
    return { fault: null, latencyMs };
  };

  const attach = (client: DynamoDBClient) => {
    client.middlewareStack.add(
      (nextHandler, context) => async (args) => {
        if (!active) return nextHandler(args);
        const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
        report.attempts[command] = (report.attempts[command] ?? 0) + 1;
        const { fault, latencyMs } = draw(command, args.input as Record<string, unknown>);
        if (latencyMs > 0) {
          count(report.injected, 'latency', command);
          report.latencyMs += latencyMs;
          await delay(latencyMs);
        }
        if (fault === null) return nextHandler(args);
        if (fault === 'connection_reset') {
          count(report.injected, fault, command);
          throw connectionReset();
        }
        if (fault === 'dropped_after_commit') {
          const result = await nextHandler(args);
          const response = result.response as { statusCode?: number; body?: { destroy?: () => void } };
          // Only a success is lost here: DynamoDB did the work and the caller does not learn it.
          if (response.statusCode === undefined || response.statusCode >= 300) return result;
          response.body?.destroy?.();
          count(report.injected, fault, command);
          throw connectionReset();
        }
        count(report.injected, fault, command);
        if (fault === 'transaction_conflict') return { response: conflictAnswer(command, args.input), output: undefined as never };
        const answer = fault === 'internal_error' ? INTERNAL_ERROR : fault === 'throttling' ? THROTTLING : THROUGHPUT_EXCEEDED;
        return { response: errorAnswer(answer), output: undefined as never };
      },
      FAULT_MIDDLEWARE,
    );
  };

  return {
    install: () => setRawClientHook(attach),
    uninstall: () => setRawClientHook(undefined),
    resume: () => {
      active = true;
    },
    pause: () => {
      active = false;
    },
    script: (command, ...kinds) => scripted.set(command, [...(scripted.get(command) ?? []), ...kinds]),
    report: () => structuredClone(report),
    attach,
  };
}

/** Rates for every failure kind at `rate` each, latency on a quarter of the attempts: the load tests' plan. */
export function evenRates(rate: number): FaultRates {
  return { ...Object.fromEntries(FAULT_KINDS.map((kind) => [kind, rate])), latency: 0.25 };
}
