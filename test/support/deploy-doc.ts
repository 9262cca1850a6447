// Reads docs/deploy.md's tables that tests hold to the code: the CLI commands' permissions and the fixed costs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const PAGE = join(__dirname, '..', '..', 'docs', 'deploy.md');

/** The page's section under `heading` (up to the next heading of the same or a higher level). */
export function deploySection(heading: string): string {
  const page = readFileSync(PAGE, 'utf8');
  const start = page.indexOf(heading);
  if (start === -1) throw new Error(`docs/deploy.md has no '${heading}'`);
  const level = /^#+/.exec(heading)![0].length;
  const rest = page.slice(start + heading.length);
  const next = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return next === -1 ? rest : rest.slice(0, next);
}

/** The cells of each row of the section's tables (header and separator rows left out). */
export function tableRows(section: string): string[][] {
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

export interface DocumentedCommand {
  /** `loyalty keys create`: the command's words without its arguments. */
  command: string;
  /** DynamoDB actions on the table, without the `dynamodb:` prefix. */
  dynamodb: string[];
  /** Other actions (`cloudformation:DescribeStacks`, ...). */
  other: string[];
}

/** The rows of "Per CLI command": a command, its DynamoDB actions, its other actions. */
export function documentedCommands(): DocumentedCommand[] {
  return tableRows(deploySection('### Per CLI command'))
    .filter((cells) => cells[0]!.startsWith('`loyalty '))
    .map((cells) => ({
      command: /^`(loyalty(?: [a-z][a-z-]*)+)/.exec(cells[0]!)![1]!.trim(),
      dynamodb: [...cells[1]!.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]!),
      other: [...cells[2]!.matchAll(/`([a-z0-9-]+:[A-Za-z*]+)`/g)].map((match) => match[1]!),
    }));
}
