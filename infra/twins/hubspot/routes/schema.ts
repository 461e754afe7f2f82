import { Hono } from 'hono';
import type { Clock } from '../../kit';
import { conflict, HubSpotHttpError, jsonBody, notFound, validationError, type TwinEnv } from '../http';
import { type PropertyDef } from '../model';
import { iso, type HubSpotState } from '../state';
import { typeParam } from './objects';

/** Which field types each data type may be shown with (HubSpot's property docs). */
const FIELD_TYPES: Record<string, string[]> = {
  string: ['text', 'textarea', 'phonenumber', 'html', 'file'],
  number: ['number', 'calculation_equation'],
  date: ['date'],
  datetime: ['date'],
  enumeration: ['select', 'radio', 'checkbox', 'booleancheckbox'],
  bool: ['booleancheckbox'],
  phone_number: ['phonenumber'],
};

const NAME = /^[a-z][a-z0-9_]*$/;

/** /crm/v3/properties/{objectType}[...] (properties-v3.json) and /crm/v3/pipelines/{objectType}[...] (pipelines-v3.json). */
export function schemaRoutes(state: HubSpotState, clock: Clock) {
  const app = new Hono<TwinEnv>();
  const props = '/crm/v3/properties/:objectType';

  app.get(props, (c) => {
    const type = typeParam(c);
    const archived = c.req.query('archived') === 'true';
    return c.json({ results: [...state.properties[type].values()].filter((p) => p.archived === archived) });
  });

  app.get(`${props}/groups`, (c) => c.json({ results: state.groups[typeParam(c)] }));

  app.post(props, async (c) => {
    const type = typeParam(c);
    if (!c.get('user').schemaWrite) {
      throw new HubSpotHttpError(403, 'MISSING_SCOPES', 'This app hasn\'t been granted all required scopes to make this call.', {
        errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: [`crm.schemas.${type}.write`] } }],
      });
    }
    const b = await jsonBody(c);
    const name = String(b.name ?? '');
    for (const k of ['name', 'label', 'type', 'fieldType', 'groupName']) if (typeof b[k] !== 'string' || b[k] === '') throw validationError(`${k} is required`, { errors: [{ message: `${k} is required`, in: k }] });
    if (!NAME.test(name)) throw validationError(`Property name "${name}" is invalid: use lower-case letters, digits and underscores, starting with a letter.`);
    if (name.startsWith('hs_') || name.startsWith('hubspot_')) throw validationError(`Property names beginning with "hs_" or "hubspot_" are reserved for HubSpot: "${name}".`);
    if (state.properties[type].has(name)) throw conflict(`A property named '${name}' already exists.`, { category: 'OBJECT_ALREADY_EXISTS' });
    const t = String(b.type);
    if (!FIELD_TYPES[t]) throw validationError(`type must be one of ${Object.keys(FIELD_TYPES).join(', ')}; got "${t}"`);
    if (!FIELD_TYPES[t]!.includes(String(b.fieldType))) throw validationError(`fieldType "${String(b.fieldType)}" is not valid for type "${t}"; use one of ${FIELD_TYPES[t]!.join(', ')}`);
    if (!state.groups[type].some((g) => g.name === b.groupName)) throw validationError(`Property group "${String(b.groupName)}" does not exist for ${type}.`);
    const options = Array.isArray(b.options) ? (b.options as { label?: unknown; value?: unknown; description?: unknown; hidden?: unknown; displayOrder?: unknown }[]) : [];
    if (t === 'enumeration' && options.length === 0) throw validationError('Enumeration properties need options.');
    const values = options.map((o) => String(o.value ?? ''));
    if (values.some((v) => v === '') || new Set(values).size !== values.length) throw validationError('Option values must be non-empty and unique.');
    const now = iso(clock.now());
    const def: PropertyDef = {
      name, label: String(b.label), type: t as PropertyDef['type'], fieldType: String(b.fieldType), groupName: String(b.groupName),
      description: typeof b.description === 'string' ? b.description : '',
      options: options.map((o, i) => ({ label: String(o.label ?? o.value), value: String(o.value), ...(typeof o.description === 'string' ? { description: o.description } : {}), displayOrder: typeof o.displayOrder === 'number' ? o.displayOrder : i, hidden: o.hidden === true })),
      displayOrder: typeof b.displayOrder === 'number' ? b.displayOrder : -1, hidden: b.hidden === true, formField: b.formField === true,
      hasUniqueValue: b.hasUniqueValue === true, hubspotDefined: false, calculated: false, externalOptions: false,
      modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false, readOnlyOptions: false },
      createdAt: now, updatedAt: now, archived: false,
    };
    state.properties[type].set(name, def);
    return c.json(def, 201);
  });

  app.get(`${props}/:propertyName`, (c) => {
    const type = typeParam(c);
    const p = state.properties[type].get(c.req.param('propertyName'));
    if (!p || p.archived) throw notFound(`Unable to find property ${c.req.param('propertyName')} for ${type}.`);
    return c.json(p);
  });

  app.patch(`${props}/:propertyName`, async (c) => {
    const type = typeParam(c);
    const p = state.properties[type].get(c.req.param('propertyName'));
    if (!p || p.archived) throw notFound(`Unable to find property ${c.req.param('propertyName')} for ${type}.`);
    if (!c.get('user').schemaWrite) throw new HubSpotHttpError(403, 'MISSING_SCOPES', 'This app hasn\'t been granted all required scopes to make this call.');
    if (p.modificationMetadata.readOnlyDefinition) throw validationError(`${p.name} is a HubSpot default property; its definition cannot be changed.`);
    const b = await jsonBody(c);
    const next: PropertyDef = { ...p, updatedAt: iso(clock.now()) };
    for (const k of ['label', 'description', 'groupName', 'fieldType'] as const) if (typeof b[k] === 'string') next[k] = b[k] as string;
    if (typeof b.hidden === 'boolean') next.hidden = b.hidden;
    if (typeof b.displayOrder === 'number') next.displayOrder = b.displayOrder;
    if (!FIELD_TYPES[next.type]!.includes(next.fieldType)) throw validationError(`fieldType "${next.fieldType}" is not valid for type "${next.type}"`);
    if (!state.groups[type].some((g) => g.name === next.groupName)) throw validationError(`Property group "${next.groupName}" does not exist for ${type}.`);
    if (Array.isArray(b.options)) {
      next.options = (b.options as { label?: unknown; value?: unknown; hidden?: unknown }[]).map((o, i) => ({ label: String(o.label ?? o.value), value: String(o.value ?? ''), displayOrder: i, hidden: o.hidden === true }));
    }
    state.properties[type].set(p.name, next);
    return c.json(next);
  });

  app.delete(`${props}/:propertyName`, (c) => {
    const type = typeParam(c);
    const p = state.properties[type].get(c.req.param('propertyName'));
    if (!p || p.archived) throw notFound(`Unable to find property ${c.req.param('propertyName')} for ${type}.`);
    if (p.hubspotDefined) throw validationError(`${p.name} is a HubSpot default property and cannot be archived.`);
    state.properties[type].set(p.name, { ...p, archived: true });
    return c.body(null, 204);
  });

  const pipelinesOf = (raw: ReturnType<typeof typeParam>) => {
    if (raw !== 'deals' && raw !== 'tickets') throw validationError(`Object type ${raw} does not support pipelines.`);
    return state.pipelines[raw];
  };

  app.get('/crm/v3/pipelines/:objectType', (c) => c.json({ results: pipelinesOf(typeParam(c)) }));

  app.get('/crm/v3/pipelines/:objectType/:pipelineId', (c) => {
    const p = pipelinesOf(typeParam(c)).find((x) => x.id === c.req.param('pipelineId'));
    if (!p) throw notFound(`Unable to find pipeline ${c.req.param('pipelineId')}.`);
    return c.json(p);
  });

  app.get('/crm/v3/pipelines/:objectType/:pipelineId/stages', (c) => {
    const p = pipelinesOf(typeParam(c)).find((x) => x.id === c.req.param('pipelineId'));
    if (!p) throw notFound(`Unable to find pipeline ${c.req.param('pipelineId')}.`);
    return c.json({ results: p.stages });
  });

  return app;
}
