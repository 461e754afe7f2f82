import { invalidParameter } from '../../../shared/core/errors';
import type { ToolContext } from '../../../shared/core/tool';
import type { HubSpotClient } from '../client';
import type { HubSpotPipeline } from '../wire';
import { catalog, closeMatches, pipelines, type Catalog, type PropInfo } from './catalog';
import type { ObjectKind } from './kinds';

type Ctx = ToolContext<HubSpotClient>;

/** A value as callers may give it: strings as HubSpot wants them, or numbers, booleans and arrays (multi-select) for convenience. */
export type InputValue = string | number | boolean | string[] | null;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const optionList = (p: PropInfo) => p.options.map((o) => (o.label && o.label !== o.value ? `${o.value} (${o.label})` : o.value)).join(', ');

/** An unknown property name: INVALID_PARAMETER with the close matches. */
export function unknownProperty(parameter: string, name: string, c: Catalog): never {
  const close = closeMatches(name, c);
  throw invalidParameter(
    parameter,
    `a property of ${c.type}`,
    `${parameter}: ${c.type} have no property "${name}"${close.length ? `; close matches: ${close.join(', ')}` : ''}. getProperties with object_type "${c.type}" lists them all (HubSpot's hs_/hubspot_ names are written crm_).`,
    { close_matches: close },
  );
}

/** An option's internal value: the value itself, or the value whose label (or value) matches case-insensitively. */
function optionValue(p: PropInfo, raw: string, parameter: string): string {
  if (p.options.some((o) => o.value === raw)) return raw;
  const lower = raw.trim().toLowerCase();
  const found = p.options.find((o) => o.label.toLowerCase() === lower) ?? p.options.find((o) => o.value.toLowerCase() === lower);
  if (found) return found.value;
  throw invalidParameter(parameter, `one of the options of ${p.name}`, `${parameter}: "${raw}" is not an option of ${p.name}; use one of: ${optionList(p)}.`, {
    options: p.options.map((o) => o.value),
  });
}

/** Epoch milliseconds of a date value: `YYYY-MM-DD`, Unix ms, or an ISO 8601 date-time (datetime properties). */
function dateMs(p: PropInfo, raw: string | number, parameter: string): string {
  const s = String(raw).trim();
  const ms = /^\d+$/.test(s) ? Number(s) : DAY.test(s) ? Date.parse(`${s}T00:00:00Z`) : p.type === 'datetime' ? Date.parse(s) : NaN;
  if (!Number.isFinite(ms)) {
    throw invalidParameter(parameter, `a date: YYYY-MM-DD or Unix milliseconds${p.type === 'datetime' ? ' (or ISO 8601)' : ''}`, `${parameter}: "${s}" is not a date; write it as YYYY-MM-DD (e.g. 2026-12-15) or Unix milliseconds.`);
  }
  if (p.type === 'date' && ms % 86_400_000 !== 0) throw invalidParameter(parameter, 'a day at midnight UTC', `${parameter}: ${p.name} holds a day; give YYYY-MM-DD or the Unix milliseconds of midnight UTC.`);
  return String(ms);
}

/** One value in HubSpot's string form, checked against its definition. */
export function wireValue(p: PropInfo, raw: InputValue, parameter: string): string {
  if (raw === null) return '';
  if (Array.isArray(raw)) {
    if (p.fieldType !== 'checkbox') throw invalidParameter(parameter, `a single value for ${p.name}`, `${parameter}: ${p.name} takes one value, not a list.`);
    return raw.map((v, i) => optionValue(p, v, `${parameter}[${i}]`)).join(';');
  }
  switch (p.type) {
    case 'enumeration': {
      const s = String(raw);
      if (p.fieldType === 'checkbox') return s.split(';').map((v) => optionValue(p, v.trim(), parameter)).join(';');
      if (!p.options.length) return s; // options kept elsewhere (owners, pipelines): checked by HubSpot or by the pipeline check
      return optionValue(p, typeof raw === 'boolean' ? String(raw) : s, parameter);
    }
    case 'number': {
      const s = String(raw).trim();
      if (typeof raw === 'boolean' || !/^-?\d+(\.\d+)?$/.test(s)) throw invalidParameter(parameter, 'a number', `${parameter}: "${s}" is not a number (digits, optional minus and decimals, e.g. 12000.50).`);
      return s;
    }
    case 'bool': {
      const s = String(raw).toLowerCase();
      if (s !== 'true' && s !== 'false') throw invalidParameter(parameter, 'true or false', `${parameter}: "${String(raw)}" is not a boolean; give true or false.`);
      return s;
    }
    case 'date':
    case 'datetime':
      if (typeof raw === 'boolean') throw invalidParameter(parameter, 'a date', `${parameter}: a date is expected, not a boolean.`);
      return dateMs(p, raw, parameter);
    default:
      // Text: numbers and booleans are written as HubSpot stores them, strings.
      return String(raw);
  }
}

/** A pipeline by id or label. */
function findPipeline(list: HubSpotPipeline[], raw: string, parameter: string): HubSpotPipeline {
  const lower = raw.toLowerCase();
  const p = list.find((x) => x.id === raw) ?? list.find((x) => x.label.toLowerCase() === lower);
  if (!p) {
    throw invalidParameter(parameter, 'a pipeline id', `${parameter}: no pipeline "${raw}"; use one of: ${list.map((x) => `${x.id} (${x.label})`).join(', ')}. getPipelines lists them with their stages.`);
  }
  return p;
}

export interface CheckedValues {
  /** HubSpot's names and string values, ready to send. */
  properties: Record<string, string>;
  /** The crm_ names that were set (for the answer). */
  names: string[];
}

/**
 * `values` checked against the object's property definitions before anything is sent: names
 * (crm_ → HubSpot's), read-only properties, option values (labels mapped to values), numbers,
 * booleans, dates, multi-selects, required properties on create, and the stage against its
 * pipeline. `current` is the record's pipeline for an update that changes only the stage.
 */
export async function checkValues(
  ctx: Ctx,
  kind: ObjectKind,
  values: Record<string, InputValue>,
  mode: { create: true } | { create: false; id: string },
): Promise<CheckedValues> {
  const c = await catalog(ctx, kind.type);
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(values)) {
    const parameter = `values.${name}`;
    const p = c.byName.get(name);
    if (!p) unknownProperty(parameter, name, c);
    if (p.readOnly) throw invalidParameter(parameter, 'a writable property', `${parameter}: ${name} is computed by HubSpot and cannot be set; leave it out.`);
    out[p.wire] = wireValue(p, raw, parameter);
    if (name === 'email' && kind.type === 'contacts' && out[p.wire] !== '' && !EMAIL.test(out[p.wire]!)) {
      throw invalidParameter(parameter, 'an email address', `${parameter}: "${out[p.wire]}" is not an email address.`);
    }
  }
  if (mode.create) {
    for (const r of kind.required.all ?? []) {
      if (!values[r] && values[r] !== 0) throw invalidParameter(`values.${r}`, `${r} (required)`, `values.${r} is required to create a ${kind.singular}.`);
    }
    if (kind.required.anyOf && !kind.required.anyOf.some((r) => values[r])) {
      throw invalidParameter('values', `one of ${kind.required.anyOf.join(', ')}`, `values needs at least one of ${kind.required.anyOf.join(', ')} to create a ${kind.singular}.`);
    }
  }
  if (kind.pipeline) await checkStage(ctx, kind, c, values, out, mode);
  return { properties: out, names: Object.keys(values) };
}

/** The stage must belong to the record's pipeline; ids or labels accepted; on create, the first pipeline and its first stage by default. */
async function checkStage(ctx: Ctx, kind: ObjectKind, c: Catalog, values: Record<string, InputValue>, out: Record<string, string>, mode: { create: boolean; id?: string }) {
  const pp = kind.pipeline!;
  const pipelineWire = c.names.toWire(pp.pipeline)!;
  const stageWire = c.names.toWire(pp.stage)!;
  const givenPipeline = values[pp.pipeline];
  const givenStage = values[pp.stage];
  if (!mode.create && (givenPipeline === undefined || givenPipeline === null) && (givenStage === undefined || givenStage === null)) return;
  const list = await pipelines(ctx, kind.type as 'deals' | 'tickets');
  let pipeline: HubSpotPipeline;
  if (givenPipeline !== undefined && givenPipeline !== null && givenPipeline !== '') pipeline = findPipeline(list, String(givenPipeline), `values.${pp.pipeline}`);
  else if (mode.create) pipeline = [...list].sort((a, b) => a.displayOrder - b.displayOrder)[0]!;
  else {
    // Only the stage changes: it must be a stage of the pipeline the record is in.
    const rec = await ctx.client.getRecord(kind.type, mode.id!, [pipelineWire]);
    pipeline = findPipeline(list, rec.properties[pipelineWire] ?? list[0]!.id, `values.${pp.pipeline}`);
  }
  out[pipelineWire] = pipeline.id;
  const stages = pipeline.stages.map((s) => `${s.id} (${s.label})`).join(', ');
  if (givenStage === undefined || givenStage === null || givenStage === '') {
    if (mode.create) out[stageWire] = [...pipeline.stages].sort((a, b) => a.displayOrder - b.displayOrder)[0]!.id;
    else throw invalidParameter(`values.${pp.stage}`, `a stage of pipeline ${pipeline.id}`, `values.${pp.stage}: moving to pipeline ${pipeline.id} (${pipeline.label}) needs a stage of it: ${stages}.`);
    return;
  }
  const raw = String(givenStage);
  const stage = pipeline.stages.find((s) => s.id === raw) ?? pipeline.stages.find((s) => s.label.toLowerCase() === raw.toLowerCase());
  if (!stage) {
    // A stage of another pipeline: the caller means to move the record there, and must say so.
    const elsewhere = list.find((p) => p.id !== pipeline.id && p.stages.some((s) => s.id === raw || s.label.toLowerCase() === raw.toLowerCase()));
    const hint = elsewhere
      ? `"${raw}" is a stage of pipeline ${elsewhere.id} (${elsewhere.label}), not of pipeline ${pipeline.id} (${pipeline.label})${givenPipeline ? '' : ` the ${kind.singular} ${mode.create ? 'would go to' : 'is in'}`}; to move it there pass ${pp.pipeline}: "${elsewhere.id}" too, or use a stage of ${pipeline.id}: ${stages}.`
      : `"${raw}" is not a stage of pipeline ${pipeline.id} (${pipeline.label}); use one of: ${stages}.`;
    throw invalidParameter(`values.${pp.stage}`, `a stage of pipeline ${pipeline.id}`, `values.${pp.stage}: ${hint}`, {
      stages: pipeline.stages.map((s) => s.id),
      ...(elsewhere ? { stage_pipeline: elsewhere.id } : {}),
    });
  }
  out[stageWire] = stage.id;
}
