import { invalidParameter, ToolError } from '../../../shared/core/errors';
import { cached } from '../../../shared/core/cache';
import type { TapeAppWithFields, TapeRecord, TapeRecordPage } from '../wire';
import { findField, fieldKeyList, resolveFieldIds, toRecord, type AppRecord, type FieldSelection, type FieldTypes } from '../fields';
import type { NumberFormats } from '../apps/schema';
import type { Ctx } from './inputs';

/** Helpers the record tools share: record links, field selection, pages of records. */

const ORG_URL_TTL = 3600;

/**
 * The organization's web address (docs/vendors/tape.md#organization, `url`, e.g. https://tapeapp.com/tape), from
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
