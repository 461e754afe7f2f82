import * as z from 'zod';
import { id } from '../../../shared/core/params';

/** Input fragments the comment tools share (docs/spec.md#collab-comment). */

export const refTypeInput = z.enum(['item', 'task', 'status']).describe('What the comment is on: "item", "task" or "status" (a status message).');
export const refIdInput = id('Numeric id of that object: the global item_id (not the number in an item URL), task_id or status_id.');
export const commentIdInput = id('Numeric id of the comment (getCommentsOnObject lists them).');

export const commentValueInput = z
  .string()
  .trim()
  .min(1)
  .max(100_000)
  .describe('The comment text; "\\n" breaks lines. Mention someone with @[Full Name](user:<user_id>) — the numeric user_id, not the profile_id (getOrganizationMembers lists both).');

export const embedUrlInput = z
  .url({ protocol: /^https?$/ })
  .max(2_000)
  .optional()
  .describe('A link to show with the comment as an embed (Podio fetches its title and preview), e.g. "https://example.com/offer".');

export const externalIdInput = z.string().trim().min(1).max(200).optional().describe('Your own id for the comment, e.g. the id in the system it comes from.');
