// The discount codes the simulator holds, per shop: created, found by their text (case-insensitively, as
// Shopify matches them) and deleted, with the user errors Shopify gives for a blank, taken or untargeted code.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { idFromGid } from '../../../shared/platform/shopify-ids';

export interface SimulatedDiscountCode {
  shop: string;
  id: string;
  code: string;
  /** The one customer who may use it; null for any buyer (a referred friend's code). */
  customer_id: string | null;
  amount: number;
  type: 'fixed' | 'percentage';
  minimum_spend: number;
  ends_at: string | null;
  starts_at: string | null;
  title: string;
  created_at: string;
}

export interface DiscountUserError {
  field: string[] | null;
  message: string;
  code: string;
}

/** DiscountCodeBasicInput as the schema lets it through; every field may be absent. */
export interface BasicCodeInput {
  code?: string | null;
  title?: string | null;
  startsAt?: string | null;
  endsAt?: string | null;
  context?: { customers?: { add?: string[] | null } | null; all?: string | null } | null;
  customerGets?: {
    value?: { discountAmount?: { amount?: string | null } | null; percentage?: number | null } | null;
  } | null;
  minimumRequirement?: { subtotal?: { greaterThanOrEqualToSubtotal?: string | null } | null } | null;
}

export type CreateOutcome = { id: string; userErrors: [] } | { id: null; userErrors: DiscountUserError[] };

export interface SimulatedDiscountCodes {
  create(shop: string, input: BasicCodeInput): CreateOutcome;
  find(shop: string, code: string): SimulatedDiscountCode | undefined;
  /** The deleted code's id, or the user error Shopify gives for an unknown one. */
  delete(shop: string, id: string): { id: string; userErrors: [] } | { id: null; userErrors: DiscountUserError[] };
  list(): SimulatedDiscountCode[];
}

const CUSTOMER_GID = 'gid://shopify/Customer/';

/** The codes a previous run left in the file; none when there is no file yet. */
function readCodes(file: string): SimulatedDiscountCode[] {
  if (!existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file} does not hold a list of discount codes; move it away to start afresh`);
  return parsed as SimulatedDiscountCode[];
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

  return {
    find,
    list: () => codes.map((entry) => ({ ...entry })),

    create(shop, input) {
      const errors: DiscountUserError[] = [];
      const code = (input.code ?? '').trim();
      if (!code) errors.push({ field: ['basicCodeDiscount', 'code'], message: "Code can't be blank", code: 'BLANK' });
      const added = input.context?.customers?.add ?? [];
      const target = added[0];
      const forAll = input.context?.all === 'ALL';
      const customerId = target && target.startsWith(CUSTOMER_GID) ? idFromGid(target) : '';
      // The loyalty program issues codes for one customer, or for any buyer (a friend's code): either, not both.
      if (forAll ? added.length > 0 : !customerId || added.length !== 1) {
        errors.push({
          field: ['basicCodeDiscount', 'context'],
          message: 'Context must name exactly one customer, or all buyers',
          code: 'INVALID',
        });
      }
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
      if (errors.length > 0) return { id: null, userErrors: errors };
      if (find(shop, code)) {
        return {
          id: null,
          userErrors: [
            { field: ['basicCodeDiscount', 'code'], message: 'Code must be unique. Please try a different code.', code: 'TAKEN' },
          ],
        };
      }
      const minimum = input.minimumRequirement?.subtotal?.greaterThanOrEqualToSubtotal;
      const entry: SimulatedDiscountCode = {
        shop,
        id: `gid://shopify/DiscountCodeNode/${nextId++}`,
        code,
        customer_id: forAll ? null : customerId,
        // Shopify takes percentages as fractions of 1; the list reports them the way the port does (0-100).
        amount: fixed !== undefined && fixed !== null ? Number(fixed) : Math.round(percentage! * 100 * 1e6) / 1e6,
        type: fixed !== undefined && fixed !== null ? 'fixed' : 'percentage',
        minimum_spend: minimum ? Number(minimum) : 0,
        ends_at: input.endsAt ?? null,
        starts_at: input.startsAt ?? null,
        title: input.title ?? '',
        created_at: now().toISOString(),
      };
      codes.push(entry);
      save();
      return { id: entry.id, userErrors: [] };
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
