import * as z from 'zod';
import { numericId } from '../../../shared/core/ids';
import { id } from '../../../shared/core/params';
import { fileIdsInput } from '../params';

/** Input fragments the task and label tools share (docs/spec.md#collab-task). */

export const DATE = /^\d{4}-\d\d-\d\d$/;
export const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
export const DATE_TIME = /^\d{4}-\d\d-\d\d ([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/** A real calendar date (2026-02-30 is not). */
export const realDate = (d: string): boolean => {
  const ms = Date.parse(`${d}T00:00:00Z`);
  return DATE.test(d) && Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === d;
};

export const taskIdInput = id('Numeric id of the task (getTasks lists them).');
export const labelIdInput = id('Numeric id of the label (getLabels lists them).');

const dateInput = z.string().regex(DATE, 'a date "YYYY-MM-DD"').refine(realDate, 'a real calendar date "YYYY-MM-DD"');

/** What a task element may set, on create and update (docs/spec.md#collab-task). */
export const taskFields = {
  text: z.string().trim().min(1).max(1_000).describe('The task title, e.g. "Call Northwind about the renewal".'),
  description: z.string().max(50_000).optional().describe('Longer notes on the task.'),
  due_date: dateInput.nullable().optional().describe('Due date "YYYY-MM-DD" (alone: due that day, no time). null clears the due date (update).'),
  due_time: z.string().regex(TIME, 'a time "HH:MM" or "HH:MM:SS"').optional().describe('Due time "HH:MM" in YOUR timezone (getUserStatus shows it), with due_date; converted to UTC.'),
  due_on: z
    .string()
    .regex(DATE_TIME, 'a date and time "YYYY-MM-DD HH:MM"')
    .refine((s) => realDate(s.slice(0, 10)), 'a real calendar date')
    .optional()
    .describe('Due date and time "YYYY-MM-DD HH:MM" in YOUR timezone (instead of due_date + due_time); converted to UTC.'),
  responsible: numericId().optional().describe('The user_id of who should do it (not the profile_id; getOrganizationMembers lists both). Default: you.'),
  ref_type: z.enum(['item', 'status', 'app', 'space', 'conversation']).optional().describe('What the task is attached to, with ref_id: usually "item".'),
  ref_id: numericId().optional().describe('The id of that object (for an item its global item_id).'),
  labels: z
    .array(z.union([z.number().int().positive(), z.string().trim().min(1).max(100)]))
    .max(20)
    .optional()
    .describe('Labels by id or by text (matched case-insensitively to your labels; a text you have no label for creates one, grey E9E9E9, as Podio does).'),
  file_ids: fileIdsInput,
  private: z.boolean().optional().describe('Only you and the responsible see it (default false).'),
  external_id: z.string().trim().min(1).max(200).optional().describe('Your own id for the task.'),
};

/**
 * A label colour: 6 hex digits. A leading "#" (as CSS writes it) is stripped rather than refused —
 * the intent is plain; Podio itself takes the digits alone.
 */
export const colorInput = z
  .string()
  .trim()
  .transform((s) => s.replace(/^#/, ''))
  .pipe(z.string().regex(/^[0-9A-Fa-f]{6}$/, 'a colour of 6 hex digits, e.g. "D2E4EB" (a leading # is stripped)'))
  .describe('Colour as 6 hex digits, e.g. "D2E4EB" (a leading "#" is stripped).');

export const labelTextInput = z.string().trim().min(1).max(100).describe('The label text, e.g. "Urgent".');
