// Shopify store credit, per shop: one account per customer and currency, created by the first credit in that
// currency, with its credit and debit transactions. Credits and debits give the user errors Shopify gives
// (OWNER_NOT_FOUND, ACCOUNT_NOT_FOUND, NEGATIVE_OR_ZERO_AMOUNT, EXPIRES_AT_IN_PAST, MISMATCHING_CURRENCY,
// INSUFFICIENT_FUNDS). The simulator does not expire credit: a credit's `expiresAt` is recorded and shown only.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { decimalToMinor, minorDigits } from '../../../shared/domain/money';

export interface SimulatedStoreCreditTransaction {
  id: string;
  kind: 'credit' | 'debit';
  /** Minor units, always positive; a debit takes them away. */
  amount: number;
  /** The account's balance after it, in minor units. */
  balance_after: number;
  created_at: string;
  expires_at: string | null;
}

export interface SimulatedStoreCreditAccount {
  shop: string;
  id: string;
  customer_id: string;
  currency: string;
  /** Minor units. */
  balance: number;
  transactions: SimulatedStoreCreditTransaction[];
}

export interface StoreCreditUserError {
  field: string[] | null;
  message: string;
  code: string;
}

export interface MoneyInput {
  amount: string;
  currencyCode: string;
}

export type StoreCreditOutcome =
  | { account: SimulatedStoreCreditAccount; transaction: SimulatedStoreCreditTransaction; userErrors: [] }
  | { account: null; transaction: null; userErrors: StoreCreditUserError[] };

export interface SimulatedStoreCredit {
  /** `id` is the customer's global id (the account in the money's currency, made on first credit) or an account's. */
  credit(shop: string, id: string, input: { creditAmount: MoneyInput; expiresAt?: string | null }): StoreCreditOutcome;
  debit(shop: string, id: string, input: { debitAmount: MoneyInput }): StoreCreditOutcome;
  /** The customer's accounts in the shop, oldest first. */
  accounts(shop: string, customerId: string): SimulatedStoreCreditAccount[];
}

const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/(\d+)$/;
const ACCOUNT_GID = /^gid:\/\/shopify\/StoreCreditAccount\/(\d+)$/;
const numericId = (gid: string) => Number(gid.slice(gid.lastIndexOf('/') + 1)) || 0;

function readAccounts(file: string): SimulatedStoreCreditAccount[] {
  if (!existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file} does not hold a list of store credit accounts; move it away to start afresh`);
  return parsed as SimulatedStoreCreditAccount[];
}

/** `hasCustomer` tells whether the shop has the customer; `accountsFile` keeps the accounts across restarts (`--persist`). */
export function createSimulatedStoreCredit(
  now: () => Date,
  hasCustomer: (shop: string, customerId: string) => boolean,
  accountsFile?: string,
): SimulatedStoreCredit {
  const book = new StoreCreditBook(now, hasCustomer, accountsFile);
  return {
    credit: (shop, id, input) => book.credit(shop, id, input),
    debit: (shop, id, input) => book.debit(shop, id, input),
    accounts: (shop, customerId) => book.accountsOf(shop, customerId),
  };
}

const fail = (field: string[] | null, message: string, code: string): StoreCreditOutcome => ({
  account: null,
  transaction: null,
  userErrors: [{ field, message, code }],
});

/** The money in minor units, or the user error of a non-positive amount or one with too many decimals. */
function minorOf(money: MoneyInput, field: string[]): number | StoreCreditOutcome {
  const digits = minorDigits(money.currencyCode);
  const [, fraction = ''] = money.amount.replace(/^-/, '').split('.');
  const minor = decimalToMinor(money.amount, digits);
  if (minor <= 0) return fail(field, 'A positive amount must be used.', 'NEGATIVE_OR_ZERO_AMOUNT');
  if (fraction.replace(/0+$/, '').length > digits) {
    return fail(field, `The amount has more decimals than ${money.currencyCode} has.`, 'NEGATIVE_OR_ZERO_AMOUNT');
  }
  return minor;
}

/** The shops' store credit accounts, with the counters their ids come from. */
class StoreCreditBook {
  private readonly accounts: SimulatedStoreCreditAccount[];
  private nextAccountId: number;
  private nextTransactionId: number;

  constructor(
    private readonly now: () => Date,
    private readonly hasCustomer: (shop: string, customerId: string) => boolean,
    private readonly accountsFile?: string,
  ) {
    const accounts = accountsFile ? readAccounts(accountsFile) : [];
    this.accounts = accounts;
    this.nextAccountId = 1 + accounts.reduce((highest, account) => Math.max(highest, numericId(account.id)), 0);
    this.nextTransactionId =
      1 + accounts.flatMap((account) => account.transactions).reduce((highest, entry) => Math.max(highest, numericId(entry.id)), 0);
  }

  accountsOf(shop: string, customerId: string): SimulatedStoreCreditAccount[] {
    return this.accounts.filter((account) => account.shop === shop && account.customer_id === customerId);
  }

  credit(shop: string, id: string, input: { creditAmount: MoneyInput; expiresAt?: string | null }): StoreCreditOutcome {
    const amount = minorOf(input.creditAmount, ['creditInput', 'creditAmount', 'amount']);
    if (typeof amount !== 'number') return amount;
    const expiresAt = input.expiresAt ?? null;
    if (expiresAt !== null && Date.parse(expiresAt) <= this.now().getTime()) {
      return fail(['creditInput', 'expiresAt'], 'The expiry date must be in the future.', 'EXPIRES_AT_IN_PAST');
    }
    const account = this.locate(shop, id, input.creditAmount.currencyCode, true);
    if (!account) return fail(['id'], 'Store credit account does not exist.', 'ACCOUNT_NOT_FOUND');
    if ('userErrors' in account) return account;
    return this.record(account, 'credit', amount, expiresAt);
  }

  debit(shop: string, id: string, input: { debitAmount: MoneyInput }): StoreCreditOutcome {
    const amount = minorOf(input.debitAmount, ['debitInput', 'debitAmount', 'amount']);
    if (typeof amount !== 'number') return amount;
    const account = this.locate(shop, id, input.debitAmount.currencyCode, false);
    if (!account) return fail(['id'], 'Store credit account does not exist.', 'ACCOUNT_NOT_FOUND');
    if ('userErrors' in account) return account;
    if (account.balance < amount) {
      return fail(
        ['debitInput', 'debitAmount', 'amount'],
        'The store credit account does not have sufficient funds.',
        'INSUFFICIENT_FUNDS',
      );
    }
    return this.record(account, 'debit', amount, null);
  }

  /** The account the id names for this currency: an account's own id, or the customer's account in it. */
  private locate(
    shop: string,
    id: string,
    currency: string,
    create: boolean,
  ): SimulatedStoreCreditAccount | StoreCreditOutcome | undefined {
    const { accounts } = this;
    const account = ACCOUNT_GID.exec(id);
    if (account) {
      const found = accounts.find((entry) => entry.shop === shop && entry.id === id);
      if (!found) return fail(['id'], 'Store credit account does not exist.', 'ACCOUNT_NOT_FOUND');
      if (found.currency !== currency) return fail(null, "The currency does not match the account's currency.", 'MISMATCHING_CURRENCY');
      return found;
    }
    const customer = CUSTOMER_GID.exec(id);
    if (!customer || !this.hasCustomer(shop, customer[1]!)) return fail(['id'], 'Owner does not exist.', 'OWNER_NOT_FOUND');
    const found = accounts.find((entry) => entry.shop === shop && entry.customer_id === customer[1] && entry.currency === currency);
    if (found || !create) return found;
    const made: SimulatedStoreCreditAccount = {
      shop,
      id: `gid://shopify/StoreCreditAccount/${this.nextAccountId++}`,
      customer_id: customer[1]!,
      currency,
      balance: 0,
      transactions: [],
    };
    accounts.push(made);
    return made;
  }

  private record(account: SimulatedStoreCreditAccount, kind: 'credit' | 'debit', amount: number, expiresAt: string | null) {
    account.balance += kind === 'credit' ? amount : -amount;
    const transaction: SimulatedStoreCreditTransaction = {
      id: `gid://shopify/StoreCredit${kind === 'credit' ? 'Credit' : 'Debit'}Transaction/${this.nextTransactionId++}`,
      kind,
      amount,
      balance_after: account.balance,
      created_at: this.now().toISOString(),
      expires_at: expiresAt,
    };
    account.transactions.push(transaction);
    this.save();
    return { account, transaction, userErrors: [] as [] };
  }

  // Written whole on every change, as the discount codes are.
  private save() {
    if (!this.accountsFile) return;
    writeFileSync(`${this.accountsFile}.tmp`, JSON.stringify(this.accounts, null, 1));
    renameSync(`${this.accountsFile}.tmp`, this.accountsFile);
  }
}
