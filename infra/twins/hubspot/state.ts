import {
  associationType, defaultPropertyDefs, GROUPS, OBJECT_TYPES, PIPELINE_PROPS, PIPELINES, primaryAssociationType,
  type ObjectType, type Pipeline, type PropertyDef, type PropertyGroup,
} from './model';

/**
 * A record as the twin keeps it. Records are never changed in place (the seed's are shared by every
 * twin of the process): a write puts a new object in the twin's own map.
 */
export interface CrmRecord {
  readonly id: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Set when archived (soft-deleted). */
  readonly archivedAt?: number;
}

export interface HubSpotState {
  records: Record<ObjectType, Map<string, CrmRecord>>;
  properties: Record<ObjectType, Map<string, PropertyDef>>;
  groups: Record<ObjectType, PropertyGroup[]>;
  pipelines: Record<'deals' | 'tickets', readonly Pipeline[]>;
  /** `type/id` → `toType/toId` → association type ids (both directions are kept). */
  links: Map<string, Map<string, Set<number>>>;
  nextId: number;
}

export function emptyState(): HubSpotState {
  const defs = defaultPropertyDefs();
  const each = <T>(f: (t: ObjectType) => T) => Object.fromEntries(OBJECT_TYPES.map((t) => [t, f(t)])) as Record<ObjectType, T>;
  return {
    records: each(() => new Map()),
    properties: each((t) => new Map(defs[t].map((p) => [p.name, p]))),
    groups: each((t) => [...GROUPS[t]]),
    pipelines: PIPELINES,
    links: new Map(),
    nextId: 1001,
  };
}

/** A copy a twin may change without touching `s` (maps and sets copied; records and definitions are immutable). */
export function copyState(s: HubSpotState): HubSpotState {
  const each = <T>(f: (t: ObjectType) => T) => Object.fromEntries(OBJECT_TYPES.map((t) => [t, f(t)])) as Record<ObjectType, T>;
  const links = new Map<string, Map<string, Set<number>>>();
  for (const [k, m] of s.links) links.set(k, new Map([...m].map(([to, set]) => [to, new Set(set)])));
  return {
    records: each((t) => new Map(s.records[t])),
    properties: each((t) => new Map(s.properties[t])),
    groups: each((t) => [...s.groups[t]]),
    pipelines: s.pipelines,
    links,
    nextId: s.nextId,
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();

// ---------------------------------------------------------------------------------------------
// Property values: HubSpot's write rules (every value a string; enumerations by internal value).

/** One invalid property value, as HubSpot lists them in a VALIDATION_ERROR message. */
export interface ValueProblem {
  name: string;
  error: 'PROPERTY_DOESNT_EXIST' | 'INVALID_OPTION' | 'INVALID_INTEGER' | 'INVALID_BOOLEAN' | 'INVALID_DATE' | 'READ_ONLY_VALUE' | 'INVALID_PIPELINE_STAGE' | 'REQUIRED';
  message: string;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The stored form of one value, or the problem with it. `''` clears a property. */
function normalise(def: PropertyDef | undefined, name: string, raw: unknown, optionValues: () => string[] | undefined): string | ValueProblem {
  if (!def) return { name, error: 'PROPERTY_DOESNT_EXIST', message: `Property "${name}" does not exist` };
  if (def.modificationMetadata.readOnlyValue) return { name, error: 'READ_ONLY_VALUE', message: `"${name}" is a read only property; its value cannot be set.` };
  const value = raw === null || raw === undefined ? '' : String(raw);
  if (value === '') return '';
  switch (def.type) {
    case 'number':
      return NUMBER.test(value.trim()) ? value.trim() : { name, error: 'INVALID_INTEGER', message: `${JSON.stringify(value)} is not a valid number` };
    case 'bool': {
      const v = value.toLowerCase();
      return v === 'true' || v === 'false' ? v : { name, error: 'INVALID_BOOLEAN', message: `${JSON.stringify(value)} is not a valid boolean; use true or false` };
    }
    case 'date':
    case 'datetime': {
      const ms = /^\d+$/.test(value) ? Number(value) : DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
      if (!Number.isFinite(ms)) return { name, error: 'INVALID_DATE', message: `${JSON.stringify(value)} is not a valid date: use YYYY-MM-DD, ISO 8601 or epoch milliseconds` };
      if (def.type === 'date') {
        // Date properties hold midnight UTC (HubSpot refuses other times of day).
        if (ms % 86_400_000 !== 0) return { name, error: 'INVALID_DATE', message: `${JSON.stringify(value)} is not midnight UTC; date properties take a day` };
        return iso(ms).slice(0, 10);
      }
      return iso(ms);
    }
    case 'enumeration': {
      const allowed = optionValues();
      if (!allowed) return value;
      const parts = def.fieldType === 'checkbox' ? value.split(';') : [value];
      const bad = parts.find((p) => !allowed.includes(p));
      if (bad !== undefined) return { name, error: 'INVALID_OPTION', message: `${JSON.stringify(bad)} was not one of the allowed options: [${allowed.join(', ')}]` };
      return value;
    }
    default:
      return value;
  }
}

/**
 * Checks and normalises a write: the record's new property map, or the list of problems. Pipeline
 * and stage properties are checked against the type's pipelines (the stage must be one of the
 * pipeline's); deals get HubSpot's calculated probability and closed flag from the stage.
 */
export function applyWrite(
  state: HubSpotState,
  type: ObjectType,
  current: Readonly<Record<string, string>>,
  input: Record<string, unknown>,
  creating: boolean,
): { properties: Record<string, string> } | { problems: ValueProblem[] } {
  const defs = state.properties[type];
  const pp = PIPELINE_PROPS[type];
  const pipelines = type === 'deals' || type === 'tickets' ? state.pipelines[type] : [];
  const problems: ValueProblem[] = [];
  const next: Record<string, string> = { ...current };
  for (const [name, raw] of Object.entries(input)) {
    const def = defs.get(name);
    const options = () => {
      if (!def) return undefined;
      if (pp && name === pp.pipeline) return pipelines.map((p) => p.id);
      if (pp && name === pp.stage) return undefined; // checked below, against the pipeline
      if (def.options.length) return def.options.map((o) => o.value);
      return undefined;
    };
    const v = normalise(def?.archived ? undefined : def, name, raw, options);
    if (typeof v === 'string') next[name] = v;
    else problems.push(v);
  }
  if (pp && problems.length === 0) {
    if (creating && !next[pp.pipeline]) next[pp.pipeline] = pipelines[0]!.id;
    const pipeline = pipelines.find((p) => p.id === next[pp.pipeline]);
    const stage = next[pp.stage];
    if (pipeline && creating && !stage) {
      if (type === 'tickets') problems.push({ name: pp.stage, error: 'REQUIRED', message: `${pp.stage} is required` });
      else next[pp.stage] = pipeline.stages[0]!.id;
    }
    const s = pipeline?.stages.find((x) => x.id === next[pp.stage]);
    if (pipeline && next[pp.stage] && !s) {
      problems.push({
        name: pp.stage, error: 'INVALID_PIPELINE_STAGE',
        message: `${JSON.stringify(next[pp.stage])} is not a valid stage of pipeline ${pipeline.id}: [${pipeline.stages.map((x) => x.id).join(', ')}]`,
      });
    }
    if (type === 'deals' && s) {
      next.hs_deal_stage_probability = s.metadata.probability ?? '0';
      next.hs_is_closed = s.metadata.isClosed ?? 'false';
    }
  }
  if (problems.length) return { problems };
  for (const [k, v] of Object.entries(next)) if (v === '') delete next[k];
  return { properties: next };
}

/** A new record (checked like any write); `at` is the twin's clock. */
export function insertRecord(state: HubSpotState, type: ObjectType, input: Record<string, unknown>, at: number): CrmRecord | { problems: ValueProblem[] } {
  const out = applyWrite(state, type, {}, input, true);
  if ('problems' in out) return out;
  const id = String(state.nextId++);
  const rec: CrmRecord = { id, properties: withSystem(type, out.properties, id, at, at), createdAt: at, updatedAt: at };
  state.records[type].set(id, rec);
  return rec;
}

export function updateRecord(state: HubSpotState, type: ObjectType, rec: CrmRecord, input: Record<string, unknown>, at: number): CrmRecord | { problems: ValueProblem[] } {
  const out = applyWrite(state, type, rec.properties, input, false);
  if ('problems' in out) return out;
  const next: CrmRecord = { ...rec, properties: withSystem(type, out.properties, rec.id, rec.createdAt, at), updatedAt: at };
  state.records[type].set(rec.id, next);
  return next;
}

/** HubSpot-maintained values every record carries. */
function withSystem(type: ObjectType, props: Record<string, string>, id: string, created: number, updated: number): Record<string, string> {
  const modified = type === 'contacts' ? 'lastmodifieddate' : 'hs_lastmodifieddate';
  return { ...props, hs_object_id: id, createdate: iso(created), [modified]: iso(updated) };
}

// ---------------------------------------------------------------------------------------------
// Associations

const node = (type: ObjectType, id: string) => `${type}/${id}`;

function addOne(state: HubSpotState, from: string, to: string, typeId: number): boolean {
  let m = state.links.get(from);
  if (!m) state.links.set(from, (m = new Map()));
  let set = m.get(to);
  if (!set) m.set(to, (set = new Set()));
  if (set.has(typeId)) return false;
  set.add(typeId);
  return true;
}

/** Links two records with a type (and its inverse); false when they already were linked with it. */
export function associate(state: HubSpotState, from: ObjectType, fromId: string, to: ObjectType, toId: string, typeId: number): boolean {
  const t = associationType(from, to, typeId);
  if (!t) throw new Error(`no association type ${typeId} from ${from} to ${to}`);
  // A record has one primary company: labelling another one primary takes the label from the old one.
  if (t.label === 'Primary') {
    for (const [key, set] of state.links.get(node(from, fromId)) ?? []) {
      if (key === node(to, toId) || !set.delete(typeId)) continue;
      state.links.get(key)?.get(node(from, fromId))?.delete(t.inverse);
    }
  }
  const added = addOne(state, node(from, fromId), node(to, toId), typeId);
  addOne(state, node(to, toId), node(from, fromId), t.inverse);
  return added;
}

/** Removes every type between two records (both directions). */
export function dissociate(state: HubSpotState, from: ObjectType, fromId: string, to: ObjectType, toId: string): void {
  state.links.get(node(from, fromId))?.delete(node(to, toId));
  state.links.get(node(to, toId))?.delete(node(from, fromId));
}

/** The records of `to` linked to a record, with their type ids, in id order. */
export function linksOf(state: HubSpotState, from: ObjectType, fromId: string, to: ObjectType): { toId: string; typeIds: number[] }[] {
  const m = state.links.get(node(from, fromId));
  if (!m) return [];
  const out: { toId: string; typeIds: number[] }[] = [];
  for (const [key, set] of m) {
    const [t, id] = key.split('/') as [string, string];
    if (t === to && set.size > 0 && !state.records[to].get(id)?.archivedAt) out.push({ toId: id, typeIds: [...set].sort((a, b) => a - b) });
  }
  return out.sort((a, b) => Number(a.toId) - Number(b.toId));
}

/** Links a record to a company as its primary company (and the unlabeled default type). */
export function linkPrimaryCompany(state: HubSpotState, from: ObjectType, fromId: string, companyId: string): void {
  const primary = primaryAssociationType(from, 'companies');
  if (!primary) return;
  associate(state, from, fromId, 'companies', companyId, primary.typeId);
  const plain = state.links.get(node(from, fromId))?.get(node('companies', companyId));
  const unlabeled = { contacts: 279, deals: 341, tickets: 339 }[from as 'contacts'];
  if (unlabeled && plain && !plain.has(unlabeled)) associate(state, from, fromId, 'companies', companyId, unlabeled);
}

/**
 * A contact's `company` value: the company of that name (case-insensitive, not archived), or a new
 * one, linked as the contact's primary company. HubSpot does this from the contact's email domain
 * ("automatically create and associate companies"); the service's spec asks it of `company`.
 */
export function companyForContact(state: HubSpotState, contactId: string, name: string, at: number): CrmRecord | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  let company = [...state.records.companies.values()].find((c) => !c.archivedAt && (c.properties.name ?? '').toLowerCase() === wanted);
  if (!company) {
    const made = insertRecord(state, 'companies', { name: name.trim() }, at);
    if ('problems' in made) return undefined;
    company = made;
  }
  linkPrimaryCompany(state, 'contacts', contactId, company.id);
  return company;
}
