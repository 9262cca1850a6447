// The walk-throughs of docs/earning-engine.md and docs/points-calendar.md, run as a reader runs them:
// `npm start` on the demo configuration (on the run's DynamoDB Local and free ports), then each page's
// commands in order. A `# {…}` line under a command is what the page says it prints; the answer must
// contain it (objects: the fields shown; lists: exactly the elements shown), so page and twin cannot drift.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmStartArgs } from '../support/stream-dynamodb';
import { uniqueTableName } from '../support/test-table';
import { freePortRun, killGroup, ROOT, runNpm, type NpmProcess } from '../support/twin-process';

jest.setTimeout(180_000);

interface Step {
  command: string;
  /** What the page shows under the command: parts of its JSON answer. */
  expected: unknown[];
}

/** The commands of the page's "Walk-through" section, continuation lines joined, each with its `# {…}` lines. */
export function walkThrough(file: string): Step[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const section = /^## Walk-through\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1];
  if (!section) throw new Error(`${file} has no "## Walk-through" section`);
  const steps: Step[] = [];
  for (const block of section.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const lines = block[1]!.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      let line = lines[i]!;
      if (/^#\s*\{/.test(line)) {
        const json = line.replace(/^#\s*/, '');
        const step = steps.at(-1);
        if (!step) throw new Error(`${file}: an expected answer before any command: ${json}`);
        try {
          step.expected.push(JSON.parse(json));
        } catch (error) {
          throw new Error(`${file}: not JSON under '${step.command}': ${json} (${(error as Error).message})`);
        }
        continue;
      }
      while (line.trimEnd().endsWith('\\') && i + 1 < lines.length) line = `${line.trimEnd().slice(0, -1)} ${lines[++i]!.trim()}`;
      const comment = /\s#\s?(.*)$/.exec(line);
      const command = (comment ? line.slice(0, comment.index) : line).replace(/\s+/g, ' ').trim();
      if (command === '' || command.startsWith('#')) continue;
      steps.push({ command, expected: [] });
    }
  }
  return steps;
}

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** `npm start` on the demo configuration, its API on `port`, the simulator on port + 1. */
async function startNpmTwin(port: number, started: NpmProcess[]): Promise<void> {
  const npm = runNpm(await npmStartArgs(port, uniqueTableName('walk')));
  started.push(npm);
  await npm.waitFor('Press Ctrl-C');
}

async function stopNpmTwin(npm: NpmProcess): Promise<number> {
  process.kill(npm.pid, 'SIGTERM');
  return npm.exited;
}

/** Whether `actual` holds `expected` as the pages mean it: objects the fields shown, lists exactly the elements shown. */
function contains(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => contains(actual[i], item));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([key, value]) => contains((actual as Record<string, unknown>)[key], value));
  }
  return Object.is(actual, expected);
}

/**
 * The events in the page's order where the twin published them in another: a job run handles its due items
 * concurrently, so the events of one run come in any order. Each event shown is matched to a distinct one.
 */
function inPageOrder(answer: unknown, expected: unknown): unknown {
  const events = (answer as { events?: unknown[] }).events;
  const shown = (expected as { events?: unknown[] }).events;
  if (!Array.isArray(events) || !Array.isArray(shown) || events.length !== shown.length) return answer;
  const left = [...events];
  const ordered = shown.map((event) => {
    const index = left.findIndex((candidate) => contains(candidate, event));
    return index === -1 ? undefined : left.splice(index, 1)[0];
  });
  return ordered.includes(undefined) ? answer : { ...(answer as object), events: ordered };
}

/** Runs the page's steps against the twin on `port`; returns each step with what it printed. */
async function runPage(steps: Step[], port: number): Promise<Array<Step & { answer: unknown }>> {
  const ran = [];
  for (const step of steps) {
    const command = step.command
      .replaceAll('http://127.0.0.1:3000', `http://127.0.0.1:${port}`)
      .replaceAll('http://127.0.0.1:3001', `http://127.0.0.1:${port + 1}`);
    const run = await sh(command);
    expect({ command: step.command, exit: run.code, stderr: run.stderr }).toEqual({ command: step.command, exit: 0, stderr: '' });
    const answer: unknown = JSON.parse(run.stdout);
    for (const expected of step.expected) {
      expect({ command: step.command, answer: inPageOrder(answer, expected) }).toMatchObject({ command: step.command, answer: expected });
    }
    ran.push({ ...step, answer });
  }
  return ran;
}

describe.each([
  ['docs/earning-engine.md', 18, 15],
  ['docs/points-calendar.md', 13, 10],
])('the walk-through of %s, run against npm start', (file, commandCount, expectationCount) => {
  const started: NpmProcess[] = [];
  let port: number;
  beforeAll(async () => {
    port = await freePortRun(2);
    await startNpmTwin(port, started);
  });
  afterAll(() => {
    for (const npm of started) killGroup(npm.pid);
  });

  it('prints what the page says, command by command, and the twin then stops cleanly', async () => {
    const steps = walkThrough(file);
    // The page's shape, so a walk-through that lost its expected answers cannot pass by asserting nothing.
    expect({ commands: steps.length, expectations: steps.flatMap((s) => s.expected).length }).toEqual({
      commands: commandCount,
      expectations: expectationCount,
    });
    expect(steps[0]!.command).toMatch(/^curl -s -X PUT http:\/\/127\.0\.0\.1:3000\/_clock -d '\{"now":"2027-/);

    const ran = await runPage(steps, port);

    if (file === 'docs/points-calendar.md') {
      // The reminder announces exactly what the next run expires.
      const events = (ran.findLast((s) => s.command.endsWith('/_events'))!.answer as { events: Array<Record<string, unknown>> }).events;
      const reminder = events.find((e) => e.type === 'points.expiring_soon')!;
      const expired = events.filter((e) => e.type === 'points.expired');
      expect(expired).toEqual([expect.objectContaining({ customer_id: reminder.customer_id, points: reminder.points })]);
      // No imported member loses points: each holds its imported balance plus its approved pending entry.
      const imported = JSON.parse(readFileSync(join(ROOT, 'config', 'demo.json'), 'utf8')) as {
        shops: Array<{ id: string; members: Array<{ platform_customer_id: string; current_points: number }> }>;
      };
      const approved: Record<string, number> = { '1001': 400, '1008': 240 };
      for (const member of imported.shops[0]!.members) {
        const now = await sh(
          `curl -s http://127.0.0.1:${port}/v1/customers/${member.platform_customer_id} -H 'Authorization: demo_full_key'`,
        );
        expect({ id: member.platform_customer_id, points: JSON.parse(now.stdout).data.attributes.current_points }).toEqual({
          id: member.platform_customer_id,
          points: member.current_points + (approved[member.platform_customer_id] ?? 0),
        });
      }
    }
    expect(await stopNpmTwin(started[0]!)).toBe(0);
  });
});
