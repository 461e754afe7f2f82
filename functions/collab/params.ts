import * as z from 'zod';
import type { ToolContext } from '../../shared/core/tool';
import { id } from '../../shared/core/params';
import type { PodioClient } from './client';

/** Input fragments the collab tools share (docs/spec.md#collab-podio). */

export type Ctx = ToolContext<PodioClient>;

export const appIdInput = id('Numeric id of the app (getAppsBySpace lists them; getOrganizations finds the spaces).');
export const itemIdInput = id('Global numeric item_id (from filterItems or createItem) — not the number in an item URL, which is the app-scoped app_item_id.');

export const silentInput = z.boolean().default(false).describe('Suppress notifications and the activity stream for this change (default false).');
export const hookInput = z.boolean().default(true).describe("Run the app's hooks (webhooks) for this change (default true).");

/** File ids already in Podio, or https URLs the service downloads and uploads for you. */
export const fileIdsInput = z
  .array(z.union([z.number().int().positive(), z.string().min(1)]))
  .max(50)
  .optional()
  .describe('Files to attach: ids of new, unattached Podio files (uploadFile) or https URLs (downloaded and uploaded for you). A file already attached elsewhere must be copied first (copyFile).');
