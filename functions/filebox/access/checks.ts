import { invalidParameter } from '../../../shared/core/errors';
import type { PermissionInput } from './inputs';

/** Upload rights and upload notices apply to folders: refused on a file id (fi…) before the call. */
export function checkFolderOnly(itemId: string, p: PermissionInput): void {
  if (!itemId.toLowerCase().startsWith('fi')) return;
  for (const k of ['can_upload', 'notify_on_upload'] as const) {
    if (p[k]) throw invalidParameter(k, 'false or absent for a file (fi…)', `Invalid parameter "${k}": uploads go into folders; ${itemId} is a file.`);
  }
}
