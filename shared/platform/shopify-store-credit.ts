// The store-credit half of the Shopify adapter: a credit to (or a debit from) a customer's store credit account,
// in the shop's currency, and the account's latest transactions. Shopify offers no idempotency key for either
// mutation, so each is sent once (transport.requestOnce): after a lost answer the caller looks for its own
// transaction among the account's (docs/decisions.md, "Store credit exactly once").
import {
  PlatformError,
  type StoreCreditDebitInput,
  type StoreCreditInput,
  StoreCreditRefusedError,
  type StoreCreditTransaction,
} from './port';
import { customerGid } from './shopify-ids';
import type { ShopifyTransport } from './shopify-transport';

export const STORE_CREDIT_CREDIT_MUTATION = `mutation CreditStoreCredit($id: ID!, $creditInput: StoreCreditAccountCreditInput!) {
  storeCreditAccountCredit(id: $id, creditInput: $creditInput) {
    storeCreditAccountTransaction { id amount { amount currencyCode } createdAt expiresAt }
    userErrors { field message code }
  }
}`;

export const STORE_CREDIT_DEBIT_MUTATION = `mutation DebitStoreCredit($id: ID!, $debitInput: StoreCreditAccountDebitInput!) {
  storeCreditAccountDebit(id: $id, debitInput: $debitInput) {
    storeCreditAccountTransaction { id amount { amount currencyCode } createdAt }
    userErrors { field message code }
  }
}`;

/** Accounts a customer holds (one per currency) and the latest transactions looked through in each. */
export const STORE_CREDIT_ACCOUNTS_PAGE = 5;
export const STORE_CREDIT_TRANSACTIONS_PAGE = 50;

export const STORE_CREDIT_TRANSACTIONS_QUERY = `query StoreCreditTransactions($id: ID!) {
  customer(id: $id) {
    storeCreditAccounts(first: ${STORE_CREDIT_ACCOUNTS_PAGE}) {
      nodes {
        balance { currencyCode }
        transactions(first: ${STORE_CREDIT_TRANSACTIONS_PAGE}, reverse: true) {
          nodes {
            __typename
            amount { amount currencyCode }
            createdAt
            ... on StoreCreditAccountCreditTransaction { id expiresAt }
            ... on StoreCreditAccountDebitTransaction { id }
          }
        }
      }
    }
  }
}`;

interface Money {
  amount: string;
  currencyCode: string;
}

interface StoreCreditUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

interface TransactionNode {
  __typename?: string;
  id?: string;
  amount: Money;
  createdAt: string;
  expiresAt?: string | null;
}

type MutationPayload = { storeCreditAccountTransaction: TransactionNode | null; userErrors: StoreCreditUserError[] } | null;

interface AccountsData {
  customer: {
    storeCreditAccounts: { nodes: Array<{ balance: { currencyCode: string }; transactions: { nodes: TransactionNode[] } }> };
  } | null;
}

/** Decimal is a string scalar: "5.00" for 5, to the currency's minor unit as the caller rounded it. */
function decimal(amount: number): string {
  return String(Math.round(amount * 1e6) / 1e6);
}

function transactionOf(node: TransactionNode, kind: StoreCreditTransaction['kind']): StoreCreditTransaction {
  return {
    id: node.id ?? '',
    kind,
    amount: node.amount.amount,
    currency: node.amount.currencyCode,
    createdAt: node.createdAt,
    expiresAt: node.expiresAt ?? null,
  };
}

function settled(transport: ShopifyTransport, what: string, payload: MutationPayload, kind: 'credit' | 'debit'): StoreCreditTransaction {
  const userErrors = payload?.userErrors ?? [];
  if (userErrors.length > 0) {
    const described = userErrors
      .map((error) => (error.field?.length ? `${error.field.join('.')}: ${error.message}` : error.message))
      .join('; ');
    throw new StoreCreditRefusedError(
      transport.redact(`Shopify refused the store credit ${what}: ${described}`),
      userErrors[0]?.code ?? null,
    );
  }
  const transaction = payload?.storeCreditAccountTransaction;
  if (!transaction?.id) throw new PlatformError(`Shopify made no store credit ${what} and reported no error`);
  return transactionOf(transaction, kind);
}

export async function creditShopifyStoreCredit(transport: ShopifyTransport, input: StoreCreditInput): Promise<StoreCreditTransaction> {
  const data = await transport.requestOnce<{ storeCreditAccountCredit: MutationPayload }>(
    'creditStoreCredit',
    STORE_CREDIT_CREDIT_MUTATION,
    {
      id: customerGid(input.customerId),
      creditInput: {
        creditAmount: { amount: decimal(input.amount), currencyCode: input.currency },
        ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
      },
    },
  );
  return settled(transport, 'credit', data.storeCreditAccountCredit, 'credit');
}

export async function debitShopifyStoreCredit(transport: ShopifyTransport, input: StoreCreditDebitInput): Promise<StoreCreditTransaction> {
  const data = await transport.requestOnce<{ storeCreditAccountDebit: MutationPayload }>('debitStoreCredit', STORE_CREDIT_DEBIT_MUTATION, {
    id: customerGid(input.customerId),
    debitInput: { debitAmount: { amount: decimal(input.amount), currencyCode: input.currency } },
  });
  return settled(transport, 'debit', data.storeCreditAccountDebit, 'debit');
}

/** The latest transactions of the customer's account in `currency`, newest first; [] for no such customer or account. */
export async function listShopifyStoreCreditTransactions(
  transport: ShopifyTransport,
  customerId: string,
  currency: string,
): Promise<StoreCreditTransaction[]> {
  const data = await transport.request<AccountsData>('listStoreCreditTransactions', STORE_CREDIT_TRANSACTIONS_QUERY, {
    id: customerGid(customerId),
  });
  const account = data.customer?.storeCreditAccounts.nodes.find((node) => node.balance.currencyCode === currency);
  if (!account) return [];
  const kinds: Record<string, StoreCreditTransaction['kind']> = {
    StoreCreditAccountCreditTransaction: 'credit',
    StoreCreditAccountDebitTransaction: 'debit',
  };
  return account.transactions.nodes.map((node) => transactionOf(node, (node.id && kinds[node.__typename ?? '']) || 'other'));
}
