import * as z from 'zod';
import type { PlatformEnv } from '../../shared/core/tool';
import { contractedRequest } from '../../shared/vendor/vendor-contract';
import { createUpstream, naming, type VendorError } from '../../shared/vendor/upstream';
import type {
  HubSpotAssociationPage, HubSpotObjectType, HubSpotPipeline, HubSpotProperty, HubSpotPropertyCreate, HubSpotRecord, HubSpotSearchBody, HubSpotSearchPage,
} from './wire';

export const HUBSPOT_BASE_URL = 'https://api.hubapi.com';

/**
 * HubSpot's error body is `{status: "error", message, correlationId, category, errors?, context?}`
 * (the `Error` schema); a 429 adds `policyName` and carries no Retry-After: the wait is the
 * rolling window of `X-HubSpot-RateLimit-Interval-Milliseconds` (10 s for the burst limit).
 */
export function describeHubSpotError(body: unknown, status: number, headers: Headers): VendorError {
  const b = (body ?? {}) as { message?: unknown; category?: unknown; policyName?: unknown };
  const message = typeof b.message === 'string' ? b.message : undefined;
  const code = typeof b.category === 'string' ? b.category : undefined;
  if (status === 429) {
    const interval = Number(headers.get('x-hubspot-ratelimit-interval-milliseconds'));
    const policy = typeof b.policyName === 'string' ? ` (${b.policyName})` : '';
    return { code, message: message ? `${message}${policy}` : undefined, as: 'RATE_LIMITED', ...(interval > 0 ? { retryAfter: interval / 1000 } : {}) };
  }
  return { code, message };
}

/** Contacts' emails are unique: HubSpot answers 409 "Contact already exists. Existing ID: 5" to a taken one. */
const RECORD_VALUES = { 'Contact already exists': 'values.email' };
/** What a refused new property names: "Property group "x" does not exist for deals", a name, a field type, options. */
const NEW_PROPERTY = { 'Property group|groupName': 'group_name', '[Pp]ropert(y|ies) name[sd]?|name is required': 'name', fieldType: 'field_type', '[Oo]ptions?|Enumeration': 'options' };

const csv = (names?: string[]) => (names && names.length ? names.join(',') : undefined);

// The parts of HubSpot's answers the tools read (shared/vendor/vendor-contract.ts).
const RECORD = z.looseObject({ id: z.string().min(1), properties: z.record(z.string(), z.string().nullable()) });
const SEARCH_PAGE = z.looseObject({ total: z.number(), results: z.array(RECORD), paging: z.looseObject({ next: z.looseObject({ after: z.string() }).optional() }).optional() });
const PROPERTIES = z.looseObject({ results: z.array(z.looseObject({ name: z.string(), label: z.string(), type: z.string(), fieldType: z.string() })) });
const PIPELINES = z.looseObject({ results: z.array(z.looseObject({ id: z.string(), label: z.string(), stages: z.array(z.looseObject({ id: z.string(), label: z.string() })) })) });
const PROPERTY = z.looseObject({ name: z.string(), label: z.string(), type: z.string(), fieldType: z.string() });
const ASSOCIATION_PAGE = z.looseObject({ results: z.array(z.looseObject({ toObjectId: z.union([z.string(), z.number()]) })), paging: z.looseObject({ next: z.looseObject({ after: z.string() }).optional() }).optional() });
const ACCOUNT = z.looseObject({ portalId: z.number() });

/** The only place that knows HubSpot's paths. One instance per call, bound to the caller's private app token (Bearer). */
export function createHubSpotClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    ...env,
    headers: { authorization: `Bearer ${key}` },
    describeError: describeHubSpotError,
    vendor: 'HubSpot',
  });
  const checked = contractedRequest({ platform: 'crm', vendor: 'HubSpot' }, request);
  const objects = (type: HubSpotObjectType) => `/crm/v3/objects/${type}`;

  return {
    // --- objects (deals-v3.json, contacts-v3.json, companies-v3.json, tickets-v3.json) ---
    getRecord: (type: HubSpotObjectType, id: string, properties?: string[], archived = false) =>
      checked<HubSpotRecord>(RECORD, { method: 'GET', path: `${objects(type)}/${encodeURIComponent(id)}`, query: { properties: csv(properties), archived: archived || undefined } }),
    /** Creates are not retried: a repeated POST would make a second record. */
    createRecord: (type: HubSpotObjectType, properties: Record<string, string>) =>
      naming(checked<HubSpotRecord>(RECORD, { method: 'POST', path: objects(type), body: { properties, associations: [] } }), RECORD_VALUES),
    /** A PATCH sets the same values again when repeated: safe to retry. */
    updateRecord: (type: HubSpotObjectType, id: string, properties: Record<string, string>) =>
      naming(checked<HubSpotRecord>(RECORD, { method: 'PATCH', path: `${objects(type)}/${encodeURIComponent(id)}`, body: { properties }, idempotent: true }), RECORD_VALUES),
    archiveRecord: (type: HubSpotObjectType, id: string) =>
      request<Record<string, never>>({ method: 'DELETE', path: `${objects(type)}/${encodeURIComponent(id)}`, idempotent: true }),
    /** Search reads only: safe to retry. */
    search: (type: HubSpotObjectType, body: HubSpotSearchBody) =>
      checked<HubSpotSearchPage>(SEARCH_PAGE, { method: 'POST', path: `${objects(type)}/search`, body, idempotent: true, read: true }),

    // --- properties (properties-v3.json) and pipelines (pipelines-v3.json) ---
    listProperties: (type: HubSpotObjectType) => checked<{ results: HubSpotProperty[] }>(PROPERTIES, { method: 'GET', path: `/crm/v3/properties/${type}` }),
    createProperty: (type: HubSpotObjectType, body: HubSpotPropertyCreate) =>
      naming(checked<HubSpotProperty>(PROPERTY, { method: 'POST', path: `/crm/v3/properties/${type}`, body }), NEW_PROPERTY),
    listPipelines: (type: 'deals' | 'tickets') => checked<{ results: HubSpotPipeline[] }>(PIPELINES, { method: 'GET', path: `/crm/v3/pipelines/${type}` }),

    // --- associations v4 (associations-v4.json) ---
    getAssociations: (from: HubSpotObjectType, id: string, to: HubSpotObjectType, after?: string) =>
      checked<HubSpotAssociationPage>(ASSOCIATION_PAGE, { method: 'GET', path: `/crm/v4/objects/${from}/${encodeURIComponent(id)}/associations/${to}`, query: { limit: 500, after } }),
    /** Linking with the default type is a set operation: repeating it changes nothing, so it may be retried. */
    associateDefault: (from: HubSpotObjectType, fromId: string, to: HubSpotObjectType, toId: string) =>
      request<{ status: string; results: { associationSpec: { associationCategory: string; associationTypeId: number } }[] }>({
        method: 'PUT',
        path: `/crm/v4/objects/${from}/${encodeURIComponent(fromId)}/associations/default/${to}/${encodeURIComponent(toId)}`,
        idempotent: true,
      }),
    /** Links with explicit types (e.g. the Primary label); a set operation like the default link. */
    associate: (from: HubSpotObjectType, fromId: string, to: HubSpotObjectType, toId: string, types: { associationCategory: string; associationTypeId: number }[]) =>
      request<{ labels: string[] }>({
        method: 'PUT',
        path: `/crm/v4/objects/${from}/${encodeURIComponent(fromId)}/associations/${to}/${encodeURIComponent(toId)}`,
        body: types,
        idempotent: true,
      }),

    // --- the portal of the token, and the Webhooks API v3 of the deployment's app (event inbox) ---
    accountDetails: () => checked<{ portalId: number }>(ACCOUNT, { method: 'GET', path: '/account-info/v3/details' }),
    /** The Webhooks API takes the app's developer key (`hapikey`), never the caller's token. */
    webhooks: (app: { appId: string; developerKey: string }) => {
      const dev = createUpstream({ ...env, headers: {}, describeError: describeHubSpotError, vendor: 'HubSpot' });
      const base = `/webhooks/v3/${encodeURIComponent(app.appId)}`;
      const query = { hapikey: app.developerKey };
      return {
        setTarget: (targetUrl: string) =>
          dev<{ targetUrl: string }>({ method: 'PUT', path: `${base}/settings`, query, body: { targetUrl, throttling: { maxConcurrentRequests: 10, period: 'SECONDLY' } }, idempotent: true }),
        listSubscriptions: () => dev<{ results: HubSpotWebhookSubscription[] }>({ method: 'GET', path: `${base}/subscriptions`, query }),
        createSubscription: (eventType: string, propertyName?: string) =>
          dev<HubSpotWebhookSubscription>({ method: 'POST', path: `${base}/subscriptions`, query, body: { eventType, ...(propertyName ? { propertyName } : {}), active: true } }),
        deleteSubscription: (id: number) => dev<Record<string, never>>({ method: 'DELETE', path: `${base}/subscriptions/${id}`, query, idempotent: true }),
      };
    },
  };
}

/** A subscription of the Webhooks API v3 (app-level: every installed portal's changes of this type). */
export interface HubSpotWebhookSubscription {
  id: number;
  eventType: string;
  propertyName?: string;
  active: boolean;
}

export type HubSpotClient = ReturnType<typeof createHubSpotClient>;
