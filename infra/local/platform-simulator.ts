// The local commerce platform: a node:http server speaking the Shopify Admin GraphQL subset the adapter uses,
// one endpoint per shop, with fault injection (PUT /_faults) and a list of created codes (GET /_discount_codes).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { SHOPIFY_API_VERSION } from '../../shared/platform/platform-for-shop';
import { customerGid, idFromGid } from '../../shared/platform/shopify';

export interface SimulatedCustomer {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: string | null;
}

export interface SimulatedShop {
  customers: SimulatedCustomer[];
}

export type FaultMode = 'ok' | 'error' | 'unreachable';

export interface FaultModes {
  /** Applies to the customer query. */
  customers: FaultMode;
  /** Applies to creating, finding and deleting discount codes. */
  discount_codes: FaultMode;
}

export interface SimulatedDiscountCode {
  shop: string;
  id: string;
  code: string;
  customer_id: string;
  amount: number;
  type: 'fixed' | 'percentage';
  minimum_spend: number;
  ends_at: string | null;
  starts_at: string | null;
  title: string;
  created_at: string;
}

export interface PlatformSimulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  shops: Record<string, SimulatedShop>;
  /** Keep the created discount codes in this JSON file across restarts (the twin's `--persist`). */
  codesFile?: string;
}

export interface PlatformSimulator {
  url: string;
  port: number;
  /** The Admin GraphQL URL of one shop, as the Shopify adapter expects it. */
  graphqlEndpoint(shopId: string): string;
  faults(): FaultModes;
  setFaults(modes: Partial<FaultModes>): FaultModes;
  discountCodes(): SimulatedDiscountCode[];
  /** Adds a customer to a shop (creating the shop if needed), replacing one with the same id. */
  addCustomer(shopId: string, customer: SimulatedCustomer): void;
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;
const GRAPHQL_PATH = new RegExp(`^/([^/]+)/admin/api/${SHOPIFY_API_VERSION}/graphql\\.json$`);

const faultModeSchema = z.enum(['ok', 'error', 'unreachable']);
const faultsBodySchema = z.strictObject({
  customers: faultModeSchema.optional(),
  discount_codes: faultModeSchema.optional(),
});

type Operation = 'customer' | 'discountCodeBasicCreate' | 'codeDiscountNodeByCode' | 'discountCodeDelete';

interface UserError {
  field: string[] | null;
  message: string;
  code: string;
}

class BadRequest extends Error {}

const INTERNAL_USER_ERROR: UserError = { field: null, message: 'Internal error', code: 'INTERNAL_ERROR' };
const INTERNAL_QUERY_ERROR = { errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] };

// Each document the adapter sends names exactly one root field, so matching its name is enough; the
// customer field goes last because its name is the most generic.
function detectOperation(query: string): Operation | null {
  if (/\bdiscountCodeBasicCreate\s*\(/.test(query)) return 'discountCodeBasicCreate';
  if (/\bdiscountCodeDelete\s*\(/.test(query)) return 'discountCodeDelete';
  if (/\bcodeDiscountNodeByCode\s*\(/.test(query)) return 'codeDiscountNodeByCode';
  if (/\bcustomer\s*\(/.test(query)) return 'customer';
  return null;
}

/** The value passed for a field argument, whatever the client named its variable (`code: $anything`). */
function argument(query: string, variables: Record<string, unknown>, name: string): unknown {
  const variable = new RegExp(`\\b${name}\\s*:\\s*\\$(\\w+)`).exec(query)?.[1];
  return variable === undefined ? undefined : variables[variable];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest('Request body exceeds 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequest('Body is not valid JSON');
  }
}

function toNumber(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

/** The codes a previous run left in the file; none when there is no file yet. */
function readCodes(file: string): SimulatedDiscountCode[] {
  if (!existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${file} does not hold a list of discount codes; move it away to start afresh`);
  return parsed as SimulatedDiscountCode[];
}

export async function startPlatformSimulator(options: PlatformSimulatorOptions): Promise<PlatformSimulator> {
  const host = options.host ?? '127.0.0.1';
  const customers = new Map<string, Map<string, SimulatedCustomer>>();
  for (const [shopId, shop] of Object.entries(options.shops)) {
    customers.set(shopId, new Map(shop.customers.map((customer) => [customer.id, { ...customer }])));
  }
  const codes: SimulatedDiscountCode[] = options.codesFile ? readCodes(options.codesFile) : [];
  // Written whole on every change: a few hundred codes at most on a laptop, and a crash never leaves half a file.
  const saveCodes = () => {
    if (!options.codesFile) return;
    writeFileSync(`${options.codesFile}.tmp`, JSON.stringify(codes, null, 1));
    renameSync(`${options.codesFile}.tmp`, options.codesFile);
  };
  let nextDiscountId = 1;
  let modes: FaultModes = { customers: 'ok', discount_codes: 'ok' };

  const findCode = (shop: string, code: string) =>
    codes.find((entry) => entry.shop === shop && entry.code.toLowerCase() === code.toLowerCase());

  const answerCustomer = (shop: string, id: unknown): unknown => {
    if (typeof id !== 'string' || !id.startsWith('gid://shopify/Customer/')) {
      return { errors: [{ message: `Invalid global id '${String(id)}'`, extensions: { code: 'argumentLiteralsIncompatible' } }] };
    }
    const customer = customers.get(shop)?.get(idFromGid(id));
    if (!customer) return { data: { customer: null } };
    return {
      data: {
        customer: {
          id: customerGid(customer.id),
          email: customer.email || null,
          firstName: customer.first_name || null,
          lastName: customer.last_name || null,
          createdAt: customer.created_at,
        },
      },
    };
  };

  const createCode = (shop: string, input: unknown): unknown => {
    const reply = (userErrors: UserError[], id: string | null) => ({
      data: { discountCodeBasicCreate: { codeDiscountNode: id ? { id } : null, userErrors } },
    });
    const fields = isRecord(input) ? input : {};
    const errors: UserError[] = [];
    const code = typeof fields.code === 'string' ? fields.code.trim() : '';
    if (!code) errors.push({ field: ['basicCodeDiscount', 'code'], message: "Code can't be blank", code: 'BLANK' });
    const selection = isRecord(fields.customerSelection) ? fields.customerSelection : {};
    const added = isRecord(selection.customers) && Array.isArray(selection.customers.add) ? selection.customers.add : [];
    const customerId = typeof added[0] === 'string' && added[0].startsWith('gid://shopify/Customer/') ? idFromGid(added[0]) : '';
    if (!customerId) {
      errors.push({ field: ['basicCodeDiscount', 'customerSelection'], message: 'Customer selection must name a customer', code: 'BLANK' });
    }
    const gets = isRecord(fields.customerGets) ? fields.customerGets : {};
    const value = isRecord(gets.value) ? gets.value : {};
    const fixed = isRecord(value.discountAmount) ? toNumber(value.discountAmount.amount) : null;
    const percentage = toNumber(value.percentage);
    if (fixed === null && percentage === null) {
      errors.push({ field: ['basicCodeDiscount', 'customerGets', 'value'], message: 'Value must be an amount or a percentage', code: 'INVALID' });
    }
    if (errors.length > 0) return reply(errors, null);
    if (findCode(shop, code)) {
      return reply([{ field: ['basicCodeDiscount', 'code'], message: 'Code must be unique. Please try a different code.', code: 'TAKEN' }], null);
    }

    const minimum = isRecord(fields.minimumRequirement) && isRecord(fields.minimumRequirement.subtotal)
      ? toNumber(fields.minimumRequirement.subtotal.greaterThanOrEqualToSubtotal)
      : null;
    const entry: SimulatedDiscountCode = {
      shop,
      id: `gid://shopify/DiscountCodeNode/${nextDiscountId++}`,
      code,
      customer_id: customerId,
      // Shopify takes percentages as fractions of 1; the list reports them the way the port does (0-100).
      amount: fixed ?? Math.round(percentage! * 100 * 1e6) / 1e6,
      type: fixed !== null ? 'fixed' : 'percentage',
      minimum_spend: minimum ?? 0,
      ends_at: typeof fields.endsAt === 'string' ? fields.endsAt : null,
      starts_at: typeof fields.startsAt === 'string' ? fields.startsAt : null,
      title: typeof fields.title === 'string' ? fields.title : '',
      created_at: new Date().toISOString(),
    };
    codes.push(entry);
    saveCodes();
    return reply([], entry.id);
  };

  const findCodeByCode = (shop: string, code: unknown): unknown => {
    const entry = typeof code === 'string' ? findCode(shop, code) : undefined;
    const node = entry ? { id: entry.id, codeDiscount: { codes: { nodes: [{ code: entry.code }] } } } : null;
    return { data: { codeDiscountNodeByCode: node } };
  };

  const deleteCode = (shop: string, id: unknown): unknown => {
    const index = codes.findIndex((entry) => entry.shop === shop && entry.id === id);
    if (index < 0) {
      const userErrors: UserError[] = [{ field: ['id'], message: 'Discount does not exist', code: 'INVALID' }];
      return { data: { discountCodeDelete: { deletedCodeDiscountId: null, userErrors } } };
    }
    codes.splice(index, 1);
    saveCodes();
    return { data: { discountCodeDelete: { deletedCodeDiscountId: id, userErrors: [] } } };
  };

  // Shopify reports a failed mutation in its payload's userErrors, a failed query as top-level errors.
  const failure = (operation: Operation): unknown => {
    if (operation === 'discountCodeBasicCreate') {
      return { data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: [INTERNAL_USER_ERROR] } } };
    }
    if (operation === 'discountCodeDelete') {
      return { data: { discountCodeDelete: { deletedCodeDiscountId: null, userErrors: [INTERNAL_USER_ERROR] } } };
    }
    return INTERNAL_QUERY_ERROR;
  };

  const handleGraphql = async (req: IncomingMessage, res: ServerResponse, shop: string): Promise<void> => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return send(res, 405, { errors: 'Method Not Allowed' });
    }
    if (!customers.has(shop)) return send(res, 404, { errors: 'Not Found' });
    const request = parseJson(await readBody(req));
    if (!isRecord(request) || typeof request.query !== 'string') throw new BadRequest('Body must be { query, variables }');
    const query = request.query;
    const variables = isRecord(request.variables) ? request.variables : {};
    const operation = detectOperation(query);

    const mode = operation === null ? 'ok' : operation === 'customer' ? modes.customers : modes.discount_codes;
    // An unreachable platform never answers, whatever the request carries.
    if (mode === 'unreachable') {
      req.socket.destroy();
      return;
    }
    if (!req.headers['x-shopify-access-token']) {
      return send(res, 401, { errors: '[API] Invalid API key or access token' });
    }
    if (operation === null) {
      return send(res, 200, { errors: [{ message: 'The platform simulator does not support this operation', extensions: { code: 'UNSUPPORTED' } }] });
    }
    if (mode === 'error') return send(res, 200, failure(operation));

    const reply =
      operation === 'customer' ? answerCustomer(shop, argument(query, variables, 'id'))
      : operation === 'discountCodeBasicCreate' ? createCode(shop, argument(query, variables, 'basicCodeDiscount'))
      : operation === 'codeDiscountNodeByCode' ? findCodeByCode(shop, argument(query, variables, 'code'))
      : deleteCode(shop, argument(query, variables, 'id'));
    send(res, 200, reply);
  };

  const handleFaults = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === 'GET') return send(res, 200, modes);
    if (req.method !== 'PUT') {
      res.setHeader('Allow', 'GET, PUT');
      return send(res, 405, { error: 'Method Not Allowed' });
    }
    let body: unknown;
    try {
      body = parseJson(await readBody(req));
    } catch (error) {
      if (error instanceof BadRequest) return send(res, 400, { error: error.message });
      throw error;
    }
    const parsed = faultsBodySchema.safeParse(body);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
        .join('; ');
      return send(res, 400, { error: `Invalid fault modes (each of customers, discount_codes is ok, error or unreachable): ${problems}` });
    }
    send(res, 200, setFaults(parsed.data));
  };

  const setFaults = (update: Partial<FaultModes>): FaultModes => {
    modes = {
      customers: update.customers ?? modes.customers,
      discount_codes: update.discount_codes ?? modes.discount_codes,
    };
    return { ...modes };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname === '/_faults') return handleFaults(req, res);
    if (pathname === '/_discount_codes') {
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        return send(res, 405, { error: 'Method Not Allowed' });
      }
      return send(res, 200, { discount_codes: codes });
    }
    const shop = GRAPHQL_PATH.exec(pathname)?.[1];
    if (shop !== undefined) return handleGraphql(req, res, decodeURIComponent(shop));
    send(res, 404, { errors: 'Not Found' });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return void res.end();
      if (error instanceof BadRequest) return send(res, 400, { errors: error.message });
      send(res, 500, { errors: `Platform simulator failed: ${String(error)}` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    port,
    graphqlEndpoint: (shopId) => `${url}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    faults: () => ({ ...modes }),
    setFaults,
    discountCodes: () => codes.map((entry) => ({ ...entry })),
    addCustomer(shopId, customer) {
      let shop = customers.get(shopId);
      if (!shop) {
        shop = new Map();
        customers.set(shopId, shop);
      }
      shop.set(customer.id, { ...customer });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
