import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../shared/errors';
import { cached } from '../../../shared/cache';
import type { ToolContext } from '../../../shared/tool';
import type { TapeClient } from '../client';
import type { TapeAppWithFields, TapeRecord, TapeRecordPage } from '../wire';
import { findField, fieldKeyList, resolveFieldIds, toRecord, type AppRecord, type FieldSelection, type FieldTypes } from '../fields';
import { fieldKeys, fieldKinds, id, page } from '../../../shared/params';
import { pageCursor } from '../params';
import type { NumberFormats } from '../apps/schema';

/** Parameters and helpers the record tools share. */

export type Ctx = ToolContext<TapeClient>;

export const recordId = id('Numeric id of the record (from listRecords, filterRecords or createRecord).');
export const recordAppId = id('Numeric id of the app the records belong to (from listApps).');

export const FIELDS_HELP =
  'Field values keyed by external_id or numeric field_id (see getApp). By type: text/multi_text string; number number ' +
  '(money {"value": "1250.50", "currency": "EUR"} on a number field whose unit is that currency); single/multi_category and status ' +
  'option ids or option texts, e.g. ["Won"]; single_date "YYYY-MM-DD HH:MM:SS" (a plain string, time required, 00:00:00 for a date only — not {"start": …}); ' +
  'range_date {"start", "end"} in the same form; single/multi_relation record ids; single/multi_user user ids; attachment file ids or https URLs ' +
  '(uploaded for you); multi_email [{"type": work|home|other, "email"}]; multi_phone [{"type": work|mobile|home|other, "phone"}]; ' +
  'multi_link [{"url", "title"}]; checklist [{"title", "completed", "description", "due" ("YYYY-MM-DD" or "YYYY-MM-DD HH:MM"), "assignee" (user id), "id"}]; ' +
  'single_location an address string. null clears a field. Calculation, unique id and created/modified fields are read-only.';

export const fieldsInput = z.record(z.string(), z.unknown()).describe(FIELDS_HELP);

export const fieldIdsInput = fieldKeys('Return only these fields, by field_id or external_id (e.g. [9001, "status"]); default all.');
export const fieldTypesInput = fieldKinds('all (default), basic = every field but calculations, calculation = only calculation fields.');
export const verboseInput = z.boolean().default(false).describe('Text output with field ids, external ids and types, user/file ids and record metadata (default false).');

export const silentInput = z.boolean().default(false).describe('Suppress notifications for this change (default false).');
export const hookInput = z.boolean().default(true).describe('Run the app\'s webhooks for this change (default true).');
export const workflowInput = z.boolean().default(true).describe('Trigger automations for this change (default true).');

/** docs/spec.md#dbapp-record, #limits: listRecords (and filterRecords, its sibling) page 100 records by default, 500 at most. */
export const limitInput = page({ default: 100, max: 500, what: 'Records per page' });
export const cursorInput = pageCursor();
export const sortByInput = z
  .union([z.number().int().positive(), z.string().min(1)])
  .optional()
  .describe('Sort by this field (field_id or external_id); default newest first.');
export const sortDescInput = z.boolean().optional().describe('Sort descending (default false); with sort_by.');

const ORG_URL_TTL = 3600;

/**
 * The organization's web address (docs/vendors/tape.md#organization `url`, e.g. https://tapeapp.com/tape), from
 * which record links are built: `<url>/record/<record_id>`. Cached for an hour per key.
 */
export async function orgUrl(ctx: Pick<Ctx, 'client' | 'store' | 'keyHash'>): Promise<string> {
  return cached(ctx, 'dbapp:org_url', ORG_URL_TTL, async () => {
    const org = await ctx.client.getOrganization();
    return org.url || `https://tapeapp.com/${org.slug}`;
  });
}

/** The field a sort_by names, as the external_id Tape's listing takes. */
export function sortField(app: TapeAppWithFields, key: number | string): string {
  const f = findField(app, key);
  if (!f) throw invalidParameter('sort_by', `a field_id or external_id of app ${app.app_id}`, `Parameter "sort_by": ${JSON.stringify(key)} is not a field of app ${app.app_id} "${app.name}". Valid keys: ${fieldKeyList(app.fields)}.`);
  return f.external_id;
}

/** field_ids + field_types → the selection applied to each record. */
export function selection(app: TapeAppWithFields | undefined, fieldIds: readonly (number | string)[] | undefined, types: FieldTypes): FieldSelection {
  return { types, ...(app && fieldIds ? { ids: resolveFieldIds(app, fieldIds) } : {}) };
}

/** A listing of records as the spec returns it; `cursor` only while a next page exists (a full page). */
export interface RecordPage {
  total: number;
  cursor: string | null;
  records: AppRecord[];
}

/** Tape's page → ours: the end is a page shorter than `limit` (docs/vendors/tape.md#pagination), whatever Tape's cursor says. */
export function toPage(page: TapeRecordPage, limit: number, url: string, select: FieldSelection, appId?: number, formats?: NumberFormats): RecordPage {
  const more = page.records.length >= limit && typeof page.cursor === 'string' && page.cursor !== '';
  return {
    total: page.total,
    cursor: more ? page.cursor : null,
    records: page.records.map((r) => toRecord(r, url, { select, formats, ...(appId !== undefined ? { appId } : {}) })),
  };
}

/** The app a record of Tape's answer belongs to. */
export function appIdOf(record: TapeRecord): number {
  const appId = record.app?.app_id;
  if (typeof appId !== 'number') {
    throw new ToolError('INTERNAL_ERROR', `Tape's answer for record ${record.record_id} names no app; its field values cannot be checked.`, { upstream_status: 200 });
  }
  return appId;
}
