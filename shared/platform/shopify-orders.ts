// The order half of the Shopify adapter: the orders changed since a watermark, a page at a time, for
// order reconciliation, mapped to the platform-neutral PlatformOrder that webhooks produce too. The eligible
// amount needs every line (taxes, gift cards) and every refunded line: what a page does not hold is read
// by follow-up queries for the order's lines, its refunds and their lines.
import { type EligibleLine, type EligibleRefundLine, eligibleAmounts } from './eligible-amount';
import { landingSitePath } from './landing-site';
import type { OrderPage, PlatformOrder } from './port';
import { idFromGid } from './shopify-ids';
import type { ShopifyTransport } from './shopify-transport';

/**
 * Orders per page and the lines each carries inline. Shopify prices a query before running it by what it may
 * return (objects 1 point, a connection 2 plus `first` times its node, nested connections multiplied) and
 * refuses one priced over 1 000 points; refunded lines would multiply the price of every order, so a page
 * only says whether an order has refunds, and follow-up queries read the lines and refunds a page does not
 * hold. test/unit/admin-query-cost.test.ts prices every document by those rules.
 */
export const ORDERS_PAGE_SIZE = 10;
const LINES_INLINE = 5;
/** Lines per follow-up page (one order's or one refund's lines only). */
export const LINES_PAGE = 50;
/** Order adjustments read with each refund, and per follow-up page of one refund's adjustments. */
export const ADJUSTMENTS_PAGE = 10;

const MONEY = 'shopMoney { amount }';
const LINE_FIELDS = `isGiftCard quantity originalUnitPriceSet { ${MONEY} } discountAllocations { allocatedAmountSet { ${MONEY} } } taxLines { priceSet { ${MONEY} } }`;
const REFUND_LINE_FIELDS = `subtotalSet { ${MONEY} } totalTaxSet { ${MONEY} } lineItem { isGiftCard }`;
const ADJUSTMENT_FIELDS = `amountSet { ${MONEY} }`;

export const ORDERS_UPDATED_SINCE_QUERY = `query OrdersUpdatedSince($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes {
      id
      legacyResourceId
      name
      createdAt
      processedAt
      updatedAt
      cancelledAt
      test
      sourceName
      taxesIncluded
      displayFinancialStatus
      discountCodes
      customer { id }
      subtotalPriceSet { shopMoney { amount currencyCode } }
      currentSubtotalPriceSet { shopMoney { amount currencyCode } }
      customAttributes { key value }
      customerJourneySummary { firstVisit { landingPage referralCode } lastVisit { landingPage referralCode } }
      lineItems(first: ${LINES_INLINE}) { nodes { ${LINE_FIELDS} } pageInfo { hasNextPage endCursor } }
      refunds(first: 1) { id }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const ORDER_LINE_ITEMS_QUERY = `query OrderLineItems($id: ID!, $first: Int!, $after: String) {
  order(id: $id) {
    lineItems(first: $first, after: $after) { nodes { ${LINE_FIELDS} } pageInfo { hasNextPage endCursor } }
  }
}`;

/**
 * Every refund of the order, known by its id, with its order adjustments: in the Admin API 2026-10 an
 * `OrderAdjustment` is the difference between a refund's calculated and actual amount (Shopify's REST
 * `refund_discrepancy`; a refunded shipping line is a `refundShippingLines` entry, not an adjustment).
 */
export const ORDER_REFUNDS_QUERY = `query OrderRefunds($id: ID!) {
  order(id: $id) {
    refunds {
      id
      orderAdjustments(first: ${ADJUSTMENTS_PAGE}) { nodes { ${ADJUSTMENT_FIELDS} } pageInfo { hasNextPage endCursor } }
    }
  }
}`;

export const REFUND_ADJUSTMENTS_QUERY = `query RefundAdjustments($id: ID!, $first: Int!, $after: String) {
  refund(id: $id) {
    orderAdjustments(first: $first, after: $after) { nodes { ${ADJUSTMENT_FIELDS} } pageInfo { hasNextPage endCursor } }
  }
}`;

export const REFUND_LINE_ITEMS_QUERY = `query RefundLineItems($id: ID!, $first: Int!, $after: String) {
  refund(id: $id) {
    refundLineItems(first: $first, after: $after) { nodes { ${REFUND_LINE_FIELDS} } pageInfo { hasNextPage endCursor } }
  }
}`;

interface Money {
  shopMoney: { amount: string };
}

interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface ShopifyLineNode {
  isGiftCard: boolean;
  quantity: number;
  originalUnitPriceSet: Money;
  discountAllocations: Array<{ allocatedAmountSet: Money }>;
  taxLines: Array<{ priceSet: Money }>;
}

export interface ShopifyRefundLineNode {
  subtotalSet: Money;
  totalTaxSet: Money;
  lineItem: { isGiftCard: boolean };
}

export interface ShopifyOrderAdjustmentNode {
  amountSet: Money;
}

/** One refund of an order, complete: its id (a gid), lines and order adjustments. */
export interface CompleteShopifyRefund {
  id: string;
  lines: ShopifyRefundLineNode[];
  adjustments: ShopifyOrderAdjustmentNode[];
}

interface Connection<T> {
  nodes: T[];
  pageInfo: PageInfo;
}

export interface ShopifyOrderNode {
  id: string;
  legacyResourceId: string;
  name: string;
  createdAt: string;
  processedAt: string | null;
  updatedAt: string;
  cancelledAt: string | null;
  test: boolean;
  /** The channel (`web`, `pos`...); absent from an older answer. */
  sourceName?: string | null;
  taxesIncluded: boolean;
  displayFinancialStatus: string | null;
  discountCodes: string[];
  customer: { id: string } | null;
  subtotalPriceSet: { shopMoney: { amount: string; currencyCode: string } } | null;
  currentSubtotalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  customAttributes: Array<{ key: string; value: string | null }>;
  customerJourneySummary: {
    firstVisit: { landingPage: string | null; referralCode: string | null } | null;
    lastVisit: { landingPage: string | null; referralCode: string | null } | null;
  } | null;
  lineItems: Connection<ShopifyLineNode>;
  /** The first refund only: whether there are any. */
  refunds: Array<{ id: string }>;
}

/** An order whose lines and refunds are all in hand, as the follow-up queries complete it. */
export interface CompleteShopifyOrder {
  node: ShopifyOrderNode;
  lines: ShopifyLineNode[];
  refunds: CompleteShopifyRefund[];
}

interface OrdersData {
  orders: Connection<ShopifyOrderNode>;
}

function eligibleLine(line: ShopifyLineNode): EligibleLine {
  return {
    giftCard: line.isGiftCard,
    unitPrice: line.originalUnitPriceSet.shopMoney.amount,
    quantity: line.quantity,
    discounts: line.discountAllocations.map((discount) => discount.allocatedAmountSet.shopMoney.amount),
    taxes: line.taxLines.map((tax) => tax.priceSet.shopMoney.amount),
  };
}

function eligibleRefundLine(line: ShopifyRefundLineNode): EligibleRefundLine {
  return { giftCard: line.lineItem.isGiftCard, subtotal: line.subtotalSet.shopMoney.amount, tax: line.totalTaxSet.shopMoney.amount };
}

/**
 * One GraphQL order, its lines and refunds complete, as a PlatformOrder: the same eligible amount and the
 * same refunds by id as its webhook gives. The landing page and the referral code Shopify recorded (REST's `landing_site_ref`; the
 * deprecated `Order.referralCode` points here) are the first visit's (first touch credits a referral link)
 * or else the last one's.
 */
export function orderFromGraphql({ node, lines, refunds }: CompleteShopifyOrder): PlatformOrder {
  const current = node.currentSubtotalPriceSet.shopMoney;
  const { eligible, refunded, taken } = eligibleAmounts({
    subtotal: node.subtotalPriceSet?.shopMoney.amount ?? current.amount,
    taxesIncluded: node.taxesIncluded,
    lines: lines.map(eligibleLine),
    refunds: refunds.map((refund) => ({
      lines: refund.lines.map(eligibleRefundLine),
      discrepancies: refund.adjustments.map((adjustment) => adjustment.amountSet.shopMoney.amount),
    })),
    currentSubtotal: current.amount,
  });
  const journey = node.customerJourneySummary;
  return {
    id: node.legacyResourceId,
    name: node.name,
    customerId: node.customer ? idFromGid(node.customer.id) : null,
    eligibleSubtotal: eligible,
    refundedEligible: refunded,
    refunds: refunds.map((refund, index) => ({ id: idFromGid(refund.id), taken: taken![index]! })),
    taxesIncluded: node.taxesIncluded,
    currency: current.currencyCode,
    processedAt: new Date(node.processedAt ?? node.createdAt).toISOString(),
    updatedAt: new Date(node.updatedAt).toISOString(),
    cancelledAt: node.cancelledAt ? new Date(node.cancelledAt).toISOString() : null,
    discountCodes: node.discountCodes,
    landingSite: landingSitePath(journey?.firstVisit?.landingPage ?? journey?.lastVisit?.landingPage),
    referralCode: (journey?.firstVisit?.referralCode ?? journey?.lastVisit?.referralCode)?.trim() || null,
    noteAttributes: node.customAttributes.map((attribute) => ({ name: attribute.key, value: attribute.value ?? '' })),
    financialStatus: node.displayFinancialStatus ? node.displayFinancialStatus.toLowerCase() : null,
    test: node.test,
    sourceName: node.sourceName?.trim() || null,
  };
}

/** Shopify's search syntax wants the timestamp quoted; an unparsable one is a caller's bug, not a platform error. */
export function updatedSinceFilter(since: string): string {
  if (Number.isNaN(Date.parse(since)) || since.includes("'")) throw new Error(`'${since}' is not an ISO 8601 timestamp`);
  return `updated_at:>='${since}'`;
}

const NO_MORE = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };

/** The rest of a connection after its first page, read page by page. */
async function remaining<T>(first: Connection<T>, nextPage: (after: string) => Promise<Connection<T>>): Promise<T[]> {
  const nodes = [...first.nodes];
  let page = first.pageInfo;
  while (page.hasNextPage && page.endCursor) {
    const next = await nextPage(page.endCursor);
    nodes.push(...next.nodes);
    page = next.pageInfo;
  }
  return nodes;
}

/**
 * Reads what the page does not hold: the rest of the lines, and every refund with its adjustments and lines.
 * A refund created after the order's `updatedAt` on the page (made between the page and this read) counts
 * too: a refund is known by its id, so its own refunds/create, or the next run, changes nothing more.
 */
async function completeOrder(transport: ShopifyTransport, node: ShopifyOrderNode): Promise<CompleteShopifyOrder> {
  const lines = await remaining(node.lineItems, async (after) => {
    const data = await transport.request<{ order: { lineItems: Connection<ShopifyLineNode> } | null }>(
      'orderLineItems',
      ORDER_LINE_ITEMS_QUERY,
      { id: node.id, first: LINES_PAGE, after },
    );
    return data.order?.lineItems ?? NO_MORE;
  });
  const refunds: CompleteShopifyRefund[] = [];
  if (node.refunds.length > 0) {
    const data = await transport.request<{
      order: { refunds: Array<{ id: string; orderAdjustments: Connection<ShopifyOrderAdjustmentNode> }> } | null;
    }>('orderRefunds', ORDER_REFUNDS_QUERY, { id: node.id });
    for (const refund of data.order?.refunds ?? []) {
      const adjustments = await remaining(refund.orderAdjustments, async (after) => {
        const page = await transport.request<{ refund: { orderAdjustments: Connection<ShopifyOrderAdjustmentNode> } | null }>(
          'refundAdjustments',
          REFUND_ADJUSTMENTS_QUERY,
          { id: refund.id, first: ADJUSTMENTS_PAGE, after },
        );
        return page.refund?.orderAdjustments ?? NO_MORE;
      });
      const readPage = async (after: string | null) => {
        const page = await transport.request<{ refund: { refundLineItems: Connection<ShopifyRefundLineNode> } | null }>(
          'refundLineItems',
          REFUND_LINE_ITEMS_QUERY,
          { id: refund.id, first: LINES_PAGE, after },
        );
        return page.refund?.refundLineItems ?? NO_MORE;
      };
      refunds.push({ id: refund.id, lines: await remaining(await readPage(null), readPage), adjustments });
    }
  }
  return { node, lines, refunds };
}

export async function listShopifyOrdersUpdatedSince(
  transport: ShopifyTransport,
  since: string,
  cursor: string | null = null,
  pageSize = ORDERS_PAGE_SIZE,
): Promise<OrderPage> {
  const data = await transport.request<OrdersData>('listOrdersUpdatedSince', ORDERS_UPDATED_SINCE_QUERY, {
    first: pageSize,
    after: cursor,
    query: updatedSinceFilter(since),
  });
  const { nodes, pageInfo } = data.orders;
  const orders: PlatformOrder[] = [];
  for (const node of nodes) orders.push(orderFromGraphql(await completeOrder(transport, node)));
  return { orders, nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null };
}
