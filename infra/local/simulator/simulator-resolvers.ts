// The simulator's answers to the Admin GraphQL subset: root resolvers over the simulated customers, discount
// codes and orders, and the GraphQL views of them (graphql's default resolvers walk the rest).
import { GraphQLError } from 'graphql';
import { formatMinorUnits } from '../../../shared/domain/money';
import { customerGid, idFromGid } from '../../../shared/platform/shopify-ids';
import { matchesDateFilter, parseOrderSearchQuery } from './order-search-query';
import type {
  BasicCodeInput,
  DiscountUserError,
  FreeShippingCodeInput,
  SimulatedDiscountCode,
  SimulatedDiscountCodes,
} from './simulated-discount-codes';
import type {
  MoneyInput,
  SimulatedStoreCredit,
  SimulatedStoreCreditAccount,
  SimulatedStoreCreditTransaction,
} from './simulated-store-credit';
import {
  financialStatus,
  recordedReferralCode,
  refundedMinor,
  refundMoneyMinor,
  refundedMoneyMinor,
  type SimulatedCustomer,
  type SimulatedLine,
  type SimulatedOrder,
  type SimulatedOrders,
  type SimulatedRefund,
} from './simulated-orders';
import type { SimulatedShops } from './simulated-shops';
import type { FaultModes } from './simulator-faults';

export interface ResolverContext {
  shop: string;
  faults: FaultModes;
}

export interface ResolverDeps {
  shops: SimulatedShops;
  codes: SimulatedDiscountCodes;
  orders: SimulatedOrders;
  storeCredit: SimulatedStoreCredit;
}

/** Shopify's connection limit: `first` above 250 is refused. */
const MAX_PAGE = 250;
const INTERNAL_USER_ERROR: DiscountUserError = { field: null, message: 'Internal error', code: 'INTERNAL_ERROR' };

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } });
}

function moneyBag(minor: number, currency: string) {
  const money = { amount: formatMinorUnits(minor, currency), currencyCode: currency };
  return { shopMoney: money, presentmentMoney: money };
}

function moneyV2(minor: number, currency: string) {
  return { amount: formatMinorUnits(minor, currency), currencyCode: currency };
}

function storeCreditTransactionView(account: SimulatedStoreCreditAccount, transaction: SimulatedStoreCreditTransaction): object {
  return {
    __typename: transaction.kind === 'credit' ? 'StoreCreditAccountCreditTransaction' : 'StoreCreditAccountDebitTransaction',
    id: transaction.id,
    // Shopify gives a debit's amount as a negative figure.
    amount: moneyV2(transaction.kind === 'credit' ? transaction.amount : -transaction.amount, account.currency),
    balanceAfterTransaction: moneyV2(transaction.balance_after, account.currency),
    createdAt: transaction.created_at,
    expiresAt: transaction.expires_at,
    account: () => storeCreditAccountView(account),
  };
}

function storeCreditAccountView(account: SimulatedStoreCreditAccount): object {
  return {
    id: account.id,
    balance: moneyV2(account.balance, account.currency),
    // By creation, oldest first; `reverse: true` lists the newest first.
    transactions: (args: PageArgs & { reverse?: boolean | null }) =>
      listPage(args.reverse ? [...account.transactions].reverse() : account.transactions, args, (transaction) =>
        storeCreditTransactionView(account, transaction),
      ),
  };
}

function customerView(customer: SimulatedCustomer, storeCredit?: { deps: ResolverDeps; shop: string }) {
  return {
    __typename: 'Customer',
    id: customerGid(customer.id),
    legacyResourceId: customer.id,
    firstName: customer.first_name || null,
    lastName: customer.last_name || null,
    createdAt: customer.created_at,
    defaultEmailAddress: customer.email ? { emailAddress: customer.email } : null,
    storeCreditAccounts: (args: PageArgs) =>
      listPage(storeCredit ? storeCredit.deps.storeCredit.accounts(storeCredit.shop, customer.id) : [], args, storeCreditAccountView),
  };
}

function codeNodeView(entry: SimulatedDiscountCode, currency: string) {
  return {
    id: entry.id,
    codeDiscount: {
      __typename: entry.kind === 'free_shipping' ? 'DiscountCodeFreeShipping' : 'DiscountCodeBasic',
      title: entry.title,
      startsAt: entry.starts_at ?? entry.created_at,
      endsAt: entry.ends_at,
      usageLimit: entry.usage_limit,
      appliesOncePerCustomer: entry.applies_once_per_customer,
      maximumShippingPrice: entry.cap === null ? null : { amount: entry.cap.toFixed(2), currencyCode: currency },
      codes: () => ({
        nodes: [{ id: `gid://shopify/DiscountRedeemCode/${idFromGid(entry.id)}`, code: entry.code }],
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      }),
    },
  };
}

/** The session that brought the buyer, as the customer journey reports it: a full URL on the shop's domain. */
function visitView(order: SimulatedOrder, domain: string) {
  const referralCode = recordedReferralCode(order);
  if (order.landingSite === null && referralCode === null) return null;
  return {
    id: `gid://shopify/CustomerVisit/${order.id}`,
    landingPage: order.landingSite === null ? null : new URL(order.landingSite, `https://${domain}`).href,
    occurredAt: order.createdAt,
    referralCode,
    referrerUrl: null,
  };
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** A page of a list read by position (line items, refund line items): the cursor is the item's index. */
function listPage<T, V>(items: readonly T[], args: PageArgs, view: (item: T) => V) {
  const first = args.first;
  if (first === null || first === undefined) throw badRequest('you must provide one of first or last');
  if (first < 0 || first > MAX_PAGE) throw badRequest(`The value of first must be between 0 and ${MAX_PAGE}`);
  const start = args.after ? decodeIndexCursor(args.after) + 1 : 0;
  const page = items.slice(start, start + first);
  const cursorOf = (offset: number) => encodeIndexCursor(start + offset);
  return {
    nodes: page.map(view),
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length > 0 ? cursorOf(0) : null,
      endCursor: page.length > 0 ? cursorOf(page.length - 1) : null,
    },
  };
}

function encodeIndexCursor(index: number): string {
  return Buffer.from(JSON.stringify({ i: index })).toString('base64url');
}

function decodeIndexCursor(text: string): number {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { i?: unknown };
    if (typeof cursor.i === 'number' && Number.isSafeInteger(cursor.i) && cursor.i >= 0) return cursor.i;
  } catch {
    // reported below
  }
  throw badRequest(`Invalid cursor '${text}'`);
}

/** A list field's optional `first` (taxLines, refunds): at most that many, all without it. */
function firstOf<T>(items: readonly T[], first: number | null | undefined): readonly T[] {
  if (first !== null && first !== undefined && (first < 0 || first > MAX_PAGE)) {
    throw badRequest(`The value of first must be between 0 and ${MAX_PAGE}`);
  }
  return items.slice(0, first ?? undefined);
}

function lineView(line: SimulatedLine, currency: string) {
  return {
    isGiftCard: line.giftCard,
    quantity: line.quantity,
    originalUnitPriceSet: moneyBag(line.price, currency),
    discountAllocations: line.discount > 0 ? [{ allocatedAmountSet: moneyBag(line.discount, currency) }] : [],
    taxLines: ({ first }: { first?: number | null }) => firstOf(line.tax > 0 ? [{ priceSet: moneyBag(line.tax, currency) }] : [], first),
  };
}

function refundView(order: SimulatedOrder, refund: SimulatedRefund) {
  const { currency } = order;
  return {
    id: `gid://shopify/Refund/${refund.id}`,
    legacyResourceId: String(refund.id),
    createdAt: refund.createdAt,
    note: null,
    totalRefundedSet: moneyBag(refundMoneyMinor(order, refund), currency),
    refundLineItems: (args: PageArgs) =>
      listPage(refund.lines, args, (refundLine) => ({
        subtotalSet: moneyBag(refundLine.subtotal, currency),
        totalTaxSet: moneyBag(refundLine.tax, currency),
        lineItem: lineView(order.lines[refundLine.lineIndex]!, currency),
      })),
    orderAdjustments: (args: PageArgs) =>
      listPage(refund.adjustments, args, (adjustment) => ({
        id: `gid://shopify/OrderAdjustment/${adjustment.id}`,
        amountSet: moneyBag(adjustment.amount, currency),
        taxAmountSet: moneyBag(0, currency),
        reason: 'REFUND_DISCREPANCY',
      })),
  };
}

function orderView(order: SimulatedOrder, domain: string) {
  const { currency } = order;
  const refunded = refundedMinor(order);
  const visit = visitView(order, domain);
  return {
    id: `gid://shopify/Order/${order.id}`,
    legacyResourceId: String(order.id),
    name: order.name,
    createdAt: order.createdAt,
    processedAt: order.processedAt,
    updatedAt: order.updatedAt,
    cancelledAt: order.cancelledAt,
    cancelReason: order.cancelReason?.toUpperCase() ?? null,
    currencyCode: currency,
    customer: order.customer ? customerView(order.customer) : null,
    note: null,
    test: order.test,
    sourceName: order.sourceName,
    taxesIncluded: order.taxesIncluded,
    subtotalPriceSet: moneyBag(order.subtotal, currency),
    currentSubtotalPriceSet: moneyBag(order.subtotal - refunded, currency),
    totalPriceSet: moneyBag(order.total, currency),
    totalRefundedSet: moneyBag(refundedMoneyMinor(order), currency),
    discountCodes: order.discountCodes,
    customAttributes: order.noteAttributes.map((attribute) => ({ key: attribute.name, value: attribute.value })),
    displayFinancialStatus: financialStatus(order).toUpperCase(),
    customerJourneySummary: {
      customerOrderIndex: null,
      daysToConversion: visit ? 0 : null,
      firstVisit: visit,
      lastVisit: visit,
      ready: true,
    },
    lineItems: (args: PageArgs) => listPage(order.lines, args, (line) => lineView(line, currency)),
    refunds: ({ first }: { first?: number | null }) => firstOf(order.refunds, first).map((refund) => refundView(order, refund)),
  };
}

const SORT_KEYS: Record<string, (order: SimulatedOrder) => number> = {
  UPDATED_AT: (order) => Date.parse(order.updatedAt),
  CREATED_AT: (order) => Date.parse(order.createdAt),
  PROCESSED_AT: (order) => Date.parse(order.processedAt),
  ID: (order) => order.id,
};

interface Cursor {
  k: number;
  id: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof cursor.k === 'number' && typeof cursor.id === 'number') return cursor;
  } catch {
    // reported below
  }
  throw badRequest(`Invalid cursor '${text}'`);
}

interface OrdersArgs {
  first?: number | null;
  after?: string | null;
  query?: string | null;
  reverse?: boolean | null;
  sortKey?: string | null;
}

/**
 * The `orders` connection. Pages are cut by keyset (sort value, then id), so an order created or updated
 * between two page reads moves within the list without making the next page skip or repeat another.
 */
function ordersConnection(deps: ResolverDeps, shop: string, args: OrdersArgs) {
  const first = args.first;
  if (first === null || first === undefined) throw badRequest('you must provide one of first or last');
  if (first < 0 || first > MAX_PAGE) throw badRequest(`The value of first must be between 0 and ${MAX_PAGE}`);
  const filters = parseOrderSearchQuery(args.query);
  if (typeof filters === 'string') throw badRequest(filters);
  const sortKey = args.sortKey ?? 'PROCESSED_AT';
  const keyOf = SORT_KEYS[sortKey];
  if (!keyOf) throw badRequest(`The platform simulator does not sort orders by ${sortKey}`);
  const direction = args.reverse ? -1 : 1;
  const compare = (a: Cursor, b: Cursor) => direction * (a.k - b.k || a.id - b.id);
  const positionOf = (order: SimulatedOrder): Cursor => ({ k: keyOf(order), id: order.id });

  const matching = deps.orders
    .list(shop)
    .filter((order) => filters.every((filter) => matchesDateFilter(order[fieldOf(filter.field)], filter)))
    .sort((a, b) => compare(positionOf(a), positionOf(b)));
  const after = args.after ? decodeCursor(args.after) : null;
  const start = after ? indexAfter(matching, (order) => compare(positionOf(order), after) > 0) : 0;
  const page = matching.slice(start, start + first);
  const domain = deps.shops.identity(shop).domain;
  const edges = page.map((order) => ({ cursor: encodeCursor(positionOf(order)), node: orderView(order, domain) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: start + page.length < matching.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

function fieldOf(field: 'updated_at' | 'created_at' | 'processed_at'): 'updatedAt' | 'createdAt' | 'processedAt' {
  return field === 'updated_at' ? 'updatedAt' : field === 'created_at' ? 'createdAt' : 'processedAt';
}

function indexAfter<T>(items: T[], isAfter: (item: T) => boolean): number {
  const index = items.findIndex(isAfter);
  return index < 0 ? items.length : index;
}

/** The numeric id of a global id of the given type; another type's id is refused as Shopify refuses it. */
function numericIdOf(id: string, type: string): string {
  const prefix = `gid://shopify/${type}/`;
  if (!id.startsWith(prefix) || !/^\d+$/.test(id.slice(prefix.length))) {
    throw new GraphQLError(`Invalid global id '${id}'`, { extensions: { code: 'argumentLiteralsIncompatible' } });
  }
  return id.slice(prefix.length);
}

/**
 * The `customers` search of the import's lookups: `email:"a@example.com" OR email:b@example.com`, compared
 * whole and case-insensitively (Shopify tokenizes the address and may answer more; the adapter keeps exact
 * matches only). Any other filter is refused, as the simulator does not search by it.
 */
export function parseCustomerEmailQuery(query: string | null | undefined): string[] | string {
  if (query === null || query === undefined || query.trim() === '') return [];
  const emails: string[] = [];
  const term = /^\s*email:(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))\s*/;
  let rest = query;
  for (;;) {
    const match = term.exec(rest);
    if (!match) return `The platform simulator searches customers by email:"..." terms joined by OR only, not '${query}'`;
    emails.push((match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!).toLowerCase());
    rest = rest.slice(match[0].length);
    if (rest === '') return emails;
    const or = /^OR\s+/.exec(rest);
    if (!or) return `The platform simulator searches customers by email:"..." terms joined by OR only, not '${query}'`;
    rest = rest.slice(or[0].length);
  }
}

/** The root value: graphql calls each field's function with its arguments and the request's context. */
export function createRootValue(deps: ResolverDeps) {
  return { ...queryFields(deps), ...mutationFields(deps) };
}

/** The root fields of the QueryRoot the simulator serves. */
function queryFields(deps: ResolverDeps) {
  return {
    customer({ id }: { id: string }, context: ResolverContext) {
      if (!id.startsWith('gid://shopify/Customer/')) {
        throw new GraphQLError(`Invalid global id '${id}'`, { extensions: { code: 'argumentLiteralsIncompatible' } });
      }
      const customer = deps.shops.customer(context.shop, idFromGid(id));
      return customer ? customerView(customer, { deps, shop: context.shop }) : null;
    },

    customers(args: PageArgs & { query?: string | null }, context: ResolverContext) {
      const emails = parseCustomerEmailQuery(args.query);
      if (typeof emails === 'string') throw badRequest(emails);
      const all = deps.shops.customers(context.shop);
      const wanted = new Set(emails);
      const matching = emails.length === 0 ? all : all.filter((customer) => wanted.has(customer.email.trim().toLowerCase()));
      return listPage(matching, args, (customer) => customerView(customer, { deps, shop: context.shop }));
    },

    // Ids the shop has no customer for (another type's, another shop's) answer null, as Shopify's do.
    nodes({ ids }: { ids: string[] }, context: ResolverContext) {
      if (ids.length > MAX_PAGE) throw badRequest(`The ids argument accepts at most ${MAX_PAGE} ids`);
      return ids.map((id) => {
        const match = /^gid:\/\/shopify\/Customer\/(\d+)$/.exec(id);
        const customer = match ? deps.shops.customer(context.shop, match[1]!) : undefined;
        return customer ? customerView(customer, { deps, shop: context.shop }) : null;
      });
    },

    codeDiscountNodeByCode({ code }: { code: string }, context: ResolverContext) {
      const entry = deps.codes.find(context.shop, code);
      return entry ? codeNodeView(entry, deps.shops.currency(context.shop)) : null;
    },

    orders(args: OrdersArgs, context: ResolverContext) {
      return ordersConnection(deps, context.shop, args);
    },

    // Another shop's order or refund is not there for this one.
    order({ id }: { id: string }, context: ResolverContext) {
      const order = deps.orders.find(numericIdOf(id, 'Order'));
      return order?.shop === context.shop ? orderView(order, deps.shops.identity(context.shop).domain) : null;
    },

    refund({ id }: { id: string }, context: ResolverContext) {
      const found = deps.orders.findRefund(numericIdOf(id, 'Refund'));
      return found?.order.shop === context.shop ? refundView(found.order, found.refund) : null;
    },
  };
}

/** The root fields of the Mutation the simulator serves. */
function mutationFields(deps: ResolverDeps) {
  return {
    // Shopify reports a failed mutation in its payload's userErrors, not as a top-level error.
    discountCodeBasicCreate({ basicCodeDiscount }: { basicCodeDiscount: BasicCodeInput }, context: ResolverContext) {
      if (context.faults.discount_codes === 'error') return { codeDiscountNode: null, userErrors: [INTERNAL_USER_ERROR] };
      const outcome = deps.codes.create(context.shop, basicCodeDiscount);
      const entry = outcome.id === null ? undefined : deps.codes.find(context.shop, basicCodeDiscount.code ?? '');
      return { codeDiscountNode: entry ? codeNodeView(entry, deps.shops.currency(context.shop)) : null, userErrors: outcome.userErrors };
    },

    discountCodeFreeShippingCreate(
      { freeShippingCodeDiscount }: { freeShippingCodeDiscount: FreeShippingCodeInput },
      context: ResolverContext,
    ) {
      if (context.faults.discount_codes === 'error') return { codeDiscountNode: null, userErrors: [INTERNAL_USER_ERROR] };
      const outcome = deps.codes.createFreeShipping(context.shop, freeShippingCodeDiscount);
      const entry = outcome.id === null ? undefined : deps.codes.find(context.shop, freeShippingCodeDiscount.code ?? '');
      return { codeDiscountNode: entry ? codeNodeView(entry, deps.shops.currency(context.shop)) : null, userErrors: outcome.userErrors };
    },

    // The store_credit fault's error, unreachable and lost_answer are the endpoint's (simulator-graphql.ts).
    storeCreditAccountCredit(
      { id, creditInput }: { id: string; creditInput: { creditAmount: MoneyInput; expiresAt?: string | null } },
      context: ResolverContext,
    ) {
      const outcome = deps.storeCredit.credit(context.shop, id, creditInput);
      return {
        storeCreditAccountTransaction: outcome.account ? storeCreditTransactionView(outcome.account, outcome.transaction) : null,
        userErrors: outcome.userErrors,
      };
    },

    storeCreditAccountDebit({ id, debitInput }: { id: string; debitInput: { debitAmount: MoneyInput } }, context: ResolverContext) {
      const outcome = deps.storeCredit.debit(context.shop, id, debitInput);
      return {
        storeCreditAccountTransaction: outcome.account ? storeCreditTransactionView(outcome.account, outcome.transaction) : null,
        userErrors: outcome.userErrors,
      };
    },

    discountCodeDelete({ id }: { id: string }, context: ResolverContext) {
      if (context.faults.discount_codes === 'error') return { deletedCodeDiscountId: null, userErrors: [INTERNAL_USER_ERROR] };
      const outcome = deps.codes.delete(context.shop, id);
      return { deletedCodeDiscountId: outcome.id, userErrors: outcome.userErrors };
    },
  };
}
