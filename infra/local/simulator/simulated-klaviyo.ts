// The simulator's Klaviyo: `POST /klaviyo/api/events` and `POST /klaviyo/api/profile-import` answered as
// Klaviyo's API answers them (revision 2026-10-15: 202 with no body for an event; 201 with the profile when
// it is created, 200 when it is updated; JSON:API `errors[]` bodies for 400, 401, 415, 429 and 503), one
// account per private key of the configuration, profiles found by e-mail or external id, and an event
// recorded only the first time its `unique_id` comes for that profile and metric, as Klaviyo does.
// `GET /_klaviyo` shows what it holds; the `klaviyo` fault of `PUT /_faults` throttles, fails or drops it.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from '../http-server';
import { methodNotAllowed } from './simulator-http';
import type { Faults } from './simulator-faults';

export const KLAVIYO_PREFIX = '/klaviyo';

export interface RecordedKlaviyoEvent {
  metric: { name: string };
  profile: { email: string | null; external_id: string | null };
  properties: Record<string, unknown>;
  time: string;
  unique_id: string;
}

export interface RecordedKlaviyoProfile {
  email: string | null;
  external_id: string | null;
  first_name: string | null;
  properties: Record<string, unknown>;
}

export interface KlaviyoRecords {
  events: RecordedKlaviyoEvent[];
  profiles: RecordedKlaviyoProfile[];
  /** Every request to `/klaviyo/api/*`, answered or not. */
  requests: number;
}

interface KlaviyoError {
  id: string;
  status: number;
  code: string;
  title: string;
  detail: string;
  source: { pointer: string };
  links: Record<string, never>;
  meta: Record<string, never>;
}

const error = (status: number, code: string, title: string, detail: string, pointer = '/data/'): { errors: KlaviyoError[] } => ({
  errors: [{ id: randomUUID(), status, code, title, detail, source: { pointer }, links: {}, meta: {} }],
});

/** Klaviyo's answer to a body it refuses: 400 `invalid`, naming the field. */
class Invalid extends Error {
  constructor(
    readonly pointer: string,
    detail: string,
  ) {
    super(detail);
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function objectAt(value: unknown, pointer: string): Record<string, unknown> {
  if (!isObject(value)) throw new Invalid(pointer, `'${pointer.split('/').at(-1)}' is a required field and must be an object.`);
  return value;
}

function typeOf(data: Record<string, unknown>, pointer: string, expected: string): void {
  if (data.type !== expected)
    throw new Invalid(`${pointer}/type`, `The type '${String(data.type)}' is not valid here: expected '${expected}'.`);
}

/** A profile's identifiers, checked as Klaviyo checks them: at least one, and an e-mail that is one. */
function identifiers(attributes: Record<string, unknown>, pointer: string) {
  const email = attributes.email ?? null;
  const externalId = attributes.external_id ?? null;
  const phone = attributes.phone_number ?? null;
  if (email === null && externalId === null && phone === null) {
    throw new Invalid(pointer, 'One of email, phone_number or external_id is required to identify a profile.');
  }
  if (email !== null && (typeof email !== 'string' || !EMAIL.test(email))) throw new Invalid(`${pointer}/email`, 'Invalid email address');
  if (externalId !== null && typeof externalId !== 'string') throw new Invalid(`${pointer}/external_id`, 'external_id must be a string.');
  return { email: email as string | null, external_id: externalId as string | null };
}

function propertiesAt(value: unknown, pointer: string, required: boolean): Record<string, unknown> {
  if (value === undefined && !required) return {};
  return objectAt(value, pointer);
}

export interface SimulatedKlaviyo {
  /** Answers the Klaviyo paths; false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
  records(): KlaviyoRecords;
}

/** `keys`: the private keys the configuration's shops hold, each an account of its own. */
export function createSimulatedKlaviyo(options: { keys: () => ReadonlySet<string>; faults: Faults }): SimulatedKlaviyo {
  const klaviyo = new KlaviyoAccounts(options);
  return {
    records: () => klaviyo.records(),
    handle: (req, res, pathname) => klaviyo.handle(req, res, pathname),
  };
}

type KlaviyoAccount = { profiles: Array<RecordedKlaviyoProfile & { id: string }>; events: RecordedKlaviyoEvent[]; seen: Set<string> };

/** An answer Klaviyo gives before it reads the body's fields: its status, body and extra headers. */
type KlaviyoRefusal = [status: number, body: { errors: KlaviyoError[] }, headers?: Record<string, string>];

class KlaviyoAccounts {
  private readonly accounts = new Map<string, KlaviyoAccount>();
  private requests = 0;

  constructor(private readonly options: { keys: () => ReadonlySet<string>; faults: Faults }) {}

  records(): KlaviyoRecords {
    const all = [...this.accounts.values()];
    return {
      events: all.flatMap((account) => account.events),
      profiles: all.flatMap((account) => account.profiles.map(({ id: _id, ...profile }) => profile)),
      requests: this.requests,
    };
  }

  private accountOf(key: string) {
    let account = this.accounts.get(key);
    if (!account) {
      account = { profiles: [], events: [], seen: new Set() };
      this.accounts.set(key, account);
    }
    return account;
  }

  /** The profile these identifiers name (e-mail first, then external id), or a new one. */
  private upsert(key: string, ids: { email: string | null; external_id: string | null }) {
    const { profiles } = this.accountOf(key);
    const found =
      (ids.email !== null ? profiles.find((profile) => profile.email === ids.email) : undefined) ??
      (ids.external_id !== null ? profiles.find((profile) => profile.external_id === ids.external_id) : undefined);
    if (found) {
      if (ids.email !== null) found.email = ids.email;
      if (ids.external_id !== null) found.external_id = ids.external_id;
      return { profile: found, created: false };
    }
    const profile = { id: randomUUID().replace(/-/g, '').slice(0, 26).toUpperCase(), ...ids, first_name: null, properties: {} };
    profiles.push(profile);
    return { profile, created: true };
  }

  private profileImport(key: string, body: Record<string, unknown>, res: ServerResponse) {
    const data = objectAt(body.data, '/data');
    typeOf(data, '/data', 'profile');
    const attributes = objectAt(data.attributes, '/data/attributes');
    const ids = identifiers(attributes, '/data/attributes');
    const properties = propertiesAt(attributes.properties, '/data/attributes/properties', false);
    const { profile, created } = this.upsert(key, ids);
    if (typeof attributes.first_name === 'string') profile.first_name = attributes.first_name;
    profile.properties = { ...profile.properties, ...properties };
    sendJson(
      res,
      created ? 201 : 200,
      {
        data: {
          type: 'profile',
          id: profile.id,
          attributes: {
            email: profile.email,
            external_id: profile.external_id,
            first_name: profile.first_name,
            properties: profile.properties,
          },
          links: { self: `https://a.klaviyo.com/api/profiles/${profile.id}/` },
        },
      },
      { 'Content-Type': 'application/vnd.api+json' },
    );
  }

  private createEvent(key: string, body: Record<string, unknown>, res: ServerResponse) {
    const event = eventOf(body);
    const { profile } = this.upsert(key, event.ids);
    const account = this.accountOf(key);
    // Klaviyo keeps the first event of a unique_id for one profile and metric and drops the others silently.
    const seen = JSON.stringify([profile.id, event.metricName, event.uniqueId]);
    if (!account.seen.has(seen)) {
      account.seen.add(seen);
      account.events.push({
        metric: { name: event.metricName },
        profile: { email: profile.email, external_id: profile.external_id },
        properties: event.properties,
        time: event.time,
        unique_id: event.uniqueId,
      });
    }
    res.writeHead(202).end();
  }

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (pathname === '/_klaviyo') {
      if (req.method !== 'GET') methodNotAllowed(res, 'GET');
      else sendJson(res, 200, this.records());
      return true;
    }
    if (!pathname.startsWith(`${KLAVIYO_PREFIX}/`)) return false;
    this.requests += 1;
    const mode = this.options.faults.current().klaviyo;
    if (mode === 'unreachable') {
      req.socket.destroy();
      return true;
    }
    const path = pathname.slice(KLAVIYO_PREFIX.length);
    if (path !== '/api/events' && path !== '/api/profile-import') {
      sendJson(res, 404, error(404, 'not_found', 'Not found.', `No route matches ${path}.`));
      return true;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, error(405, 'method_not_allowed', 'Method not allowed.', `Method "${req.method}" not allowed.`), {
        Allow: 'POST',
      });
      return true;
    }
    const text = await readBody(req);
    const key = /^Klaviyo-API-Key (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const refused = faultRefusal(mode) ?? requestRefusal(req, key, this.options.keys());
    if (refused) {
      sendJson(res, ...refused);
      return true;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendJson(res, 400, error(400, 'parse_error', 'Malformed request.', 'JSON parse error.'));
      return true;
    }
    try {
      const document = objectAt(body, '/');
      if (path === '/api/events') this.createEvent(key!, document, res);
      else this.profileImport(key!, document, res);
    } catch (failure) {
      if (!(failure instanceof Invalid)) throw failure;
      sendJson(res, 400, error(400, 'invalid', 'Invalid input.', failure.message, failure.pointer));
    }
    return true;
  }
}

/** The `klaviyo` fault's answer, if it throttles or fails. */
function faultRefusal(mode: string | undefined): KlaviyoRefusal | null {
  if (mode === 'throttled') {
    return [
      429,
      error(429, 'throttled', 'Request was throttled.', 'Request was throttled. Expected available in 1 second.'),
      { 'Retry-After': '1' },
    ];
  }
  if (mode === 'error') {
    return [
      503,
      error(503, 'service_unavailable', 'Service unavailable.', 'The service is temporarily unavailable. Please try again later.'),
    ];
  }
  return null;
}

/** Klaviyo's refusal of a request without a known key, a revision or a JSON content type. */
function requestRefusal(req: IncomingMessage, key: string | undefined, keys: ReadonlySet<string>): KlaviyoRefusal | null {
  if (!key || !keys.has(key)) {
    return [401, error(401, 'not_authenticated', 'Authentication credentials were not provided.', 'Missing or invalid private key.')];
  }
  if (!req.headers.revision) {
    return [400, error(400, 'invalid', 'Invalid input.', 'The revision header is required.', '/headers/revision')];
  }
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('application/vnd.api+json') && !type.startsWith('application/json')) {
    return [415, error(415, 'unsupported_media_type', 'Unsupported media type.', `Unsupported media type "${type}" in request.`)];
  }
  return null;
}

/** An event request's fields, checked as Klaviyo checks them. */
function eventOf(body: Record<string, unknown>) {
  const data = objectAt(body.data, '/data');
  typeOf(data, '/data', 'event');
  const attributes = objectAt(data.attributes, '/data/attributes');
  const properties = propertiesAt(attributes.properties, '/data/attributes/properties', true);
  const metricData = objectAt(objectAt(attributes.metric, '/data/attributes/metric').data, '/data/attributes/metric/data');
  typeOf(metricData, '/data/attributes/metric/data', 'metric');
  const metricName = objectAt(metricData.attributes, '/data/attributes/metric/data/attributes').name;
  if (typeof metricName !== 'string' || metricName.trim() === '') {
    throw new Invalid('/data/attributes/metric/data/attributes/name', "'name' is a required field for the metric.");
  }
  const profileData = objectAt(objectAt(attributes.profile, '/data/attributes/profile').data, '/data/attributes/profile/data');
  typeOf(profileData, '/data/attributes/profile/data', 'profile');
  const ids = identifiers(
    objectAt(profileData.attributes, '/data/attributes/profile/data/attributes'),
    '/data/attributes/profile/data/attributes',
  );
  const time = attributes.time ?? new Date().toISOString();
  if (typeof time !== 'string' || Number.isNaN(Date.parse(time))) throw new Invalid('/data/attributes/time', 'Invalid datetime.');
  const uniqueId = attributes.unique_id ?? randomUUID();
  if (typeof uniqueId !== 'string') throw new Invalid('/data/attributes/unique_id', 'unique_id must be a string.');
  return { ids, metricName, properties, time, uniqueId };
}
