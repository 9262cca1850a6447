// `loyalty`: the operator CLI (config apply, keys create/revoke/list) against a deployed stack or the
// local twin. Parses the arguments, resolves the target, runs one command; exit code 0 or 1.
import '../local/local-env';
import { parseArgs } from 'node:util';
import { resetDocumentClient } from '../../shared/data/client';
import { configApply, keysCreate, keysList, keysRevoke, messageOf, type Print } from './commands';
import {
  answeredButNotDynamoDb,
  DEFAULT_LOCAL_TABLE,
  describeNotDynamoDb,
  resolveTarget,
  type Target,
  type TargetOptions,
} from './targets';

export const USAGE = `Usage:
  loyalty config apply FILE                                  TARGET
  loyalty keys create --shop S --name N --scope full|read    TARGET
  loyalty keys revoke --shop S --key-id ID                   TARGET
  loyalty keys list --shop S                                 TARGET
  loyalty --help

TARGET is one of:
  --stack NAME [--region R]        a deployed stack: table and usage plan from its CloudFormation outputs
  --endpoint URL [--table NAME]    a DynamoDB endpoint, e.g. the local twin's DynamoDB Local
                                   (table default ${DEFAULT_LOCAL_TABLE}; no API Gateway, usage-plan steps skipped)

A created key is printed once and cannot be shown again; only its SHA-256 hash is stored.`;

const OPTIONS = {
  shop: { type: 'string' },
  name: { type: 'string' },
  scope: { type: 'string' },
  'key-id': { type: 'string' },
  stack: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  table: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = Exclude<keyof typeof OPTIONS, 'help'>;
type Values = Partial<Record<OptionName, string>>;

type Command =
  | { kind: 'config apply'; file: string }
  | { kind: 'keys create'; shop: string; name: string; scope: 'full' | 'read' }
  | { kind: 'keys revoke'; shop: string; keyId: string }
  | { kind: 'keys list'; shop: string };

const TARGET_OPTIONS: OptionName[] = ['stack', 'region', 'endpoint', 'table'];
const COMMAND_OPTIONS: Record<Command['kind'], OptionName[]> = {
  'config apply': [],
  'keys create': ['shop', 'name', 'scope'],
  'keys revoke': ['shop', 'key-id'],
  'keys list': ['shop'],
};

/** Wrong arguments: the message and then the usage text. */
class UsageError extends Error {}

export interface Io {
  out: Print;
  err: Print;
}

const consoleIo: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };

export async function main(argv: string[], io: Io = consoleIo): Promise<number> {
  let target: Target | undefined;
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError(messageOf(error));
    }
    if (parsed.values.help) {
      io.out(USAGE);
      return 0;
    }
    const { help: _help, ...values } = parsed.values;
    const command = parseCommand(parsed.positionals, values);
    target = await resolveTarget(targetOptions(values));
    io.out(`target: ${target.description}, table ${target.tableName}`);
    await run(command, target, io.out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`loyalty: ${error.message}`);
      io.err('');
      io.err(USAGE);
    } else {
      io.err(await describeFailure(error, target));
    }
    return 1;
  } finally {
    resetDocumentClient();
  }
}

async function run(command: Command, target: Target, print: Print): Promise<void> {
  const deps = { usagePlan: target.usagePlan, authorizerCache: target.authorizerCache, print };
  switch (command.kind) {
    case 'config apply':
      return configApply(command.file, { ...deps, ensureTable: target.ensureTable });
    case 'keys create':
      await keysCreate({ shop: command.shop, name: command.name, scope: command.scope }, deps);
      return;
    case 'keys revoke':
      await keysRevoke({ shop: command.shop, keyId: command.keyId }, deps);
      return;
    case 'keys list':
      await keysList({ shop: command.shop }, deps);
      return;
  }
}

function parseCommand(positionals: string[], values: Values): Command {
  if (positionals.length === 0) throw new UsageError('no command given');
  const [group, action, ...rest] = positionals;
  const kind = `${group} ${action}`;
  if (!isCommandKind(kind)) throw new UsageError(`unknown command '${positionals.slice(0, 2).join(' ')}'`);
  const allowed = new Set([...COMMAND_OPTIONS[kind], ...TARGET_OPTIONS]);
  for (const name of Object.keys(values) as OptionName[]) {
    if (!allowed.has(name)) throw new UsageError(`--${name} does not apply to '${kind}'`);
  }
  const expectedArguments = kind === 'config apply' ? 1 : 0;
  if (rest.length !== expectedArguments) {
    throw new UsageError(expectedArguments === 1 ? `'${kind}' takes exactly one FILE` : `unexpected argument '${rest[0]}'`);
  }
  const required = (name: OptionName): string => {
    const value = values[name];
    if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required for '${kind}'`);
    return value;
  };
  switch (kind) {
    case 'config apply':
      return { kind, file: rest[0]! };
    case 'keys create': {
      const [shop, name, scope] = [required('shop'), required('name'), required('scope')];
      if (scope !== 'full' && scope !== 'read') throw new UsageError(`--scope must be 'full' or 'read', not '${scope}'`);
      return { kind, shop, name, scope };
    }
    case 'keys revoke':
      return { kind, shop: required('shop'), keyId: required('key-id') };
    case 'keys list':
      return { kind, shop: required('shop') };
  }
}

function isCommandKind(kind: string): kind is Command['kind'] {
  return Object.hasOwn(COMMAND_OPTIONS, kind);
}

function targetOptions(values: Values): TargetOptions {
  if (values.stack !== undefined && values.endpoint !== undefined) throw new UsageError('give either --stack or --endpoint, not both');
  if (values.stack === undefined && values.endpoint === undefined) {
    throw new UsageError("say where to work: --stack NAME (a deployed stack) or --endpoint URL (e.g. the twin's DynamoDB Local)");
  }
  if (values.stack !== undefined && values.table !== undefined)
    throw new UsageError('--table goes with --endpoint; a stack names its own table');
  return {
    ...(values.stack !== undefined ? { stack: values.stack } : {}),
    ...(values.endpoint !== undefined ? { endpoint: values.endpoint } : {}),
    ...(values.table !== undefined ? { table: values.table } : {}),
    ...(values.region !== undefined ? { region: values.region } : {}),
  };
}

/** The error as an operator can act on it: a missing table, an unreachable endpoint or one that is not DynamoDB is named as such. */
async function describeFailure(error: unknown, target: Target | undefined): Promise<string> {
  if (target && (error as Error | undefined)?.name === 'ResourceNotFoundException') {
    const hint = target.usagePlan ? 'is the stack fully deployed?' : 'start the twin first, or pass the right --table';
    return `Table '${target.tableName}' not found at ${target.description}: ${hint}`;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (target && (code === 'ECONNREFUSED' || code === 'ENOTFOUND')) return `Cannot reach ${target.description}: ${messageOf(error)}`;
  if (target?.endpoint && answeredButNotDynamoDb(error)) return describeNotDynamoDb(target.endpoint);
  return messageOf(error);
}
