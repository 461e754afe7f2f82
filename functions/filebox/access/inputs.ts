import * as z from 'zod';
import type { SfAccessControlWrite } from '../wire';

/** The permission and notification switches of create/update (docs/spec.md#filebox-access-control), each optional. */
export const permissionInputs = {
  can_view: z.boolean().optional().describe('See the item and list it (needed for any access).'),
  can_download: z.boolean().optional().describe('Download files.'),
  can_upload: z.boolean().optional().describe('Upload into the folder (folders only).'),
  can_delete: z.boolean().optional().describe('Delete items.'),
  can_manage_permissions: z.boolean().optional().describe('Change who has access.'),
  notify_on_download: z.boolean().optional().describe('Email the principal when files are downloaded.'),
  notify_on_upload: z.boolean().optional().describe('Email the principal when files are uploaded (folders only).'),
};

export type PermissionInput = { [K in keyof typeof permissionInputs]?: boolean };

/** The wire flags of the switches that were given. */
export function permissionBody(p: PermissionInput): Omit<SfAccessControlWrite, 'Principal'> {
  const map = {
    can_view: 'CanView', can_download: 'CanDownload', can_upload: 'CanUpload', can_delete: 'CanDelete', can_manage_permissions: 'CanManagePermissions',
    notify_on_download: 'NotifyOnDownload', notify_on_upload: 'NotifyOnUpload',
  } as const;
  const out: Record<string, boolean> = {};
  for (const [k, wire] of Object.entries(map)) {
    const v = p[k as keyof PermissionInput];
    if (v !== undefined) out[wire] = v;
  }
  return out;
}
