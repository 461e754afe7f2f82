import { listed, type Listed } from '../../../shared/core/listed';
import type { SfAccessControl } from '../wire';

/** Access controls as the filebox tools return them (docs/spec.md#filebox-access-control), and the permission inputs they share. */

const FIELDS = ['Id', 'Principal', 'CanUpload', 'CanDownload', 'CanView', 'CanDelete', 'CanManagePermissions', 'NotifyOnUpload', 'NotifyOnDownload', 'IsOwner', 'odata.type', 'url'] as const;
const PRINCIPAL = ['odata.type', 'Id', 'url'] as const;
type Principal = SfAccessControl['Principal'];

/** Every field of docs/spec.md#filebox-access-control present (null when ShareFile gives none); the principal's name and email beside its fields when known. */
export type AccessControl = Omit<Listed<SfAccessControl, (typeof FIELDS)[number]>, 'Principal' | 'IsOwner'> & {
  Principal: Listed<Principal, (typeof PRINCIPAL)[number]> & Pick<Principal, 'Name' | 'Email'>;
  IsOwner: boolean;
};

export function toAccessControl(w: SfAccessControl): AccessControl {
  const { Name, Email } = w.Principal;
  return {
    ...listed(w, FIELDS),
    Principal: { ...listed(w.Principal, PRINCIPAL), ...(Name ? { Name } : {}), ...(Email ? { Email } : {}) },
    IsOwner: w.IsOwner ?? false,
  };
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

