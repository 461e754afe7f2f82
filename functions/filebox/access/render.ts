import type { SfAccessControl } from '../wire';

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

