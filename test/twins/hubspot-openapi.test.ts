/**
 * The HubSpot twin held to HubSpot's own OpenAPI documents (test/fixtures/hubspot-openapi): every route it
 * serves exists there, and the request and response bodies of a run over all of them match their
 * schemas, checked with Ajv (JSON Schema) and ajv-formats.
 *
 * One documented departure: HubSpot's documents type property values and association labels as
 * strings, but the API sends null for a requested property without a value and for an unlabeled
 * association (the service's docs/spec.md#crm-objects says "string or null" too): those two are made nullable here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { createHubSpotTwin, HUBSPOT_DEMO, SANDBOX_KEYS } from '../../infra/twins/hubspot';

const DIR = join(__dirname, '../fixtures/hubspot-openapi');
const FILES = ['deals-v3.json', 'contacts-v3.json', 'companies-v3.json', 'tickets-v3.json', 'properties-v3.json', 'pipelines-v3.json', 'associations-v4.json', 'associations-schema-v3.json'];

type Json = Record<string, any>;
const docs: Record<string, Json> = Object.fromEntries(FILES.map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Json]));

// The two nullable values (see above).
for (const doc of Object.values(docs)) {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}) as [string, Json][]) {
    if (name.startsWith('SimplePublicObject') && schema.properties?.properties?.additionalProperties) schema.properties.properties.additionalProperties.nullable = true;
    if (name === 'AssociationSpecWithLabel') schema.properties.label.nullable = true;
  }
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const [f, doc] of Object.entries(docs)) ajv.addSchema(doc, f);

/** The documents' operations; `/crm/v3/objects/0-3` (deals by type id) also as the name the API accepts. */
interface Op { file: string; method: string; template: string; re: RegExp; op: Json }
const ops: Op[] = [];
for (const [file, doc] of Object.entries(docs)) {
  for (const [template, item] of Object.entries(doc.paths) as [string, Json][]) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      if (!item[method]) continue;
      const re = new RegExp(`^${template.replace('/0-3', '/(?:0-3|deals)').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      ops.push({ file, method: method.toUpperCase(), template, re, op: item[method] });
    }
  }
}
/** Literal segments win over parameters (`…/groups` before `…/{propertyName}`). */
const literal = (t: string) => t.replace(/\{[^}]+\}/g, '').length;
const opFor = (method: string, path: string) => ops.filter((o) => o.method === method && o.re.test(path)).sort((a, b) => literal(b.template) - literal(a.template))[0];

const validators = new Map<string, ValidateFunction>();
function schemaCheck(file: string, schema: Json | undefined, value: unknown): string[] {
  if (!schema) return [];
  const s = schema;
  const ref = s.$ref ? `${file}${s.$ref}` : undefined;
  const key = ref ?? `${file}:${JSON.stringify(s)}`;
  let v = validators.get(key);
  if (!v) {
    v = ajv.compile(ref ? { $ref: ref } : JSON.parse(JSON.stringify(s).replaceAll('"#/components', `"${file}#/components`)));
    validators.set(key, v);
  }
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

function responseSchema(o: Op, status: number): Json | undefined {
  let r = o.op.responses[String(status)] ?? o.op.responses.default;
  if (!r) return undefined;
  if (r.$ref) r = docs[o.file]!.components.responses[String(r.$ref).split('/').pop()!];
  return (r.content?.['application/json'] ?? r.content?.['*/*'])?.schema;
}

describe('HubSpot twin against HubSpot\'s OpenAPI documents', () => {
  it('serves only routes the documents have (the kit\'s middleware aside)', () => {
    const twin = createHubSpotTwin();
    // The Webhooks API v3 and account details (the event inbox: infra/twins/hubspot/webhooks.ts) are
    // documented at https://developers.hubspot.com/docs/api/webhooks, and the OAuth endpoints
    // (kit/oauth.ts, judged by test/identity/twin-oauth.test.ts) are HubSpot's OAuth API: neither is in the fixture documents.
    const other = /^\/(webhooks\/v3\/|account-info\/v3\/details$|oauth\/)/;
    const served = twin.app.routes.filter((r) => r.method !== 'ALL' && !other.test(r.path));
    expect(served.length).toBeGreaterThan(20);
    for (const r of served) {
      // A concrete path of the route: object types by name (deals also as 0-3), other parameters as a sample value.
      const path = r.path.replace(/:objectType|:fromObjectType|:toObjectType/g, 'contacts').replace(/:[A-Za-z]+/g, '123');
      expect(opFor(r.method, path), `${r.method} ${r.path}`).toBeDefined();
    }
  });

  it('answers a run over every route with bodies that match the documents\' schemas', async () => {
    const twin = createHubSpotTwin({ rateLimit: { limit: 100_000, windowMs: 10_000 } });
    const contact = String(HUBSPOT_DEMO.firstId + HUBSPOT_DEMO.companies);
    const company = String(HUBSPOT_DEMO.firstId);
    const problems: string[] = [];
    let checked = 0;
    const call = async (method: string, path: string, body?: unknown, key: string = SANDBOX_KEYS.owner) => {
      const res = await twin.fetch(`https://api.hubapi.com${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      const out = text ? (JSON.parse(text) as Json) : undefined;
      const o = opFor(method, new URL(path, 'https://x').pathname);
      if (!o) problems.push(`${method} ${path}: not in the documents`);
      else {
        if (body !== undefined) problems.push(...schemaCheck(o.file, o.op.requestBody?.content?.['application/json']?.schema, body).map((e) => `${method} ${path} request: ${e}`));
        if (out !== undefined) problems.push(...schemaCheck(o.file, responseSchema(o, res.status), out).map((e) => `${method} ${path} ${res.status}: ${e}`));
        if (res.status >= 200 && res.status < 300 && !o.op.responses[String(res.status)]) problems.push(`${method} ${path}: status ${res.status} not documented`);
        checked++;
      }
      return { status: res.status, body: out };
    };

    for (const type of ['deals', '0-3', 'contacts', 'companies', 'tickets']) {
      const values = ({ deals: { dealname: 'OpenAPI deal', amount: '10', closedate: '2026-01-31' }, '0-3': { dealname: 'By type id' }, contacts: { email: `oa-${type}@x.example`, company: 'Acme Labs' }, companies: { name: 'OA Corp' }, tickets: { subject: 'OA', hs_pipeline_stage: '1' } } as Record<string, Json>)[type]!;
      const made = await call('POST', `/crm/v3/objects/${type}`, { properties: values, associations: [] });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body!.id as string;
      expect((await call('GET', `/crm/v3/objects/${type}/${id}?properties=hs_object_id,createdate,nothing_here`)).status).toBe(200);
      expect((await call('GET', `/crm/v3/objects/${type}?limit=3`)).status).toBe(200);
      expect((await call('PATCH', `/crm/v3/objects/${type}/${id}`, { properties: { hubspot_owner_id: '102' } })).status).toBe(200);
      expect((await call('POST', `/crm/v3/objects/${type}/search`, { filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'GTE', value: '1' }] }], sorts: ['createdate'], properties: ['hs_object_id'], limit: 2, after: '0' })).status).toBe(200);
      expect((await call('POST', `/crm/v3/objects/${type}/batch/read`, { inputs: [{ id }], properties: ['hs_object_id'], propertiesWithHistory: [] })).status).toBe(200);
      expect((await call('POST', `/crm/v3/objects/${type}/batch/read`, { inputs: [{ id: '987654' }], properties: [], propertiesWithHistory: [] })).status).toBe(207);
      expect((await call('POST', `/crm/v3/objects/${type}/batch/update`, { inputs: [{ id, properties: { hubspot_owner_id: '101' } }] })).status).toBe(200);
      const batch = await call('POST', `/crm/v3/objects/${type}/batch/create`, { inputs: [{ properties: type === 'contacts' ? { email: 'oa-batch@x.example' } : values, associations: [] }] });
      expect(batch.status).toBe(201);
      expect((await call('POST', `/crm/v3/objects/${type}/batch/archive`, { inputs: [{ id: (batch.body!.results as Json[])[0]!.id }] })).status).toBe(204);
      expect((await call('DELETE', `/crm/v3/objects/${type}/${id}`)).status).toBe(204);
      expect((await call('GET', `/crm/v3/objects/${type}/${id}`)).status).toBe(404);
      expect((await call('GET', `/crm/v3/objects/${type}/${id}?archived=true`)).status).toBe(200);
      expect((await call('POST', `/crm/v3/objects/${type}`, { properties: { nope: 'x' }, associations: [] })).status).toBe(400);
      expect((await call('GET', `/crm/v3/properties/${type}`)).status).toBe(200);
      expect((await call('GET', `/crm/v3/properties/${type}/groups`)).status).toBe(200);
      expect((await call('GET', `/crm/v3/properties/${type}/hs_object_id`)).status).toBe(200);
    }
    const prop = { name: 'oa_tier', label: 'Tier', type: 'enumeration', fieldType: 'select', groupName: 'dealinformation', options: [{ label: 'Gold', value: 'gold', hidden: false, displayOrder: 0 }] };
    expect((await call('POST', '/crm/v3/properties/deals', prop)).status).toBe(201);
    expect((await call('POST', '/crm/v3/properties/deals', prop)).status).toBe(409);
    expect((await call('POST', '/crm/v3/properties/tickets', { ...prop, groupName: 'ticketinformation' }, SANDBOX_KEYS.member)).status).toBe(403);
    expect((await call('PATCH', '/crm/v3/properties/deals/oa_tier', { label: 'Contract tier', options: [{ label: 'Gold', value: 'gold', hidden: false, displayOrder: 0 }, { label: 'Silver', value: 'silver', hidden: false, displayOrder: 1 }] })).status).toBe(200);
    expect((await call('PATCH', '/crm/v3/properties/deals/dealname', { label: 'Name' })).status).toBe(400);
    expect((await call('DELETE', '/crm/v3/properties/deals/oa_tier')).status).toBe(204);
    expect((await call('GET', '/crm/v3/properties/deals/oa_tier')).status).toBe(404);
    for (const type of ['deals', 'tickets']) {
      const list = await call('GET', `/crm/v3/pipelines/${type}`);
      const pid = (list.body!.results as Json[])[0]!.id as string;
      expect((await call('GET', `/crm/v3/pipelines/${type}/${pid}`)).status).toBe(200);
      expect((await call('GET', `/crm/v3/pipelines/${type}/${pid}/stages`)).status).toBe(200);
    }
    const deal = (await call('POST', '/crm/v3/objects/deals', { properties: { dealname: 'Assoc' }, associations: [{ to: { id: contact }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }] })).body!.id as string;
    expect((await call('PUT', `/crm/v4/objects/deals/${deal}/associations/default/companies/${company}`)).status).toBe(200);
    expect((await call('PUT', `/crm/v4/objects/deals/${deal}/associations/companies/${company}`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 5 }])).status).toBe(201);
    expect((await call('GET', `/crm/v4/objects/deals/${deal}/associations/companies`)).status).toBe(200);
    expect((await call('GET', `/crm/v4/objects/contacts/${contact}/associations/companies?limit=1`)).status).toBe(200);
    expect((await call('POST', '/crm/v4/associations/deals/contacts/batch/read', { inputs: [{ id: deal }] })).status).toBe(200);
    expect((await call('POST', '/crm/v4/associations/deals/tickets/batch/associate/default', { inputs: [{ from: { id: deal }, to: { id: String(HUBSPOT_DEMO.firstId + 560) } }] })).status).toBe(200);
    expect((await call('POST', '/crm/v4/associations/deals/companies/batch/create', { inputs: [{ from: { id: deal }, to: { id: company }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 341 }] }] })).status).toBe(201);
    expect((await call('DELETE', `/crm/v4/objects/deals/${deal}/associations/companies/${company}`)).status).toBe(204);
    expect((await call('GET', '/crm/v3/associations/contacts/companies/types')).status).toBe(200);
    expect((await call('GET', '/crm/v3/objects/deals', undefined, 'wrong-token')).status).toBe(401);

    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
