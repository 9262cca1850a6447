// What Shopify would charge for each document the adapter sends, before running it, priced against the real
// Admin API schema by the rules Shopify publishes ("GraphQL Admin API rate limits", cost calculation): a scalar
// or enum costs 0, an object 1, an interface or union its most expensive selection, a connection 2 plus `first` times what one node selects, nested costs
// multiplied; a mutation 10. Shopify refuses a query priced over 1 000 points (MAX_COST_EXCEEDED), so every
// document, with the largest page the adapter asks for, must stay under it. Shopify does not publish the size
// it assumes for a list without `first` (a line's tax lines); it is counted here as one item. This is an
// estimate by the published rules, not a figure measured against Shopify.
import {
  type FieldNode,
  getNamedType,
  type GraphQLCompositeType,
  GraphQLInterfaceType,
  GraphQLObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { ADJUSTMENTS_PAGE, ORDERS_PAGE_SIZE, LINES_PAGE } from '../../shared/platform/shopify-orders';
import { SEARCH_PAGE } from '../../shared/platform/shopify-customer-search';
import { adapterDocuments, realAdminSchema } from '../support/real-admin-schema';

const MAX_QUERY_COST = 1000;
const MUTATION_COST = 10;

/** The largest variables the adapter sends each document with (the page sizes). */
const LARGEST_VARIABLES: Record<string, Record<string, unknown>> = {
  ORDERS_UPDATED_SINCE_QUERY: { first: ORDERS_PAGE_SIZE },
  ORDER_LINE_ITEMS_QUERY: { first: LINES_PAGE },
  REFUND_LINE_ITEMS_QUERY: { first: LINES_PAGE },
  REFUND_ADJUSTMENTS_QUERY: { first: ADJUSTMENTS_PAGE },
  CUSTOMERS_BY_EMAIL_QUERY: { first: SEARCH_PAGE },
};

function argumentValue(field: FieldNode, name: string, variables: Record<string, unknown>): number | null {
  const node = field.arguments?.find((argument) => argument.name.value === name)?.value as ValueNode | undefined;
  if (!node) return null;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    if (typeof value !== 'number') throw new Error(`No size given for $${node.name.value}`);
    return value;
  }
  throw new Error(`Unexpected ${name} argument`);
}

/** What one selection costs on its parent type. */
function selectionCost(
  parent: GraphQLCompositeType,
  selectionSet: SelectionSetNode | undefined,
  variables: Record<string, unknown>,
): number {
  if (!selectionSet) return 0;
  let cost = 0;
  // An interface or union costs the most expensive of its possible selections (the inline fragments).
  let fragments = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition
        ? (realAdminSchema().getType(selection.typeCondition.name.value) as GraphQLCompositeType)
        : parent;
      fragments = Math.max(fragments, selectionCost(type, selection.selectionSet, variables));
      continue;
    }
    if (selection.kind !== Kind.FIELD) throw new Error('Named fragments are not priced here');
    if (selection.name.value === '__typename') continue;
    if (!(parent instanceof GraphQLObjectType || parent instanceof GraphQLInterfaceType)) throw new Error(`Cannot price ${parent.name}`);
    const field = parent.getFields()[selection.name.value];
    if (!field) throw new Error(`${parent.name}.${selection.name.value} is not in the schema`);
    const named = getNamedType(field.type);
    if (isLeafType(named)) continue;
    const inner = named as GraphQLCompositeType;
    if (named.name.endsWith('Connection')) {
      const size = argumentValue(selection, 'first', variables) ?? argumentValue(selection, 'last', variables) ?? 0;
      // What one node selects, through `nodes` or `edges { node }`; pageInfo and the cursors are in the 2.
      const connection = named as GraphQLObjectType;
      const nodeCost = (selection.selectionSet?.selections ?? []).reduce((sum, part) => {
        if (part.kind !== Kind.FIELD) return sum;
        if (part.name.value === 'nodes')
          return (
            sum + 1 + selectionCost(getNamedType(connection.getFields().nodes!.type) as GraphQLCompositeType, part.selectionSet, variables)
          );
        if (part.name.value === 'edges') {
          const edge = getNamedType(connection.getFields().edges!.type) as GraphQLObjectType;
          const node = part.selectionSet?.selections.find((edgePart) => edgePart.kind === Kind.FIELD && edgePart.name.value === 'node') as
            FieldNode | undefined;
          return (
            sum +
            (node ? 1 + selectionCost(getNamedType(edge.getFields().node!.type) as GraphQLCompositeType, node.selectionSet, variables) : 0)
          );
        }
        return sum;
      }, 0);
      cost += 2 + size * nodeCost;
      continue;
    }
    const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
    const size = isListType(unwrapped) ? (argumentValue(selection, 'first', variables) ?? 1) : 1;
    cost += size * (1 + selectionCost(inner, selection.selectionSet, variables));
  }
  return cost + fragments;
}

function requestedQueryCost(document: string, variables: Record<string, unknown> = {}): number {
  const schema = realAdminSchema();
  const operation = parse(document).definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  ) as OperationDefinitionNode;
  const root = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  return (operation.operation === 'mutation' ? MUTATION_COST : 0) + selectionCost(root, operation.selectionSet, variables);
}

describe("the adapter's documents under Shopify's query cost limit", () => {
  it('prices a connection as 2 plus first times its node, nested connections multiplied', () => {
    const nested = `query { orders(first: 10) { nodes { id lineItems(first: 5) { nodes { quantity originalUnitPriceSet { shopMoney { amount } } } } } } }`;
    // Each line: the node 1 + MoneyBag 1 + MoneyV2 1 = 3; lineItems 2 + 5 × 3 = 17; each order 1 + 17 = 18.
    expect(requestedQueryCost(nested)).toBe(2 + 10 * 18);
    expect(requestedQueryCost('query { shop { name currencyCode } }')).toBe(1);
  });

  it.each(adapterDocuments())('%s stays under 1 000 points with the largest page it is sent with', (name, document) => {
    const cost = requestedQueryCost(document, LARGEST_VARIABLES[name] ?? {});

    expect({ name, cost, under: cost <= MAX_QUERY_COST }).toEqual({ name, cost, under: true });
  });
});
