// `loyalty`: the operator CLI (config apply, keys create/revoke/list, e-mail and name index backfills, import and its undo) against a deployed stack or the
// local twin, and the Shopify app's configuration (shopify-app-config). Parses the arguments, resolves
// the target, runs one command; exit code 0 or 1.
import '../local/local-env';
import { parseArgs } from 'node:util';
import { resetDocumentClient } from '../../shared/data/client';
import {
  memberProgressByShop,
  type Progress,
  type ProgressOptions,
  type ProgressOutput,
  progressReporter,
  type ShopProgress,
} from '../../shared/runtime/progress';
import { IMPORT_SOURCES, type ImportMode, type ImportSource } from '../../shared/import/import-row';
import { isImportId } from '../../shared/import/import-id';
import { PlatformRefusedError } from '../../shared/platform/port';
import {
  configApply,
  emailIndexBackfill,
  importedBatchesBackfill,
  memberListBackfill,
  nameIndexBackfill,
  statsBackfill,
  statsVerify,
  importMembers,
  keysCreate,
  keysList,
  keysRevoke,
  messageOf,
  type Print,
  undoImportCommand,
} from './commands';
import { AppConfigError, DEFAULT_APP_NAME, shopifyAppToml } from './shopify-app-config';
import {
  answeredButNotDynamoDb,
  DEFAULT_LOCAL_TABLE,
  describeNotDynamoDb,
  resolveTarget,
  stackShopifyWebhookUrl,
  type Target,
  type TargetOptions,
} from './targets';

export const USAGE = `Usage:
  loyalty config apply FILE                                  TARGET
  loyalty keys create --shop S --name N --scope full|read    TARGET
  loyalty keys revoke --shop S --key-id ID                   TARGET
  loyalty keys list --shop S                                 TARGET
  loyalty email-index backfill [--shop S]                    TARGET
  loyalty imported-batches backfill                          TARGET
  loyalty member-list backfill [--shop S]                    TARGET
  loyalty name-index backfill [--shop S]                     TARGET
  loyalty import FILE --shop S --from ${IMPORT_SOURCES.join('|')}
                 [--customers FILE] [--mode add|set] [--dry-run] TARGET
  loyalty import undo IMPORT_ID --shop S                     TARGET
  loyalty stats verify --shop S                              TARGET
  loyalty stats backfill --shop S                            TARGET
  loyalty shopify-app-config (--stack NAME [--region R] | --webhook-url URL) [--client-id ID] [--app-name NAME]
  loyalty --help

TARGET is one of:
  --stack NAME [--region R]        a deployed stack: table and usage plan from its CloudFormation outputs
  --endpoint URL [--table NAME]    a DynamoDB endpoint, e.g. the local twin's DynamoDB Local
                                   (table default ${DEFAULT_LOCAL_TABLE}; the usage plan is that of the twins
                                   running on the table, usage-plan steps skipped when none runs)

A created key is printed once and cannot be shown again; only its SHA-256 hash is stored.

email-index backfill writes the e-mail search postings of members enrolled before the index existed,
shop by shop (every registered shop, or --shop S), then marks each shop complete so filter[email]
reads the index; until then it answers by scanning. Safe to stop and run again: complete shops are
skipped and a shop's walk writes nothing twice.

member-list backfill puts the member list's tier and last activity on the members written before the
list existed (every registered shop, or --shop S), so GET /admin/api/members lists them by last activity
and by tier. Safe to stop and run again: a member already current is not written.

name-index backfill writes the name search postings of members enrolled before the index existed (every
registered shop, or --shop S), then marks each shop complete so GET /admin/api/members?filter[name]= answers
there (until then it answers 503). Safe to stop and run again: complete shops are skipped.

imported-batches backfill puts the balances a configuration file gave members (applied by an earlier
release) on the ledger's index, so their batch shows as the points expiring next. Run it once; a second
run writes nothing.

import reads another loyalty app's export (--from) and creates or updates the shop's members from it,
matching rows to platform customers by id, else by e-mail through Shopify's customer export
(--customers) or the platform. --mode add (default) adds the file's balances, set makes them the
balances. --dry-run writes nothing and prints what would happen. The report goes to stdout, progress
to stderr; a run that writes ends with 'Import id: <id>'. Running the same file again changes
nothing; a stopped run continues when run again. import undo takes back what that import did.
See docs/migrate.md.

stats verify recomputes a shop's program figures (GET /admin/api/overview) from a full read of its
members and history, prints every figure that differs from the kept ones, and exits 1 when any does.
stats backfill writes the figures a full read gives, for a table that existed before the figures
(run it while the figures consumer is held; docs/operate.md).

shopify-app-config prints the Shopify app's shopify.app.toml (the file alone, on stdout) for
\`shopify app deploy\`: the scopes the service uses and every topic it handles, delivered to the
stack's ShopifyWebhookUrl output (--stack) or to an https --webhook-url. --client-id is the app's
Client ID in the Dev Dashboard (left empty without it); --app-name defaults to '${DEFAULT_APP_NAME}'.`;

const OPTIONS = {
  shop: { type: 'string' },
  name: { type: 'string' },
  scope: { type: 'string' },
  'key-id': { type: 'string' },
  stack: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  table: { type: 'string' },
  'webhook-url': { type: 'string' },
  'client-id': { type: 'string' },
  'app-name': { type: 'string' },
  from: { type: 'string' },
  customers: { type: 'string' },
  mode: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type OptionName = Exclude<keyof typeof OPTIONS, 'help' | 'dry-run'>;
type Values = Partial<Record<OptionName, string>>;

type Command =
  | { kind: 'config apply'; file: string }
  | { kind: 'keys create'; shop: string; name: string; scope: 'full' | 'read' }
  | { kind: 'keys revoke'; shop: string; keyId: string }
  | { kind: 'keys list'; shop: string }
  | { kind: 'email-index backfill'; shop?: string }
  | { kind: 'imported-batches backfill' }
  | { kind: 'member-list backfill'; shop?: string }
  | { kind: 'name-index backfill'; shop?: string }
  | { kind: 'import'; file: string; shop: string; from: ImportSource; mode: ImportMode; customers: string | null; dryRun: boolean }
  | { kind: 'import undo'; importId: string; shop: string }
  | { kind: 'stats verify'; shop: string }
  | { kind: 'stats backfill'; shop: string }
  | AppConfigCommand;

/** Works on no table: the webhook URL comes from the stack's outputs or the command line. */
interface AppConfigCommand {
  kind: 'shopify-app-config';
  from: { stack: string; region?: string } | { webhookUrl: string };
  clientId?: string;
  appName?: string;
}

const TARGET_OPTIONS: OptionName[] = ['stack', 'region', 'endpoint', 'table'];
/** Each command's options besides its target's. */
const COMMAND_OPTIONS: Record<Command['kind'], OptionName[]> = {
  'config apply': [],
  'keys create': ['shop', 'name', 'scope'],
  'keys revoke': ['shop', 'key-id'],
  'keys list': ['shop'],
  'email-index backfill': ['shop'],
  'imported-batches backfill': [],
  'member-list backfill': ['shop'],
  'name-index backfill': ['shop'],
  import: ['shop', 'from', 'customers', 'mode'],
  'import undo': ['shop'],
  'stats verify': ['shop'],
  'stats backfill': ['shop'],
  'shopify-app-config': ['webhook-url', 'client-id', 'app-name'],
};
/** The options of a command's target: shopify-app-config only reads a stack's outputs. */
const targetOptionsOf = (kind: Command['kind']): OptionName[] => (kind === 'shopify-app-config' ? ['stack', 'region'] : TARGET_OPTIONS);

/** Wrong arguments: the message and then the usage text. */
class UsageError extends Error {}

export interface Io {
  out: Print;
  err: Print;
  /** stderr is a terminal: progress is drawn as a bar that rewrites its line. */
  errIsTty?: boolean;
  /** Writes to stderr without a newline (the progress bar). */
  errWrite?: (text: string) => void;
}

const consoleIo: Io = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  errIsTty: process.stderr.isTTY === true,
  errWrite: (text) => process.stderr.write(text),
};

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
    const { help: _help, 'dry-run': dryRun, ...values } = parsed.values;
    const command = parseCommand(parsed.positionals, values, dryRun === true);
    if (command.kind === 'shopify-app-config') return await printAppConfig(command, io);
    target = await resolveTarget(targetOptions(values));
    io.out(`target: ${target.description}, table ${target.tableName}`);
    return (await run(command, target, io)) === false ? 1 : 0;
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

/** The toml alone goes to stdout, so `> shopify.app.toml` captures exactly the file; notes go to stderr. */
async function printAppConfig(command: AppConfigCommand, io: Io): Promise<number> {
  let webhookUrl: string;
  if ('stack' in command.from) {
    const found = await stackShopifyWebhookUrl(command.from.stack, command.from.region);
    io.err(`webhook URL of stack ${command.from.stack} (${found.region}): ${found.url}`);
    webhookUrl = found.url;
  } else {
    webhookUrl = command.from.webhookUrl;
  }
  let toml: string;
  try {
    toml = shopifyAppToml({
      webhookUrl,
      ...(command.clientId !== undefined ? { clientId: command.clientId } : {}),
      ...(command.appName !== undefined ? { appName: command.appName } : {}),
    });
  } catch (error) {
    if (error instanceof AppConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (command.clientId === undefined) {
    io.err(
      "client_id is left empty: pass --client-id with the app's Client ID (Dev Dashboard, the app's Settings), or run `shopify app config link` before `shopify app deploy`",
    );
  }
  io.out(toml.trimEnd());
  return 0;
}

/** Runs the command; `false` when it found what makes the exit status 1 (stats verify: a difference). */
async function run(command: Exclude<Command, AppConfigCommand>, target: Target, io: Io): Promise<void | boolean> {
  const print = io.out;
  const deps = { usagePlan: target.usagePlan, authorizerCache: target.authorizerCache, print };
  switch (command.kind) {
    case 'config apply':
      return configApply(command.file, { ...deps, ensureTable: target.ensureTable, progress: memberProgressOf(io) });
    case 'keys create':
      await keysCreate({ shop: command.shop, name: command.name, scope: command.scope }, deps);
      return;
    case 'keys revoke':
      await keysRevoke({ shop: command.shop, keyId: command.keyId }, deps);
      return;
    case 'keys list':
      await keysList({ shop: command.shop }, deps);
      return;
    case 'email-index backfill':
      await emailIndexBackfill(command.shop !== undefined ? { shop: command.shop } : {}, deps);
      return;
    case 'imported-batches backfill':
      await importedBatchesBackfill(deps);
      return;
    case 'member-list backfill':
      await memberListBackfill(command.shop !== undefined ? { shop: command.shop } : {}, deps);
      return;
    case 'name-index backfill':
      await nameIndexBackfill(command.shop !== undefined ? { shop: command.shop } : {}, deps);
      return;
    case 'import': {
      const { kind: _kind, ...options } = command;
      // Matching through the platform (no --customers export): the twin's shops' credentials, if any.
      if (options.customers === null) target.loadPlatformCredentials?.();
      await importMembers(options, { print, progress: progressOf(io) });
      return;
    }
    case 'import undo':
      await undoImportCommand(
        { importId: command.importId, shop: command.shop },
        { print, progress: (done) => io.err(`undo: ${done} members taken back so far`) },
      );
      return;
    case 'stats verify':
      return statsVerify({ shop: command.shop }, deps);
    case 'stats backfill':
      await statsBackfill({ shop: command.shop }, deps);
      return;
  }
}

/** stderr as the progress reporters see it. */
function progressOutput(io: Io): ProgressOutput {
  return { line: io.err, ...(io.errIsTty !== undefined ? { isTty: io.errIsTty } : {}), ...(io.errWrite ? { write: io.errWrite } : {}) };
}

/** The import's progress on stderr (shared/runtime/progress.ts): a bar on a terminal, plain lines otherwise. */
export function progressOf(io: Io, options: ProgressOptions = {}): Progress {
  return progressReporter(progressOutput(io), options);
}

/** A configuration file's members on stderr, shop by shop, as the twin's start shows them. */
export function memberProgressOf(io: Io, options: Omit<ProgressOptions, 'unit' | 'label'> = {}): ShopProgress {
  return memberProgressByShop(progressOutput(io), options);
}

function parseCommand(positionals: string[], values: Values, dryRun: boolean): Command {
  if (positionals.length === 0) throw new UsageError('no command given');
  // One word (shopify-app-config, import FILE) or two (config apply, keys create, import undo, ...).
  const words = positionals[0] === 'shopify-app-config' || (positionals[0] === 'import' && positionals[1] !== 'undo') ? 1 : 2;
  const kind = positionals.slice(0, words).join(' ');
  const rest = positionals.slice(words);
  if (!isCommandKind(kind)) throw new UsageError(`unknown command '${kind}'`);
  const allowed = new Set([...COMMAND_OPTIONS[kind], ...targetOptionsOf(kind)]);
  for (const name of Object.keys(values) as OptionName[]) {
    if (!allowed.has(name)) throw new UsageError(`--${name} does not apply to '${kind}'`);
  }
  if (dryRun && kind !== 'import') throw new UsageError(`--dry-run does not apply to '${kind}'`);
  const expectedArguments = kind === 'config apply' || kind === 'import' || kind === 'import undo' ? 1 : 0;
  if (rest.length !== expectedArguments) {
    const what = kind === 'import undo' ? 'IMPORT_ID' : 'FILE';
    throw new UsageError(expectedArguments === 1 ? `'${kind}' takes exactly one ${what}` : `unexpected argument '${rest[0]}'`);
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
    case 'email-index backfill':
      return { kind, ...(values.shop !== undefined ? { shop: required('shop') } : {}) };
    case 'imported-batches backfill':
      return { kind };
    case 'member-list backfill':
    case 'name-index backfill':
      return { kind, ...(values.shop !== undefined ? { shop: required('shop') } : {}) };
    case 'import': {
      const shop = required('shop');
      const from = required('from');
      if (!(IMPORT_SOURCES as readonly string[]).includes(from)) {
        throw new UsageError(`--from must be one of ${IMPORT_SOURCES.join(', ')}, not '${from}'`);
      }
      const mode = values.mode ?? 'add';
      if (mode !== 'add' && mode !== 'set') throw new UsageError(`--mode must be 'add' or 'set', not '${mode}'`);
      if (values.customers !== undefined && values.customers.trim() === '') throw new UsageError('--customers must not be empty');
      return { kind, file: rest[0]!, shop, from: from as ImportSource, mode, customers: values.customers ?? null, dryRun };
    }
    case 'stats verify':
    case 'stats backfill':
      return { kind, shop: required('shop') };
    case 'import undo': {
      const shop = required('shop');
      const importId = rest[0]!;
      if (!isImportId(importId)) {
        throw new UsageError(`'${importId}' is not an import id: give the 16 hex characters the import printed (Import id: ...)`);
      }
      return { kind, importId, shop };
    }
    case 'shopify-app-config':
      return appConfigCommand(values);
  }
}

function appConfigCommand(values: Values): AppConfigCommand {
  const { stack, region } = values;
  const webhookUrl = values['webhook-url'];
  if ((stack === undefined) === (webhookUrl === undefined)) {
    throw new UsageError(
      "say where Shopify delivers webhooks: --stack NAME (the stack's ShopifyWebhookUrl output) or --webhook-url URL, one of them",
    );
  }
  if (region !== undefined && stack === undefined) throw new UsageError('--region goes with --stack');
  for (const name of ['stack', 'client-id', 'app-name'] as const) {
    if (values[name] !== undefined && values[name].trim() === '') throw new UsageError(`--${name} must not be empty`);
  }
  return {
    kind: 'shopify-app-config',
    from: stack !== undefined ? { stack, ...(region !== undefined ? { region } : {}) } : { webhookUrl: webhookUrl! },
    ...(values['client-id'] !== undefined ? { clientId: values['client-id'] } : {}),
    ...(values['app-name'] !== undefined ? { appName: values['app-name'] } : {}),
  };
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

/** Why a twin's shop with client credentials refuses the CLI's calls when no twin's configuration file was found. */
const NO_TWIN_CREDENTIALS =
  "A twin's shop with client_id and client_secret takes only tokens its simulator granted for that pair. The CLI reads the pair from the configuration file of the twin running on this table (npm start -- --config FILE) and found none: PLATFORM_BASE_URL was set by hand, or the twin was started from a configuration in memory. Unset PLATFORM_BASE_URL, or give Shopify's customer export with --customers.";

/** The error as an operator can act on it: a missing table, an unreachable endpoint or one that is not DynamoDB is named as such. */
async function describeFailure(error: unknown, target: Target | undefined): Promise<string> {
  if (target && (error as Error | undefined)?.name === 'ResourceNotFoundException') {
    const hint = target.endpoint === undefined ? 'is the stack fully deployed?' : 'start the twin first, or pass the right --table';
    return `Table '${target.tableName}' not found at ${target.description}: ${hint}`;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (target && (code === 'ECONNREFUSED' || code === 'ENOTFOUND')) return `Cannot reach ${target.description}: ${messageOf(error)}`;
  if (target?.endpoint && answeredButNotDynamoDb(error)) return describeNotDynamoDb(target.endpoint);
  if (target?.endpoint && !target.loadPlatformCredentials && error instanceof PlatformRefusedError && error.reason === 'credentials') {
    return `${messageOf(error)}\n${NO_TWIN_CREDENTIALS}`;
  }
  return messageOf(error);
}
