import { Hono } from 'hono';
import * as kit from '../../kit';
import { jsonBody, objectNotFound, validationError, type TwinContext, type TwinEnv } from '../http';
import { ASSOCIATION_TYPES, associationType, defaultAssociationType, objectTypeOf, TYPE_IDS, type ObjectType } from '../model';
import { associate, dissociate, iso, linksOf, type HubSpotState } from '../state';

function typeOf(c: TwinContext, name: string): ObjectType {
  const raw = c.req.param(name) ?? '';
  const t = objectTypeOf(raw);
  if (!t) throw validationError(`Unable to infer object type from: ${raw}`);
  return t;
}

/** The association result of v4: one linked record with every type of the link. */
function linkJson(from: ObjectType, to: ObjectType, l: { toId: string; typeIds: number[] }) {
  return {
    toObjectId: l.toId,
    associationTypes: l.typeIds.map((typeId) => ({ category: 'HUBSPOT_DEFINED', typeId, label: associationType(from, to, typeId)?.label ?? null })),
  };
}

/** /crm/v4/objects/… and /crm/v4/associations/… (associations-v4.json), /crm/v3/associations/…/types (associations-schema-v3.json). */
export function associationRoutes(state: HubSpotState) {
  const app = new Hono<TwinEnv>();
  const live = (type: ObjectType, id: string) => {
    const r = state.records[type].get(id);
    if (!r || r.archivedAt) throw objectNotFound(id);
  };
  const pairOk = (from: ObjectType, to: ObjectType) => {
    if (!defaultAssociationType(from, to)) throw validationError(`No association types exist from ${from} to ${to}.`);
  };

  app.get('/crm/v4/objects/:objectType/:objectId/associations/:toObjectType', (c) => {
    const from = typeOf(c, 'objectType');
    const to = typeOf(c, 'toObjectType');
    const limit = Number(c.req.query('limit') ?? 500);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw validationError(`limit must be between 1 and 500, got ${c.req.query('limit')}`);
    const after = Number(c.req.query('after') ?? 0);
    const all = linksOf(state, from, c.req.param('objectId'), to);
    const page = all.slice(after, after + limit);
    const more = after + limit < all.length;
    return c.json({
      results: page.map((l) => linkJson(from, to, l)),
      ...(more ? { paging: { next: { after: String(after + limit), link: `?after=${after + limit}` } } } : {}),
    });
  });

  app.put('/crm/v4/objects/:fromObjectType/:fromObjectId/associations/default/:toObjectType/:toObjectId', (c) => {
    const from = typeOf(c, 'fromObjectType');
    const to = typeOf(c, 'toObjectType');
    const fromId = c.req.param('fromObjectId');
    const toId = c.req.param('toObjectId');
    pairOk(from, to);
    live(from, fromId);
    live(to, toId);
    const t = defaultAssociationType(from, to)!;
    const started = iso(Date.now());
    associate(state, from, fromId, to, toId, t.typeId);
    // HubSpot answers with both directions of the default link.
    return c.json({
      status: 'COMPLETE',
      results: [
        { from: { id: fromId }, to: { id: toId }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: t.typeId } },
        { from: { id: toId }, to: { id: fromId }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: t.inverse } },
      ],
      startedAt: started,
      completedAt: iso(Date.now()),
    });
  });

  app.put('/crm/v4/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId', async (c) => {
    const from = typeOf(c, 'objectType');
    const to = typeOf(c, 'toObjectType');
    const fromId = c.req.param('objectId');
    const toId = c.req.param('toObjectId');
    const text = await c.req.text();
    let specs: { associationCategory?: unknown; associationTypeId?: unknown }[];
    specs = kit.parseJson(text || '[]', () => validationError('Invalid input JSON: the body must be an array of association specs.')) as typeof specs;
    if (!Array.isArray(specs) || specs.length === 0) throw validationError('The body must be a non-empty array of {associationCategory, associationTypeId}.');
    pairOk(from, to);
    live(from, fromId);
    live(to, toId);
    const types = specs.map((s) => {
      const t = associationType(from, to, Number(s.associationTypeId));
      if (!t || s.associationCategory !== 'HUBSPOT_DEFINED') throw validationError(`${String(s.associationCategory)} ${String(s.associationTypeId)} is not a valid association type from ${from} to ${to}.`);
      return t;
    });
    for (const t of types) associate(state, from, fromId, to, toId, t.typeId);
    const labels = linksOf(state, from, fromId, to).find((l) => l.toId === toId)!.typeIds.map((id) => associationType(from, to, id)?.label).filter((l): l is string => !!l);
    return c.json({ fromObjectTypeId: TYPE_IDS[from], fromObjectId: fromId, toObjectTypeId: TYPE_IDS[to], toObjectId: toId, labels }, 201);
  });

  app.delete('/crm/v4/objects/:objectType/:objectId/associations/:toObjectType/:toObjectId', (c) => {
    dissociate(state, typeOf(c, 'objectType'), c.req.param('objectId'), typeOf(c, 'toObjectType'), c.req.param('toObjectId'));
    return c.body(null, 204);
  });

  app.post('/crm/v4/associations/:fromObjectType/:toObjectType/batch/read', async (c) => {
    const from = typeOf(c, 'fromObjectType');
    const to = typeOf(c, 'toObjectType');
    const started = iso(Date.now());
    const inputs = (await jsonBody(c)).inputs;
    if (!Array.isArray(inputs)) throw validationError('inputs must be an array');
    const results = (inputs as { id?: unknown }[])
      .map((i) => ({ id: String(i.id ?? ''), links: linksOf(state, from, String(i.id ?? ''), to) }))
      .filter((x) => x.links.length > 0)
      .map((x) => ({ from: { id: x.id }, to: x.links.map((l) => linkJson(from, to, l)) }));
    return c.json({ status: 'COMPLETE', results, startedAt: started, completedAt: iso(Date.now()) });
  });

  app.post('/crm/v4/associations/:fromObjectType/:toObjectType/batch/associate/default', async (c) => {
    const from = typeOf(c, 'fromObjectType');
    const to = typeOf(c, 'toObjectType');
    pairOk(from, to);
    const started = iso(Date.now());
    const inputs = (await jsonBody(c)).inputs;
    if (!Array.isArray(inputs)) throw validationError('inputs must be an array');
    const t = defaultAssociationType(from, to)!;
    const pairs = (inputs as { from?: { id?: unknown }; to?: { id?: unknown } }[]).map((i) => [String(i.from?.id ?? ''), String(i.to?.id ?? '')] as const);
    for (const [a, b] of pairs) {
      live(from, a);
      live(to, b);
    }
    for (const [a, b] of pairs) associate(state, from, a, to, b, t.typeId);
    return c.json({
      status: 'COMPLETE',
      results: pairs.map(([a, b]) => ({ from: { id: a }, to: { id: b }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: t.typeId } })),
      startedAt: started,
      completedAt: iso(Date.now()),
    });
  });

  app.post('/crm/v4/associations/:fromObjectType/:toObjectType/batch/create', async (c) => {
    const from = typeOf(c, 'fromObjectType');
    const to = typeOf(c, 'toObjectType');
    pairOk(from, to);
    const started = iso(Date.now());
    const inputs = (await jsonBody(c)).inputs;
    if (!Array.isArray(inputs)) throw validationError('inputs must be an array');
    type In = { from?: { id?: unknown }; to?: { id?: unknown }; types?: { associationCategory?: unknown; associationTypeId?: unknown }[] };
    // Everything is checked before anything is linked.
    const planned = (inputs as In[]).map((i) => {
      const a = String(i.from?.id ?? '');
      const b = String(i.to?.id ?? '');
      live(from, a);
      live(to, b);
      const types = (i.types ?? []).map((s) => {
        const t = associationType(from, to, Number(s.associationTypeId));
        if (!t || s.associationCategory !== 'HUBSPOT_DEFINED') throw validationError(`${String(s.associationCategory)} ${String(s.associationTypeId)} is not a valid association type from ${from} to ${to}.`);
        return t;
      });
      if (types.length === 0) throw validationError('Each input needs at least one association type.');
      return { a, b, types };
    });
    for (const p of planned) for (const t of p.types) associate(state, from, p.a, to, p.b, t.typeId);
    return c.json({
      status: 'COMPLETE',
      results: planned.map((p) => ({
        fromObjectTypeId: TYPE_IDS[from], fromObjectId: p.a, toObjectTypeId: TYPE_IDS[to], toObjectId: p.b,
        labels: p.types.map((t) => t.label).filter((l): l is string => !!l),
      })),
      startedAt: started,
      completedAt: iso(Date.now()),
    }, 201);
  });

  app.get('/crm/v3/associations/:fromObjectType/:toObjectType/types', (c) => {
    const from = typeOf(c, 'fromObjectType');
    const to = typeOf(c, 'toObjectType');
    const names: Record<string, string> = { contacts: 'contact', companies: 'company', deals: 'deal', tickets: 'ticket' };
    return c.json({
      results: ASSOCIATION_TYPES.filter((t) => t.from === from && t.to === to).map((t) => ({
        id: String(t.typeId),
        name: `${names[from]}_to_${names[to]}${t.label ? `_${t.label.toLowerCase()}` : ''}`,
      })),
    });
  });

  return app;
}
