// The last line of every synthesis (`npm run synth`, `cdk deploy`): that it succeeded, the assembly's
// directory and template, and where cdk-nag wrote its reports (one per rule pack, in the assembly).
import { readdirSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';

/** A path as a user types it from `cwd`: relative inside it, absolute outside. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/**
 * `Synthesized LoyaltyApi into cdk.out (LoyaltyApi.template.json); cdk-nag reports: cdk.out/...NagReport.csv, ...`,
 * or null when a stack carries an error annotation (a cdk-nag error): the CDK CLI then fails and says why.
 */
export function synthSummary(assembly: CloudAssembly, cwd: string = process.cwd()): string | null {
  const errors = assembly.stacks.flatMap((stack) => stack.messages.filter((message) => message.level === 'error'));
  if (errors.length > 0) return null;
  const directory = shown(assembly.directory, cwd);
  const stacks = assembly.stacks.map((stack) => `${stack.stackName} into ${directory} (${stack.templateFile})`).join(', ');
  const reports = readdirSync(assembly.directory)
    .filter((name) => /-NagReport\.(csv|json)$/.test(name))
    .sort()
    .map((name) => shown(join(assembly.directory, name), cwd));
  return `Synthesized ${stacks}; cdk-nag reports: ${reports.length > 0 ? reports.join(', ') : 'none written'}`;
}
