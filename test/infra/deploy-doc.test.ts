// docs/deploy.md, "Before you deploy", held to the code: the counts of the fixed costs table against the
// synthesized template (alarms, dashboards, custom metrics, scheduled jobs and their invocations a month,
// secrets, KMS keys, point-in-time recovery, the WAF web ACL and its rules), and every CLI command the
// permissions table names against the CLI's usage (each exists, and none is left out).
import { USAGE } from '../../infra/cli/main';
import { deploySection, documentedCommands, tableRows } from '../support/deploy-doc';
import { synthStack } from '../support/synth-stack';

jest.setTimeout(180_000);

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

const costs = deploySection('### What it costs');
/** The fixed costs table's rows by their first cell. */
const fixedRows = new Map(tableRows(costs).map((cells) => [cells[0]!, cells]));
/** The first whole number of the "count in the template" cell of a row. */
function countOf(item: string): number {
  const row = fixedRows.get(item);
  if (!row) throw new Error(`docs/deploy.md's fixed costs have no row '${item}'`);
  return Number(/\d+/.exec(row[1]!)![0]);
}

/** Invocations of one schedule expression in a 30-day month. */
function invocationsPerMonth(expression: string): number {
  const minutes = 30 * 24 * 60;
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (rate) return minutes / (Number(rate[1]) * { minute: 1, minutes: 1, hour: 60, hours: 60, day: 1440, days: 1440 }[rate[2]!]!);
  // cron(minute hour day-of-month month day-of-week year): only the daily form is used.
  if (/^cron\(\d+ \d+ \* \* \? \*\)$/.test(expression)) return 30;
  throw new Error(`a schedule this test does not count: ${expression}`);
}

const ofType = (resources: Resources, type: string) => Object.values(resources).filter((resource) => resource.Type === type);

describe('docs/deploy.md, what it costs', () => {
  const plain = synthStack().template.toJSON().Resources as Resources;
  const withWaf = synthStack({ props: { waf: true } }).template.toJSON().Resources as Resources;

  it('states the alarms, dashboards, custom metrics, secrets and KMS keys the template holds', () => {
    expect(countOf('CloudWatch alarms')).toBe(ofType(plain, 'AWS::CloudWatch::Alarm').length);
    expect(fixedRows.get('CloudWatch alarms')![3]).toBe(`$${(countOf('CloudWatch alarms') * 0.1).toFixed(2)}`);
    // Standard resolution (period of a minute or more), metric alarms only: $0.10 each.
    for (const alarm of ofType(plain, 'AWS::CloudWatch::Alarm')) {
      const periods = [
        alarm.Properties!.Period,
        ...((alarm.Properties!.Metrics as Array<{ MetricStat?: { Period?: number } }> | undefined) ?? []).map(
          (metric) => metric.MetricStat?.Period,
        ),
      ];
      for (const period of periods.filter((value) => value !== undefined)) expect(Number(period)).toBeGreaterThanOrEqual(60);
    }
    expect(ofType(plain, 'AWS::CloudWatch::CompositeAlarm')).toHaveLength(0);
    expect(countOf('CloudWatch dashboards')).toBe(ofType(plain, 'AWS::CloudWatch::Dashboard').length);
    expect(countOf('Custom metrics (log metric filters)')).toBe(ofType(plain, 'AWS::Logs::MetricFilter').length);
    expect(countOf('Secrets Manager secrets')).toBe(ofType(plain, 'AWS::SecretsManager::Secret').length);
    expect(countOf('KMS customer managed keys')).toBe(ofType(plain, 'AWS::KMS::Key').length);
  });

  it('states the scheduled jobs and their invocations a month', () => {
    const schedules = ofType(plain, 'AWS::Events::Rule')
      .map((rule) => rule.Properties!.ScheduleExpression)
      .filter((expression): expression is string => typeof expression === 'string');
    expect(ofType(plain, 'AWS::Scheduler::Schedule')).toHaveLength(0);
    expect(countOf('Scheduled jobs')).toBe(schedules.length);
    const invocations = schedules.reduce((total, expression) => total + invocationsPerMonth(expression), 0);
    const stated = /([\d ]+) invocations in a 30-day month/.exec(fixedRows.get('Scheduled jobs')![2]!)![1]!.replace(/ /g, '');
    expect(Number(stated)).toBe(invocations);
    // Each expression the row names, as many times as the template has it.
    for (const expression of new Set(schedules)) expect(fixedRows.get('Scheduled jobs')![2]).toContain(`\`${expression}\``);
  });

  it('states point-in-time recovery on the one table, and the WAF web ACL and its rules with -c waf=true', () => {
    const tables = ofType(plain, 'AWS::DynamoDB::Table');
    expect(countOf('DynamoDB point-in-time recovery')).toBe(tables.length);
    for (const table of tables) {
      expect(table.Properties!.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.Properties!.BillingMode).toBe('PAY_PER_REQUEST');
    }
    expect(ofType(plain, 'AWS::WAFv2::WebACL')).toHaveLength(0);
    const acls = ofType(withWaf, 'AWS::WAFv2::WebACL');
    const row = fixedRows.get('AWS WAF web ACL (`-c waf=true` only)')!;
    expect(row).toBeDefined();
    const [aclCount, ruleCount] = [...row[1]!.matchAll(/\d+/g)].map((match) => Number(match[0]));
    expect(aclCount).toBe(acls.length);
    expect(ruleCount).toBe((acls[0]!.Properties!.Rules as unknown[]).length);
    expect(row[3]).toContain(`$${(5 * aclCount! + ruleCount!).toFixed(2)}`);
  });

  it('prices Lambda at the memory the functions are given', () => {
    const memories = new Set(ofType(plain, 'AWS::Lambda::Function').map((fn) => fn.Properties!.MemorySize));
    const architectures = new Set(ofType(plain, 'AWS::Lambda::Function').map((fn) => JSON.stringify(fn.Properties!.Architectures)));
    expect(architectures).toEqual(new Set([JSON.stringify(['arm64'])]));
    expect(memories).toContain(512);
    expect(costs).toMatch(/512 MB × ~50 ms/);
  });
});

describe('docs/deploy.md, the CLI commands’ permissions', () => {
  it('names each command of the CLI, and only those', () => {
    const usageCommands = [...USAGE.matchAll(/^ {2}(loyalty(?: [a-z][a-z-]*)+)/gm)]
      .map((match) => match[1]!.trim())
      .filter((command) => command !== 'loyalty');
    const documented = documentedCommands().map((row) => row.command);
    expect(usageCommands.length).toBeGreaterThanOrEqual(10);
    expect([...documented].sort()).toEqual([...new Set(usageCommands)].sort());
    for (const row of documentedCommands().filter((entry) => entry.command !== 'loyalty shopify-app-config'))
      expect(row.dynamodb.length).toBeGreaterThan(0);
  });
});
