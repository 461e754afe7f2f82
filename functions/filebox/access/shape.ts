import * as z from 'zod';
import type { SfAccessControl, SfAccessControlWrite } from '../wire';

/** Access controls as the filebox tools return them (docs/spec.md#filebox-access-control), and the permission inputs they share. */

export type AccessControl = Omit<SfAccessControl, 'Item'>;

export function toAccessControl(w: SfAccessControl): AccessControl {
  const { Id, Principal, CanUpload, CanDownload, CanView, CanDelete, CanManagePermissions, NotifyOnUpload, NotifyOnDownload, IsOwner, url } = w;
  return { Id, Principal, CanUpload, CanDownload, CanView, CanDelete, CanManagePermissions, NotifyOnUpload, NotifyOnDownload, IsOwner: IsOwner ?? false, 'odata.type': w['odata.type'], ...(url ? { url } : {}) };
}

const RIGHTS = [
  ['CanView', 'view'],
  ['CanDownload', 'download'],
  ['CanUpload', 'upload'],
  ['CanDelete', 'delete'],
  ['CanManagePermissions', 'manage permissions'],
] as const;

/** `user 1c9f… Daniel Ortiz <d@x.com>: view, download, upload; notify on upload`. */
export function accessLine(a: AccessControl): string {
  const p = a.Principal;
  const kind = /Group$/.test(p['odata.type'] ?? '') ? 'group' : 'user';
  const rights = RIGHTS.filter(([k]) => a[k]).map(([, label]) => label);
  const notify = [a.NotifyOnUpload ? 'upload' : '', a.NotifyOnDownload ? 'download' : ''].filter(Boolean);
  return `${kind} ${p.Id}${p.Name ? ` ${p.Name}` : ''}${p.Email ? ` <${p.Email}>` : ''}: ${rights.join(', ') || 'no rights'}${notify.length ? `; notify on ${notify.join(' and ')}` : ''}${a.IsOwner ? ' (owner)' : ''}`;
}

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
