// The `access_denied` fault: what Shopify answers for a root field the store has not granted the app.
// The customer query is refused as protected customer data; the other fields name the scope they need,
// in Shopify's missing-scope shape. A refused field is never resolved, so a refused mutation has no effect.
import { type FieldNode, getLocation } from 'graphql';

const PROTECTED_CUSTOMER_DATA =
  'This app is not approved to access the Customer object. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.';

/** The scope each root field needs (the customer query needs protected customer data access instead). */
const REQUIRED_SCOPES: Record<string, string> = {
  codeDiscountNodeByCode: 'read_discounts',
  discountCodeBasicCreate: 'write_discounts',
  discountCodeDelete: 'write_discounts',
  order: 'read_orders',
  orders: 'read_orders',
  refund: 'read_orders',
};

export interface AccessDeniedError {
  message: string;
  locations?: Array<{ line: number; column: number }>;
  path?: string[];
  extensions: { code: 'ACCESS_DENIED'; documentation?: string; requiredAccess?: string };
}

/** The key a root field's value has in `data`: its alias, else its name. */
export function responseKey(field: FieldNode): string {
  return field.alias?.value ?? field.name.value;
}

export function accessDeniedError(field: FieldNode): AccessDeniedError {
  const name = field.name.value;
  const scope = REQUIRED_SCOPES[name];
  if (!scope) return { message: PROTECTED_CUSTOMER_DATA, extensions: { code: 'ACCESS_DENIED' } };
  const requiredAccess = `\`${scope}\` access scope.`;
  const location = field.loc ? getLocation(field.loc.source, field.loc.start) : null;
  return {
    message: `Access denied for ${name} field. Required access: ${requiredAccess}`,
    ...(location ? { locations: [{ line: location.line, column: location.column }] } : {}),
    path: [responseKey(field)],
    extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess },
  };
}
