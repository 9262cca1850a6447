// The discount codes the simulator holds, per shop: created, found by their text (case-insensitively, as
// Shopify matches them) and deleted, with the user errors Shopify gives for a blank, taken or untargeted code.
// Four kinds: a basic code of an amount or a percentage off the order, a basic code of an amount off one product
// variant (worth one unit: the loyalty program's free product), and a free-shipping code with an optional cap.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { idFromGid } from '../../../shared/platform/shopify-ids';

export interface SimulatedDiscountCode {
  shop: string;
  id: string;
  code: string;
  /** The one customer who may use it; null for any buyer (a referred friend's code). */
  customer_id: string | null;
  /** The amount off (fixed, free_product), the percentage (0-100), or 0 for free shipping. */
  amount: number;
  /** How the value is given: an amount (fixed, free_product and free_shipping codes) or a percentage. */
  type: 'fixed' | 'percentage';
  kind: DiscountCodeKind;
  /** free_product: the numeric id of the one product variant the code applies to; null for the other kinds. */
  product_variant_id: string | null;
  /** free_shipping: the highest shipping price the code covers (`maximumShippingPrice`); null when any price. */
  cap: number | null;
  usage_limit: number | null;
  applies_once_per_customer: boolean;
  minimum_spend: number;
  ends_at: string | null;
  starts_at: string | null;
  title: string;
  created_at: string;
}

export type DiscountCodeKind = 'fixed' | 'percentage' | 'free_shipping' | 'free_product';

export interface DiscountUserError {
  field: string[] | null;
  message: string;
  code: string;
}

/** What DiscountCodeBasicInput and DiscountCodeFreeShippingInput share, as the schema lets it through. */
interface CodeInputCommon {
  code?: string | null;
  title?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
  usageLimit?: number | null;
  appliesOncePerCustomer?: boolean | null;
  context?: { customers?: { add?: string[] | null } | null; all?: string | null } | null;
  minimumRequirement?: { subtotal?: { greaterThanOrEqualToSubtotal?: string | null } | null } | null;
}

/** DiscountCodeBasicInput as the schema lets it through; every field may be absent. */
export interface BasicCodeInput extends CodeInputCommon {
  customerGets?: {
    items?: { all?: boolean | null; products?: { productVariantsToAdd?: string[] | null } | null } | null;
    value?: { discountAmount?: { amount?: string | null; appliesOnEachItem?: boolean | null } | null; percentage?: number | null } | null;
  } | null;
}

/** DiscountCodeFreeShippingInput as the schema lets it through. */
export interface FreeShippingCodeInput extends CodeInputCommon {
  maximumShippingPrice?: string | null;
}

export type CreateOutcome = { id: string; userErrors: [] } | { id: null; userErrors: DiscountUserError[] };

export interface SimulatedDiscountCodes {
  create(shop: string, input: BasicCodeInput): CreateOutcome;
  createFreeShipping(shop: string, input: FreeShippingCodeInput): CreateOutcome;
  find(shop: string, code: string): SimulatedDiscountCode | undefined;
  /** The deleted code's id, or the user error Shopify gives for an unknown one. */
  delete(shop: string, id: string): { id: string; userErrors: [] } | { id: null; userErrors: DiscountUserError[] };
  list(): SimulatedDiscountCode[];
}

const CUSTOMER_GID = 'gid://shopify/Customer/';
const VARIANT_GID = /^gid:\/\/shopify\/ProductVariant\/(\d+)$/;

/** The codes a previous run left in the file; none when there is no file yet. */
function readCodes(file: string): SimulatedDiscountCode[] {
  if (!existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file} does not hold a list of discount codes; move it away to start afresh`);
  // Codes written before the other kinds existed are basic codes, one use per customer.
  return (parsed as Array<Partial<SimulatedDiscountCode> & Pick<SimulatedDiscountCode, 'type'>>).map((entry) => ({
    ...entry,
    kind: entry.kind ?? entry.type,
    product_variant_id: entry.product_variant_id ?? null,
    cap: entry.cap ?? null,
    usage_limit: entry.usage_limit === undefined ? 1 : entry.usage_limit,
    applies_once_per_customer: entry.applies_once_per_customer ?? true,
  })) as SimulatedDiscountCode[];
}

/** The user errors of the code, its customer and its usage, which every kind shares. */
function commonErrors(input: string, given: CodeInputCommon): DiscountUserError[] {
  const errors: DiscountUserError[] = [];
  if (!(given.code ?? '').trim()) errors.push({ field: [input, 'code'], message: "Code can't be blank", code: 'BLANK' });
  const added = given.context?.customers?.add ?? [];
  const target = added[0];
  const forAll = given.context?.all === 'ALL';
  const customerId = target && target.startsWith(CUSTOMER_GID) ? idFromGid(target) : '';
  // The loyalty program issues codes for one customer, or for any buyer (a friend's code): either, not both.
  if (forAll ? added.length > 0 : !customerId || added.length !== 1) {
    errors.push({ field: [input, 'context'], message: 'Context must name exactly one customer, or all buyers', code: 'INVALID' });
  }
  if (given.usageLimit !== undefined && given.usageLimit !== null && given.usageLimit < 1) {
    errors.push({ field: [input, 'usageLimit'], message: 'Usage limit must be greater than 0', code: 'VALUE_OUTSIDE_RANGE' });
  }
  return errors;
}

/** The user errors of a basic code's value and items; the variant of a free-product code. */
function basicCodeChecks(input: BasicCodeInput): { errors: DiscountUserError[]; variantId: string | null } {
  const errors = commonErrors('basicCodeDiscount', input);
  const value = input.customerGets?.value;
  const fixed = value?.discountAmount?.amount;
  const percentage = value?.percentage;
  if ((fixed === undefined || fixed === null) === (percentage === undefined || percentage === null)) {
    errors.push({
      field: ['basicCodeDiscount', 'customerGets', 'value'],
      message: 'Value must be an amount or a percentage',
      code: 'INVALID',
    });
  }
  const items = input.customerGets?.items;
  const variants = items?.products?.productVariantsToAdd ?? null;
  let variantId: string | null = null;
  if (variants !== null) {
    // The loyalty program's free product: an amount off one variant, once per order (not on each unit).
    const match = variants.length === 1 ? VARIANT_GID.exec(variants[0]!) : null;
    if (!match || items?.all) {
      errors.push({
        field: ['basicCodeDiscount', 'customerGets', 'items'],
        message: 'Items must name exactly one product variant',
        code: 'INVALID',
      });
    } else if (fixed === undefined || fixed === null || value?.discountAmount?.appliesOnEachItem) {
      errors.push({
        field: ['basicCodeDiscount', 'customerGets', 'value'],
        message: 'A product variant code must be an amount off the order, not applied on each item',
        code: 'INVALID',
      });
    } else {
      variantId = match[1]!;
    }
  }
  return { errors, variantId };
}

/** The user errors of a free-shipping code. */
function freeShippingErrors(input: FreeShippingCodeInput): DiscountUserError[] {
  const errors = commonErrors('freeShippingCodeDiscount', input);
  const cap = input.maximumShippingPrice;
  if (cap !== undefined && cap !== null && !(Number(cap) > 0)) {
    errors.push({
      field: ['freeShippingCodeDiscount', 'maximumShippingPrice'],
      message: 'Maximum shipping price must be greater than 0',
      code: 'VALUE_OUTSIDE_RANGE',
    });
  }
  return errors;
}

/** The code as the simulator keeps it, from the mutation's input and the kind's value. */
function newCode(
  shop: string,
  id: string,
  code: string,
  given: CodeInputCommon,
  value: Pick<SimulatedDiscountCode, 'amount' | 'type' | 'kind' | 'product_variant_id' | 'cap'>,
  createdAt: string,
): SimulatedDiscountCode {
  const minimum = given.minimumRequirement?.subtotal?.greaterThanOrEqualToSubtotal;
  const target = given.context?.customers?.add?.[0];
  return {
    shop,
    id,
    code,
    customer_id: given.context?.all === 'ALL' || !target ? null : idFromGid(target),
    ...value,
    usage_limit: given.usageLimit ?? null,
    applies_once_per_customer: given.appliesOncePerCustomer ?? false,
    minimum_spend: minimum ? Number(minimum) : 0,
    ends_at: given.endsAt ?? null,
    starts_at: given.startsAt ?? null,
    title: given.title ?? '',
    created_at: createdAt,
  };
}

/** `codesFile` keeps the codes across restarts (the twin's `--persist`). */
export function createSimulatedDiscountCodes(now: () => Date, codesFile?: string): SimulatedDiscountCodes {
  const codes: SimulatedDiscountCode[] = codesFile ? readCodes(codesFile) : [];
  let nextId = 1 + codes.reduce((highest, entry) => Math.max(highest, Number(idFromGid(entry.id)) || 0), 0);
  // Written whole on every change: a few hundred codes at most on a laptop, and a crash never leaves half a file.
  const save = () => {
    if (!codesFile) return;
    writeFileSync(`${codesFile}.tmp`, JSON.stringify(codes, null, 1));
    renameSync(`${codesFile}.tmp`, codesFile);
  };

  const find = (shop: string, code: string) =>
    codes.find((entry) => entry.shop === shop && entry.code.toLowerCase() === code.toLowerCase());

  const add = (
    shop: string,
    input: string,
    given: CodeInputCommon,
    value: Pick<SimulatedDiscountCode, 'amount' | 'type' | 'kind' | 'product_variant_id' | 'cap'>,
  ): CreateOutcome => {
    const code = given.code!.trim();
    if (find(shop, code)) {
      return {
        id: null,
        userErrors: [{ field: [input, 'code'], message: 'Code must be unique. Please try a different code.', code: 'TAKEN' }],
      };
    }
    const entry = newCode(shop, `gid://shopify/DiscountCodeNode/${nextId++}`, code, given, value, now().toISOString());
    codes.push(entry);
    save();
    return { id: entry.id, userErrors: [] };
  };

  return {
    find,
    list: () => codes.map((entry) => ({ ...entry })),

    create(shop, input) {
      const { errors, variantId } = basicCodeChecks(input);
      const value = input.customerGets?.value;
      const fixed = value?.discountAmount?.amount;
      const percentage = value?.percentage;
      if (errors.length > 0) return { id: null, userErrors: errors };
      const isFixed = fixed !== undefined && fixed !== null;
      return add(shop, 'basicCodeDiscount', input, {
        // Shopify takes percentages as fractions of 1; the list reports them the way the port does (0-100).
        amount: isFixed ? Number(fixed) : Math.round(percentage! * 100 * 1e6) / 1e6,
        type: isFixed ? 'fixed' : 'percentage',
        kind: variantId !== null ? 'free_product' : isFixed ? 'fixed' : 'percentage',
        product_variant_id: variantId,
        cap: null,
      });
    },

    createFreeShipping(shop, input) {
      const errors = freeShippingErrors(input);
      const cap = input.maximumShippingPrice;
      if (errors.length > 0) return { id: null, userErrors: errors };
      return add(shop, 'freeShippingCodeDiscount', input, {
        amount: 0,
        type: 'fixed',
        kind: 'free_shipping',
        product_variant_id: null,
        cap: cap === undefined || cap === null ? null : Number(cap),
      });
    },

    delete(shop, id) {
      const index = codes.findIndex((entry) => entry.shop === shop && entry.id === id);
      if (index < 0) return { id: null, userErrors: [{ field: ['id'], message: 'Discount does not exist', code: 'INVALID' }] };
      codes.splice(index, 1);
      save();
      return { id, userErrors: [] };
    },
  };
}
