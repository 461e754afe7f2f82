import * as z from 'zod';
import type { ToolContext } from '../../../shared/core/tool';
import type { TapeClient } from '../client';
import { fieldKeys, fieldKinds, id, page } from '../../../shared/core/params';
import { pageCursor } from '../params';

/** The zod fragments of the record tools' parameters. */

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

