// The discount-code half of the Shopify adapter: a single-use code for one customer, or for any buyer (a
// referred friend's code), eligibility through `context` (which replaced the deprecated `customerSelection`
// in 2025-10); found by its text, deleted by id. An amount or a percentage off the order, and one unit of one
// product variant free, are basic code discounts; free shipping is a free-shipping code discount.
import { type DiscountCode, type DiscountCodeInput, PlatformError } from './port';
import { customerGid, productVariantGid } from './shopify-ids';
import type { ShopifyTransport } from './shopify-transport';

export const DISCOUNT_CODE_CREATE_MUTATION = `mutation CreateDiscountCode($input: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $input) {
    codeDiscountNode { id }
    userErrors { field message code }
  }
}`;

export const FREE_SHIPPING_CODE_CREATE_MUTATION = `mutation CreateFreeShippingCode($input: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input) {
    codeDiscountNode { id }
    userErrors { field message code }
  }
}`;

export const DISCOUNT_CODE_BY_CODE_QUERY = `query FindDiscountCode($code: String!) {
  codeDiscountNodeByCode(code: $code) {
    id
    codeDiscount {
      ... on DiscountCodeBasic { codes(first: 1) { nodes { code } } }
      ... on DiscountCodeFreeShipping { codes(first: 1) { nodes { code } } }
    }
  }
}`;

export const DISCOUNT_CODE_DELETE_MUTATION = `mutation DeleteDiscountCode($id: ID!) {
  discountCodeDelete(id: $id) {
    deletedCodeDiscountId
    userErrors { field message code }
  }
}`;

interface DiscountUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

type CreatePayload = { codeDiscountNode: { id: string } | null; userErrors: DiscountUserError[] } | null;

interface DiscountCodeCreateData {
  discountCodeBasicCreate?: CreatePayload;
  discountCodeFreeShippingCreate?: CreatePayload;
}

interface DiscountCodeByCodeData {
  codeDiscountNodeByCode: {
    id: string;
    codeDiscount: { codes?: { nodes: Array<{ code: string }> } } | null;
  } | null;
}

interface DiscountCodeDeleteData {
  discountCodeDelete: { deletedCodeDiscountId: string | null; userErrors: DiscountUserError[] } | null;
}

function isCodeTaken(errors: DiscountUserError[]): boolean {
  return errors.some((error) => error.code === 'TAKEN' || /must be unique/i.test(error.message));
}

function describeUserErrors(errors: DiscountUserError[]): string {
  return errors.map((error) => (error.field?.length ? `${error.field.join('.')}: ${error.message}` : error.message)).join('; ');
}

/** Decimal is a string scalar: "5.00", never a float that the platform would have to round. */
function decimal(amount: number): string {
  return String(Math.round(amount * 1e6) / 1e6);
}

/** What every code of a port input shares: its text, dates, who may use it (once), and its minimum spend. */
function codeBasics(input: DiscountCodeInput): Record<string, unknown> {
  return {
    title: input.title,
    code: input.code,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    context: input.customerId === null ? { all: 'ALL' } : { customers: { add: [customerGid(input.customerId)] } },
    minimumRequirement: input.minimumSpend > 0 ? { subtotal: { greaterThanOrEqualToSubtotal: decimal(input.minimumSpend) } } : null,
    usageLimit: 1,
    appliesOncePerCustomer: true,
  };
}

/** What the basic code gives: an amount or a percentage off the whole order, or one unit of one variant's price off that variant. */
function customerGets(input: DiscountCodeInput): Record<string, unknown> {
  if (input.discountType === 'free_product') {
    if (!input.productVariantId) throw new PlatformError('A free-product code needs its product variant');
    // An amount of one unit's price, not applied on each item: however many units the cart holds, one is free.
    return {
      value: { discountAmount: { amount: decimal(input.amount), appliesOnEachItem: false } },
      items: { products: { productVariantsToAdd: [productVariantGid(input.productVariantId)] } },
    };
  }
  return {
    value:
      input.discountType === 'fixed'
        ? { discountAmount: { amount: decimal(input.amount), appliesOnEachItem: false } }
        : { percentage: input.amount / 100 },
    items: { all: true },
  };
}

/** The DiscountCodeBasicInput for a port input: usable once, by one customer (or any buyer). */
export function discountCodeBasicInput(input: DiscountCodeInput): Record<string, unknown> {
  return { ...codeBasics(input), customerGets: customerGets(input) };
}

/** The DiscountCodeFreeShippingInput for a `free_shipping` port input: any destination, capped when amount > 0. */
export function discountCodeFreeShippingInput(input: DiscountCodeInput): Record<string, unknown> {
  return {
    ...codeBasics(input),
    destination: { all: true },
    ...(input.amount > 0 ? { maximumShippingPrice: decimal(input.amount) } : {}),
  };
}

export async function findShopifyDiscountCode(transport: ShopifyTransport, code: string): Promise<DiscountCode | null> {
  const data = await transport.request<DiscountCodeByCodeData>('findDiscountCode', DISCOUNT_CODE_BY_CODE_QUERY, { code });
  const node = data.codeDiscountNodeByCode;
  if (!node) return null;
  // Shopify matches codes case-insensitively; report the code as the platform stores it.
  return { id: node.id, code: node.codeDiscount?.codes?.nodes[0]?.code ?? code };
}

export async function createShopifyDiscountCode(transport: ShopifyTransport, input: DiscountCodeInput): Promise<DiscountCode> {
  const freeShipping = input.discountType === 'free_shipping';
  const { data, earlierAttemptMayHaveApplied } = await transport.requestTracked<DiscountCodeCreateData>(
    'createDiscountCode',
    freeShipping ? FREE_SHIPPING_CODE_CREATE_MUTATION : DISCOUNT_CODE_CREATE_MUTATION,
    { input: freeShipping ? discountCodeFreeShippingInput(input) : discountCodeBasicInput(input) },
  );
  const payload = freeShipping ? data.discountCodeFreeShippingCreate : data.discountCodeBasicCreate;
  const userErrors = payload?.userErrors ?? [];
  if (userErrors.length > 0) {
    // The code is deterministic per purchase, so "taken" means an earlier attempt of this very
    // purchase got through: hand back that code instead of failing the retry.
    if (isCodeTaken(userErrors)) {
      const existing = await findShopifyDiscountCode(transport, input.code);
      if (existing) return existing;
    }
    throw new PlatformError(transport.redact(`Shopify refused the discount code: ${describeUserErrors(userErrors)}`), {
      earlierAttemptMayHaveApplied,
    });
  }
  const node = payload?.codeDiscountNode;
  if (!node) throw new PlatformError('Shopify created no discount code and reported no error');
  return { id: node.id, code: input.code };
}

export async function deleteShopifyDiscountCode(transport: ShopifyTransport, id: string): Promise<void> {
  const data = await transport.request<DiscountCodeDeleteData>('deleteDiscountCode', DISCOUNT_CODE_DELETE_MUTATION, { id });
  const userErrors = data.discountCodeDelete?.userErrors ?? [];
  if (userErrors.length > 0) {
    throw new PlatformError(transport.redact(`Shopify refused to delete the discount code: ${describeUserErrors(userErrors)}`));
  }
}
