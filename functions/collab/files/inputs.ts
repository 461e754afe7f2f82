import * as z from 'zod';
import { id } from '../../../shared/core/params';
import { invalidParameter } from '../../../shared/core/errors';

/** Input fragments the file tools share (docs/spec.md#collab-file). */

export const fileIdInput = id('Numeric Podio file_id (uploadFile, getFile or getFilesOnApp list them).');

/** Podio's file ids are numbers; a UUID (another platform's file id) or any text is refused before Podio is called. */
export const looseFileIdInput = z
  .union([z.number(), z.string()])
  .describe('Numeric Podio file_id from uploadFile (a number such as 60015) — never a UUID or another platform\'s file id.');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A numeric file id from a number or a string of digits; anything else is INVALID_PARAMETER naming `parameter`. */
export function numericFileId(value: number | string, parameter: string): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (Number.isSafeInteger(n) && n > 0) return n;
  const what = typeof value === 'string' && UUID.test(value.trim()) ? 'a UUID' : JSON.stringify(value);
  throw invalidParameter(
    parameter,
    'a positive integer Podio file id',
    `Parameter "${parameter}": ${what} is not a Podio file id. Podio's file ids are numbers: upload the file with uploadFile (or uploadFiles) and use the numeric file_id it returns.`,
  );
}

export const fileRefTypes = ['item', 'comment', 'status', 'space', 'task'] as const;

export const fileListInput = {
  attached_to: z.enum(['item', 'status', 'task', 'space']).optional().describe('Only files attached to this kind of object.'),
  filetype: z.enum(['image', 'application', 'video', 'text', 'audio']).optional().describe('Only files of this media type family (e.g. "image" for PNG/JPG, "application" for PDF/Office files).'),
  limit: z.number().int().min(1).max(100).default(20).describe('Files per page, 1-100 (default 20).'),
  offset: z.number().int().min(0).default(0).describe('Files to skip before the page starts (default 0).'),
  sort_by: z.enum(['name', 'created_on']).optional().describe('Order by name or by upload time (default: newest first).'),
  sort_desc: z.boolean().optional().describe('Descending order (default true for created_on, false for name).'),
};
