import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { conflict, jsonBody, objectNotFound, validationError, type TwinContext, type TwinEnv } from '../http';
import { ALWAYS_RETURNED, associationType, DEFAULT_RETURNED, objectTypeOf, type ObjectType } from '../model';
import { search } from '../search';
import { associate, companyForContact, copyState, insertRecord, iso, updateRecord, type CrmRecord, type HubSpotState, type ValueProblem } from '../state';

/** The sandbox portal id (record links in HubSpot's UI carry it). */
export const PORTAL_ID = 24681357;

/** `:objectType` of the path: a name (`deals`) or HubSpot's type id (`0-3`). */
export function typeParam(c: TwinContext): ObjectType {
  const raw = c.req.param('objectType') ?? '';
  const t = objectTypeOf(raw);
  if (!t) throw validationError(`Unable to infer object type from: ${raw}`);
  return t;
}

/** `properties` of a query string: repeated and/or comma-separated. */
export function listParam(c: TwinContext, name: string): string[] | undefined {
  const all = c.req.queries(name);
  if (!all) return undefined;
  return all.flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
}

/** A record as HubSpot answers it: the asked (or default) properties plus the always-returned ones; asked but empty → null. */
export function recordJson(state: HubSpotState, type: ObjectType, rec: CrmRecord, asked?: string[]) {
  const names = [...new Set([...(asked && asked.length ? asked : DEFAULT_RETURNED[type]), ...ALWAYS_RETURNED[type]])];
  const properties: Record<string, string | null> = {};
  for (const n of names) if (state.properties[type].has(n)) properties[n] = rec.properties[n] ?? null;
  return {
    id: rec.id,
    properties,
    createdAt: iso(rec.createdAt),
    updatedAt: iso(rec.updatedAt),
    archived: rec.archivedAt !== undefined,
    ...(rec.archivedAt !== undefined ? { archivedAt: iso(rec.archivedAt) } : {}),
    ...(type === 'contacts' ? { url: `https://app.hubspot.com/contacts/${PORTAL_ID}/record/0-1/${rec.id}` } : {}),
  };
}

/** HubSpot's answer to invalid property values. */
export function invalidValues(problems: ValueProblem[]) {
  const listed = problems.map((p) => ({ isValid: false, message: p.message, error: p.error, name: p.name }));
  return validationError(`Property values were not valid: ${JSON.stringify(listed)}`, {
    errors: problems.map((p) => ({ message: p.message, code: p.error, context: { propertyName: [p.name] } })),
  });
}

function find(state: HubSpotState, type: ObjectType, id: string, idProperty?: string): CrmRecord | undefined {
  if (idProperty && idProperty !== 'hs_object_id') {
    const wanted = id.toLowerCase();
    return [...state.records[type].values()].find((r) => (r.properties[idProperty] ?? '').toLowerCase() === wanted);
  }
  return state.records[type].get(id);
}

/** Emails are unique among contacts: HubSpot answers 409 naming the existing contact. */
function emailTaken(state: HubSpotState, email: unknown, except?: string): void {
  if (typeof email !== 'string' || email === '') return;
  const wanted = email.toLowerCase();
  const other = [...state.records.contacts.values()].find((r) => r.id !== except && !r.archivedAt && (r.properties.email ?? '').toLowerCase() === wanted);
  if (other) throw conflict(`Contact already exists. Existing ID: ${other.id}`, { context: { existingId: [other.id] } });
}

type Props = Record<string, unknown>;

function propsOf(body: Record<string, unknown>): Props {
  const p = body.properties;
  if (p === undefined) return {};
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw validationError('properties must be an object of property names to string values');
  return p as Props;
}

interface AssocInput {
  to?: { id?: unknown };
  types?: { associationCategory?: unknown; associationTypeId?: unknown }[];
}

/** Creates one record with its `associations` (checked before anything is written). */
export function createOne(state: HubSpotState, type: ObjectType, body: Record<string, unknown>, clock: Clock): CrmRecord {
  const props = propsOf(body);
  const assocs = (body.associations ?? []) as AssocInput[];
  if (!Array.isArray(assocs)) throw validationError('associations must be an array');
  const planned: { to: ObjectType; toId: string; typeId: number }[] = [];
  for (const a of assocs) {
    const toId = String(a?.to?.id ?? '');
    for (const t of a?.types ?? []) {
      const typeId = Number(t.associationTypeId);
      const found = (['contacts', 'companies', 'deals', 'tickets'] as const).find((to) => associationType(type, to, typeId));
      if (!found) throw validationError(`${t.associationTypeId} is not a valid association type id from ${type}`);
      if (!state.records[found].get(toId) || state.records[found].get(toId)!.archivedAt) throw validationError(`One or more associations are invalid: ${found} ${toId} does not exist`);
      planned.push({ to: found, toId, typeId });
    }
  }
  if (type === 'contacts') emailTaken(state, props.email);
  const made = insertRecord(state, type, props, clock.now());
  if ('problems' in made) throw invalidValues(made.problems);
  for (const p of planned) associate(state, type, made.id, p.to, p.toId, p.typeId);
  if (type === 'contacts' && typeof props.company === 'string') companyForContact(state, made.id, props.company, clock.now());
  return made;
}

export function updateOne(state: HubSpotState, type: ObjectType, id: string, body: Record<string, unknown>, clock: Clock, idProperty?: string): CrmRecord {
  const rec = find(state, type, id, idProperty);
  if (!rec || rec.archivedAt) throw objectNotFound(id);
  const props = propsOf(body);
  if (type === 'contacts') emailTaken(state, props.email, rec.id);
  const next = updateRecord(state, type, rec, props, clock.now());
  if ('problems' in next) throw invalidValues(next.problems);
  return next;
}

export function archiveOne(state: HubSpotState, type: ObjectType, id: string, clock: Clock): void {
  const rec = state.records[type].get(id);
  if (!rec || rec.archivedAt) return; // HubSpot answers 204 whether or not there was something to archive
  state.records[type].set(id, { ...rec, archivedAt: clock.now() });
}

function inputs(body: Record<string, unknown>): Record<string, unknown>[] {
  const list = body.inputs;
  if (!Array.isArray(list)) throw validationError('inputs must be an array');
  if (list.length > 100) throw validationError(`Batch size ${list.length} exceeds the maximum of 100.`);
  return list as Record<string, unknown>[];
}

function batchAnswer(c: TwinContext, results: unknown[], errors: unknown[], started: number, ok: 200 | 201) {
  const now = iso(Date.now());
  const body = { status: 'COMPLETE', results, startedAt: iso(started), completedAt: now, ...(errors.length ? { numErrors: errors.length, errors } : {}) };
  return c.json(body, errors.length ? 207 : ok);
}

/** /crm/v3/objects/{objectType}[...]: CRUD, batch, search (the four object documents). */
export function objectRoutes(state: HubSpotState, clock: Clock) {
  const app = new Hono<TwinEnv>();
  const base = '/crm/v3/objects/:objectType';

  app.get(base, (c) => {
    const type = typeParam(c);
    const limit = Number(c.req.query('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError(`limit must be between 1 and 100, got ${c.req.query('limit')}`);
    const after = Number(c.req.query('after') ?? 0);
    if (!Number.isInteger(after) || after < 0) throw validationError(`Invalid after: ${c.req.query('after')}`);
    const archived = c.req.query('archived') === 'true';
    const all = [...state.records[type].values()].filter((r) => (r.archivedAt !== undefined) === archived).sort((a, b) => Number(a.id) - Number(b.id));
    const start = all.findIndex((r) => Number(r.id) > after);
    const page = start < 0 ? [] : all.slice(start, start + limit);
    const more = start >= 0 && start + limit < all.length;
    const asked = listParam(c, 'properties');
    return c.json({
      results: page.map((r) => recordJson(state, type, r, asked)),
      ...(more ? { paging: { next: { after: page[page.length - 1]!.id, link: `?after=${page[page.length - 1]!.id}` } } } : {}),
    });
  });

  app.post(base, async (c) => {
    const type = typeParam(c);
    const rec = createOne(state, type, await jsonBody(c), clock);
    return c.json(recordJson(state, type, rec, Object.keys(state.records[type].get(rec.id)!.properties)), 201);
  });

  app.post(`${base}/search`, async (c) => {
    const type = typeParam(c);
    const body = await jsonBody(c);
    const out = search(state, type, body);
    const asked = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    return c.json({
      total: out.total,
      results: out.results.map((r) => recordJson(state, type, r, asked)),
      ...(out.next ? { paging: { next: { after: out.next, link: `?after=${out.next}` } } } : {}),
    });
  });

  app.post(`${base}/batch/read`, async (c) => {
    const type = typeParam(c);
    const started = Date.now();
    const body = await jsonBody(c);
    const idProperty = typeof body.idProperty === 'string' ? body.idProperty : undefined;
    const asked = Array.isArray(body.properties) ? (body.properties as string[]) : undefined;
    const results: unknown[] = [];
    const missing: string[] = [];
    for (const i of inputs(body)) {
      const rec = find(state, type, String(i.id ?? ''), idProperty);
      if (rec && (!rec.archivedAt || body.archived === true)) results.push(recordJson(state, type, rec, asked));
      else missing.push(String(i.id ?? ''));
    }
    const errors = missing.length
      ? [{ status: 'error', category: 'OBJECT_NOT_FOUND', message: `Could not get some ${type} objects, they may be deleted or not exist.`, context: { ids: missing }, errors: [], links: {} }]
      : [];
    return batchAnswer(c, results, errors, started, 200);
  });

  app.post(`${base}/batch/create`, async (c) => {
    const type = typeParam(c);
    const started = Date.now();
    const list = inputs(await jsonBody(c));
    // HubSpot's batch create is all-or-nothing on validation: every input is tried on a scratch copy first.
    const scratch = copyState(state);
    for (const i of list) createOne(scratch, type, i, clock);
    const made = list.map((i) => createOne(state, type, i, clock));
    return batchAnswer(c, made.map((r) => recordJson(state, type, r, Object.keys(r.properties))), [], started, 201);
  });

  app.post(`${base}/batch/update`, async (c) => {
    const type = typeParam(c);
    const started = Date.now();
    const list = inputs(await jsonBody(c));
    const done = list.map((i) => updateOne(state, type, String(i.id ?? ''), i, clock));
    return batchAnswer(c, done.map((r) => recordJson(state, type, r, Object.keys(r.properties))), [], started, 200);
  });

  app.post(`${base}/batch/archive`, async (c) => {
    const type = typeParam(c);
    for (const i of inputs(await jsonBody(c))) archiveOne(state, type, String(i.id ?? ''), clock);
    return c.body(null, 204);
  });

  app.get(`${base}/:id`, (c) => {
    const type = typeParam(c);
    const id = c.req.param('id');
    const rec = find(state, type, id, c.req.query('idProperty'));
    const archived = c.req.query('archived') === 'true';
    if (!rec || (rec.archivedAt !== undefined) !== archived) throw objectNotFound(id);
    return c.json(recordJson(state, type, rec, listParam(c, 'properties')));
  });

  app.patch(`${base}/:id`, async (c) => {
    const type = typeParam(c);
    const rec = updateOne(state, type, c.req.param('id'), await jsonBody(c), clock, c.req.query('idProperty'));
    return c.json(recordJson(state, type, rec, Object.keys(rec.properties)));
  });

  app.delete(`${base}/:id`, (c) => {
    archiveOne(state, typeParam(c), c.req.param('id'), clock);
    return c.body(null, 204);
  });

  return app;
}
