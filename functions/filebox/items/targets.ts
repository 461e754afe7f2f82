import * as z from 'zod';
import { invalidParameter } from '../../../shared/core/errors';
import type { ShareFileClient } from '../client';
import { toItem, type Item } from '../render';

/** Helpers of the items group: where things may go, and name clashes at the target. */

/** The aliases that are listings, not folders: nothing can be created, copied or moved into them. */
const NOT_WRITABLE = new Set(['top', 'favorites', 'connectors']);

/** Refuses a target that is a listing alias, before the call. `allshared` takes folders only. */
export function checkTarget(parameter: string, folderId: string, o: { allowShared: boolean }): void {
  if (NOT_WRITABLE.has(folderId) || (folderId === 'allshared' && !o.allowShared)) {
    const allowed = o.allowShared ? 'a folder id, home, box or allshared' : 'a folder id, home or box';
    throw invalidParameter(parameter, allowed, `Invalid parameter "${parameter}": "${folderId}" is a listing of containers, not a folder that holds items. Pass ${allowed}.`);
  }
}

/** An OData string literal: quotes doubled. */
export const odataString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The live item named `name` in a folder (ShareFile compares names without case), if any. */
export async function findByName(client: ShareFileClient, folderId: string, name: string): Promise<Item | undefined> {
  const feed = await client.listChildren(folderId, { $filter: `Name eq ${odataString(name)}`, $top: 1 });
  const found = feed.value[0];
  return found ? toItem(found) : undefined;
}

/**
 * Before a write that places `name` in `folderId`: with overwrite false, an existing item of that
 * name is INVALID_PARAMETER naming it (id and kind), so nothing is sent; with overwrite true it is
 * returned for the caller to replace.
 */
export async function checkClash(client: ShareFileClient, folderId: string, name: string, o: { overwrite: boolean; parameter: string; what: string; self?: string }): Promise<Item | undefined> {
  const found = await findByName(client, folderId, name);
  // The item itself (a move into the folder it is already in) is no clash.
  const existing = found && found.Id !== o.self ? found : undefined;
  if (existing && !o.overwrite) {
    const kind = /Folder$/.test(existing['odata.type']) ? 'folder' : 'file';
    throw invalidParameter(
      o.parameter,
      `a name not used in the target folder, or overwrite: true`,
      `A ${kind} named "${existing.Name}" already exists in ${folderId} (${existing.Id}). Choose another name, or pass overwrite: true to ${o.what}.`,
      { existing_id: existing.Id, existing_name: existing.Name },
    );
  }
  return existing;
}

/** Characters ShareFile refuses in item names. */
export const nameInput = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine((v) => !/[\\/:*?"<>|]/.test(v), { message: 'a name without \\ / : * ? " < > |' })
    .describe(what);

