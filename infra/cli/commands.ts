// The operator commands. Each takes the usage plan (or null) and an output function as parameters,
// so tests run them directly against DynamoDB Local with a fake API Gateway.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { applyConfig } from '../../shared/shops/apply-config';
import { readConfigFile } from '../../shared/config/schema';
import { createApiKey } from '../../shared/data/api-key-repository';
import { listApiKeys, revokeApiKey, setUsageKey } from '../../shared/data/api-key-listing-repository';
import { hashApiKey, keyIdOf, type ApiKeySummary, type KeyScope } from '../../shared/domain/api-key';
import { listShopIds, readShopCatalog } from '../../shared/data/shop-repository';
import { backfillShopPostings, emailIndexReady, markEmailIndexComplete } from '../../shared/data/email-index-repository';
import { backfillShopNamePostings, markNameIndexComplete, nameIndexReady } from '../../shared/data/name-search';
import { backfillImportedBatches } from '../../shared/data/imported-batch-backfill';
import { backfillMemberList } from '../../shared/data/member-browse';
import { applyImport } from '../../shared/import/apply-import';
import { customerDirectoryFromExport, platformCustomerDirectory } from '../../shared/import/customer-directory';
import { importIdOf } from '../../shared/import/import-id';
import { type ImportReport, importReportLines, type UndoReport, undoReportLines } from '../../shared/import/import-report';
import { ImportFileError, type ImportMode, type ImportSource } from '../../shared/import/import-row';
import { matchRows } from '../../shared/import/match-rows';
import { readImportFile } from '../../shared/import/read-import-file';
import { undoImport } from '../../shared/import/undo-import';
import { backfillFigures, verifyFigures } from '../../shared/figures/program-figures';
import type { Progress, ShopProgress } from '../../shared/runtime/progress';
import type { StageAuthorizerCache } from './stage-authorizer-cache';
import type { UsagePlan } from './usage-plan-keys';
import { provisionUsageKey, syncConfigUsageKeys, undoUsageKey } from '../../shared/shops/usage-plan-keys';

export type Print = (line: string) => void;

export interface CommandDeps {
  /** The deployed stack's usage plan, or the running twins' on the table; null when there is none (DynamoDB Local alone). */
  usagePlan: UsagePlan | null;
  /** The authorizer cache flushed after a revoke: the deployed stage's, or the running twins' on the table; absent when none. */
  authorizerCache?: StageAuthorizerCache | null;
  print: Print;
}

/** The shop has no settings item: keys for it could never be used. */
export class UnknownShopError extends Error {
  constructor(shopId: string) {
    super(`Shop '${shopId}' is not configured (no settings item): apply its configuration first with 'loyalty config apply'`);
    this.name = 'UnknownShopError';
  }
}

const NO_API_GATEWAY =
  'No API Gateway here and no twin of this machine running on this table: usage-plan steps skipped (a twin refuses a key without a usage-plan key; create keys while it runs, or list them in its configuration file).';

/** A new loyalty key: 256 random bits, prefixed so it is recognisable in secret scanners and logs. */
export function generateLoyaltyKey(): string {
  return `lk_${randomBytes(32).toString('base64url')}`;
}

/** Validates the file, writes it and, in the cloud, gives each active key from it a usage-plan key. */
export async function configApply(
  file: string,
  deps: CommandDeps & { ensureTable?: (() => Promise<'created' | 'existed'>) | null; progress?: ShopProgress },
): Promise<void> {
  const config = readConfigFile(file);
  if (deps.ensureTable && (await deps.ensureTable()) === 'created') deps.print('table created');
  const summaries = await applyConfig(config, deps.progress ? { onProgress: deps.progress } : {});
  for (const [index, summary] of summaries.entries()) {
    const shop = config.shops[index]!;
    const revoked = summary.keys.filter((key) => key.revoked).length;
    deps.print(
      `shop ${summary.shopId}: settings, ${shop.earning_rules.length} earning rules, ${shop.campaigns.length} campaigns, ` +
        `${shop.vip_tiers.length} VIP tiers, ${shop.rewards.length} rewards written`,
    );
    deps.print(`  API keys: ${summary.keys.length} (${summary.keys.length - revoked} active, ${revoked} revoked)`);
    deps.print(`  members: ${summary.membersImported} imported, ${summary.membersKept} already present and kept as they are`);
  }
  if (!config.shops.some((shop) => shop.api_keys.length > 0)) return;
  if (!deps.usagePlan) {
    deps.print(NO_API_GATEWAY);
    return;
  }
  const { attached, disabled } = await syncConfigUsageKeys(config, deps.usagePlan);
  deps.print(`usage plan ${deps.usagePlan.id}: ${attached} keys attached, ${disabled} disabled`);
}

export async function keysCreate(
  options: { shop: string; name: string; scope: KeyScope },
  deps: CommandDeps,
  generateKey: () => string = generateLoyaltyKey,
): Promise<{ key: string; keyId: string; usageKeyId: string | null }> {
  if (!(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  const key = generateKey();
  const keyHash = hashApiKey(key);
  const keyId = keyIdOf(keyHash);
  const usage = deps.usagePlan ? await provisionUsageKey(options.shop, keyId, deps.usagePlan) : null;
  try {
    await createApiKey({
      key_hash: keyHash,
      shop_id: options.shop,
      name: options.name,
      scope: options.scope,
      status: 'active',
      usage_identifier_key: usage?.value ?? null,
      usage_key_id: usage?.id ?? null,
      created_at: new Date().toISOString(),
    });
  } catch (error) {
    if (deps.usagePlan && usage) await undoUsageKey(deps.usagePlan, usage, error);
    throw error;
  }
  deps.print(`created key ${keyId} for shop ${options.shop}: name '${options.name}', scope ${options.scope}`);
  deps.print(usage ? `API Gateway key ${usage.id} attached to usage plan ${deps.usagePlan!.id}` : NO_API_GATEWAY);
  deps.print('');
  deps.print(`    ${key}`);
  deps.print('');
  deps.print('Copy the key now: it cannot be shown again (only its SHA-256 hash is stored).');
  return { key, keyId, usageKeyId: usage?.id ?? null };
}

export async function keysRevoke(options: { shop: string; keyId: string }, deps: CommandDeps): Promise<ApiKeySummary> {
  const { key, wasActive } = await revokeApiKey(options.shop, options.keyId);
  deps.print(
    wasActive
      ? `revoked key ${key.key_id} ('${key.name}'): refused from the next request on`
      : `key ${key.key_id} ('${key.name}') was already revoked`,
  );
  if (!deps.usagePlan) {
    if (key.usage_key_id)
      deps.print(
        `Usage-plan key ${key.usage_key_id} is still enabled: run the same command with --stack (or, for a twin's table, while the twin runs) to disable it`,
      );
    else deps.print(NO_API_GATEWAY);
  } else if (key.usage_key_id) {
    await deps.usagePlan.keys.disable(key.usage_key_id);
    // A revoked key keeps no usage key, so a configuration file that re-activates it gets a fresh one.
    await setUsageKey(options.shop, key.key_id, null);
    deps.print(`API Gateway key ${key.usage_key_id} disabled`);
  }
  if (deps.authorizerCache) {
    // The stream's flusher does the same within about a second; this makes it certain before the CLI returns.
    await deps.authorizerCache.flush();
    deps.print(`authorizer cache of ${deps.authorizerCache.description} flushed: no cached answer lets the key through`);
  } else if (!deps.usagePlan) {
    deps.print(
      'No API Gateway here and no twin of this machine running on this table: nothing holds a cached answer for the key, a twin started now refuses it',
    );
  }
  deps.print('If a configuration file lists this key, mark it "revoked": true there too, or the next \'config apply\' re-activates it.');
  return key;
}

export async function keysList(options: { shop: string }, deps: Pick<CommandDeps, 'print'>): Promise<ApiKeySummary[]> {
  if (!(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  const keys = await listApiKeys(options.shop);
  if (keys.length === 0) {
    deps.print(`shop ${options.shop} has no API keys`);
    return keys;
  }
  const rows = [
    ['KEY ID', 'NAME', 'SCOPE', 'STATUS', 'CREATED AT'],
    ...keys.map((key) => [key.key_id, key.name, key.scope, key.status, key.created_at]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    deps.print(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
  return keys;
}

export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node reports some connection failures as an AggregateError with an empty message.
  if (error.message) return error.message;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
}

/**
 * Writes the e-mail search postings of every member of each shop not yet marked complete (every
 * registered shop, or the one named), then marks it: from then on filter[email] reads the index there.
 * A stopped run is run again: marked shops are skipped, and a shop's walk writes nothing twice.
 */
export async function emailIndexBackfill(options: { shop?: string }, deps: Pick<CommandDeps, 'print'>): Promise<void> {
  const shops = options.shop !== undefined ? [options.shop] : await listShopIds();
  if (options.shop !== undefined && !(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  for (const shopId of shops) {
    if (await emailIndexReady(shopId)) {
      deps.print(`shop ${shopId}: e-mail index already complete`);
      continue;
    }
    const done = await backfillShopPostings(shopId, (progress) => {
      if (progress.members > 0 && progress.members % 10_000 < 100) deps.print(`  shop ${shopId}: ${progress.members} members so far`);
    });
    await markEmailIndexComplete(shopId, new Date().toISOString());
    deps.print(`shop ${shopId}: ${done.members} members, ${done.postings} postings written; e-mail index complete`);
  }
}

/**
 * `loyalty name-index backfill [--shop S]`: writes the name search postings of every member of each shop not yet
 * marked complete (every registered shop, or the one named), then marks it: from then on filter[name] answers
 * there. A stopped run is run again: marked shops are skipped, and a shop's walk writes nothing twice.
 */
export async function nameIndexBackfill(options: { shop?: string }, deps: Pick<CommandDeps, 'print'>): Promise<void> {
  const shops = options.shop !== undefined ? [options.shop] : await listShopIds();
  if (options.shop !== undefined && !(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  for (const shopId of shops) {
    if (await nameIndexReady(shopId)) {
      deps.print(`shop ${shopId}: name index already complete`);
      continue;
    }
    const done = await backfillShopNamePostings(shopId, (progress) => {
      if (progress.members > 0 && progress.members % 10_000 < 100) deps.print(`  shop ${shopId}: ${progress.members} members so far`);
    });
    await markNameIndexComplete(shopId, new Date().toISOString());
    deps.print(`shop ${shopId}: ${done.members} members, ${done.postings} postings written; name index complete`);
  }
}

/**
 * `loyalty imported-batches backfill`: puts the imported balances' batches a `config apply` of an earlier
 * release wrote on the ledger's given-at index, so members' pages and Klaviyo profiles show them as the points
 * expiring next. Run once; running it again writes nothing.
 */
export async function importedBatchesBackfill(deps: Pick<CommandDeps, 'print'>): Promise<void> {
  const done = await backfillImportedBatches();
  deps.print(`${done.updated} imported balance batches put on the ledger's index`);
}

/**
 * `loyalty member-list backfill [--shop S]`: puts the member list's tier-and-activity attributes on the
 * profiles written before `gsi_customers_tier_activity` existed (docs/admin.md#the-member-list), shop by
 * shop. Safe to stop and run again: a profile already current is not written, and one changed meanwhile
 * (which derives them itself) is left as it is.
 */
export async function memberListBackfill(options: { shop?: string }, deps: Pick<CommandDeps, 'print'>): Promise<void> {
  const shops = options.shop !== undefined ? [options.shop] : await listShopIds();
  if (options.shop !== undefined && !(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  for (const shopId of shops) {
    const done = await backfillMemberList(shopId, (read) => {
      if (read % 10_000 === 0) deps.print(`  shop ${shopId}: ${read} members so far`);
    });
    deps.print(`shop ${shopId}: ${done.read} members read, ${done.updated} put on the member list`);
  }
}

/**
 * `loyalty stats verify --shop S`: recomputes the shop's figures from a full read of its members and history
 * and prints every figure that differs from what the figures consumer kept. Answers whether all agree.
 */
export async function statsVerify(options: { shop: string }, deps: Pick<CommandDeps, 'print'>): Promise<boolean> {
  if (!(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  const check = await verifyFigures(options.shop);
  for (const difference of check.differences)
    deps.print(`differs: ${difference.figure} kept ${difference.kept}, full read ${difference.recomputed}`);
  deps.print(
    `shop ${options.shop}: ${check.members} members, ${check.scanned} items scanned; ` +
      (check.differences.length === 0 ? 'the figures agree with a full read' : `${check.differences.length} figures differ`),
  );
  return check.differences.length === 0;
}

/**
 * `loyalty stats backfill --shop S`: writes the figures a full read gives (a table that existed before the
 * figures, or figures `stats verify` found wrong). See docs/operate.md for how it meets live events.
 */
export async function statsBackfill(options: { shop: string }, deps: Pick<CommandDeps, 'print'>): Promise<void> {
  if (!(await readShopCatalog(options.shop))) throw new UnknownShopError(options.shop);
  const done = await backfillFigures(options.shop);
  deps.print(`shop ${options.shop}: figures of ${done.members} members written, ${done.days} days (${done.deleted} stale items removed)`);
}

/** Where an import's progress goes: a bar on a terminal, plain lines otherwise (both on stderr). */
export type ImportProgress = Progress;

export interface ImportCommandOptions {
  file: string;
  shop: string;
  from: ImportSource;
  mode: ImportMode;
  customers: string | null;
  dryRun: boolean;
  concurrency?: number;
}

/** A file the operator named that cannot be read: said plainly, never as a stack trace. */
function readInputFile(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : messageOf(error);
    throw new ImportFileError(`Cannot read ${what} '${path}': ${reason}`);
  }
}

/**
 * `loyalty import FILE`: reads the export, matches its rows to platform customers (the `--customers`
 * export, or the platform), applies them (or, on a dry run, works out what would happen) and prints the
 * report; a run that writes ends with `Import id: <id>`.
 */
export async function importMembers(
  options: ImportCommandOptions,
  deps: Pick<CommandDeps, 'print'> & { progress?: ImportProgress },
): Promise<ImportReport> {
  const content = readInputFile(options.file, 'the file');
  const customersContent = options.customers === null ? null : readInputFile(options.customers, 'the customer export');
  const catalog = await readShopCatalog(options.shop);
  if (!catalog) throw new UnknownShopError(options.shop);
  const read = readImportFile(content, options.from);
  const directory = customersContent ? customerDirectoryFromExport(customersContent) : platformCustomerDirectory(options.shop);
  const { matched, skipped } = await matchRows(read.rows, directory);
  const importId = importIdOf({ shopId: options.shop, from: options.from, mode: options.mode, file: content, customers: customersContent });
  const report = await applyImport(
    { rowsRead: read.rowsRead, matched, skipped: [...read.skipped, ...skipped].sort((a, b) => a.line - b.line) },
    {
      shopId: options.shop,
      catalog,
      importId,
      from: options.from,
      mode: options.mode,
      fileName: basename(options.file),
      dryRun: options.dryRun,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(deps.progress ? { onProgress: deps.progress } : {}),
    },
  );
  for (const line of importReportLines(report)) deps.print(line);
  if (!options.dryRun) deps.print(`Import id: ${importId}`);
  return report;
}

/** `loyalty import undo IMPORT_ID`: takes back what that import did, and prints what it did. */
export async function undoImportCommand(
  options: { importId: string; shop: string },
  deps: Pick<CommandDeps, 'print'> & { progress?: (done: number) => void },
): Promise<UndoReport> {
  const catalog = await readShopCatalog(options.shop);
  if (!catalog) throw new UnknownShopError(options.shop);
  const report = await undoImport({
    shopId: options.shop,
    catalog,
    importId: options.importId,
    ...(deps.progress ? { onProgress: deps.progress } : {}),
  });
  for (const line of undoReportLines(report)) deps.print(line);
  return report;
}
