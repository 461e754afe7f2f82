import { API, SF_HOST, entityUrl, forbidden, MODELS, notFound, type Json, type SfContext } from './http';
import { ancestors, descendants, fullName, liveChildren, type SfAcl, type SfGroup, type SfItem, type SfShare, type SfState, type SfUser } from './state';

/** Access rights of a user on an item (docs/vendors/sharefile.md#access-controls): what access controls grant, inherited down the tree. */
export interface Perms {
  view: boolean;
  download: boolean;
  upload: boolean;
  delete: boolean;
  manage: boolean;
  owner: boolean;
}

const ALL: Perms = { view: true, download: true, upload: true, delete: true, manage: true, owner: true };
const NONE: Perms = { view: false, download: false, upload: false, delete: false, manage: false, owner: false };

/** The alias roots that are no folder of their own. */
export const VIRTUAL_ROOTS = { top: 'Top', allshared: 'Shared Folders', favorites: 'Favorites', connectors: 'Connectors' } as const;
export type VirtualRoot = keyof typeof VIRTUAL_ROOTS;
export const isVirtualRoot = (id: string): id is VirtualRoot => id in VIRTUAL_ROOTS;

export const groupsOf = (state: SfState, userId: string) => [...state.groups.values()].filter((g) => g.memberIds.includes(userId));

/**
 * Admins have every right (they manage the account). Otherwise, walking up from the item: the
 * owner of a home folder or creator of an item has every right below it; the first item carrying
 * access controls for the user or one of the user's groups decides (their rights OR-combined).
 */
export function perms(state: SfState, user: SfUser, item: SfItem): Perms {
  if (user.admin) return ALL;
  const principals = new Set([user.id, ...groupsOf(state, user.id).map((g) => g.id)]);
  for (const cur of [item, ...ancestors(state, item)]) {
    if (cur.creatorId === user.id || cur.homeOf === user.id || cur.boxOf === user.id) return ALL;
    const entries = [...(state.acls.get(cur.id)?.values() ?? [])].filter((a) => principals.has(a.principalId));
    if (entries.length) {
      const any = (k: keyof SfAcl) => entries.some((e) => e[k] === true);
      return { view: any('canView'), download: any('canDownload'), upload: any('canUpload'), delete: any('canDelete'), manage: any('canManagePermissions'), owner: false };
    }
  }
  return NONE;
}

/** The item a request names: an id or an alias (`home`, `box`); the virtual roots are answered apart. */
export function resolveItem(state: SfState, user: SfUser, key: string, includeDeleted = false): SfItem {
  const alias = key.toLowerCase();
  if (alias === 'home' || alias === 'box') {
    const id = alias === 'home' ? user.homeId : user.boxId;
    if (!id) throw notFound(`Client users have no ${alias === 'home' ? 'home folder' : 'File Box'}.`);
    return state.items.get(id)!;
  }
  const item = state.items.get(key);
  if (!item || (item.deleted && !includeDeleted)) throw notFound(`Item ${key} not found.`);
  return item;
}

/** The item, checked for `right`: 403 when the caller lacks it. */
export function itemWith(state: SfState, user: SfUser, key: string, right: keyof Perms, includeDeleted = false): SfItem {
  const item = resolveItem(state, user, key, includeDeleted);
  if (!perms(state, user, item)[right]) {
    const what = { view: 'view', download: 'download', upload: 'upload to', delete: 'delete', manage: 'manage permissions of', owner: 'own' }[right];
    throw forbidden(`You do not have permission to ${what} this item.`);
  }
  return item;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export { iso };

function itemPath(state: SfState, item: SfItem): string {
  const chain = [item, ...ancestors(state, item)].reverse();
  const root = chain[0]!;
  const top = root.parentId === 'allshared' ? '/Shared Folders' : '/Personal Folders';
  return `${top}/${chain.map((i) => i.name).join('/')}`;
}

function treeSize(state: SfState, item: SfItem): number {
  if (item.kind === 'file') return item.content?.length ?? 0;
  return descendants(state, item.id).reduce((n, d) => n + (d.kind === 'file' ? (d.content?.length ?? 0) : 0), 0);
}

const parentRef = (c: SfContext, id: string) => ({ 'odata.type': `${MODELS}.Folder`, Id: id, url: entityUrl(c, 'Items', id) });

/**
 * The item properties a feed's `$filter` and `$orderby` may name: what renderItem writes (Item's,
 * Folder's FileCount and Info, File's Hash and Version), less `url`. Naming another answers 400.
 */
export const ITEM_PROPERTIES = [
  'Id', 'Name', 'FileName', 'CreationDate', 'ProgenyEditDate', 'Description', 'Path', 'CreatorFirstName', 'CreatorLastName', 'CreatorNameShort',
  'FileSizeBytes', 'FileSizeInKB', 'State', 'StreamID', 'ExpirationDate', 'HasPendingDeletion', 'HasMultipleVersions', 'IsHidden', 'Parent',
  'FileCount', 'Info', 'Hash', 'Version',
] as const;

/** An item as ShareFile renders it (docs/vendors/sharefile.md#items): Folder or File, with the caller's rights in Info. */
export function renderItem(c: SfContext, state: SfState, user: SfUser, item: SfItem): Json {
  const creator = state.users.get(item.creatorId);
  const p = perms(state, user, item);
  const size = treeSize(state, item);
  const all = item.kind === 'folder' ? descendants(state, item.id) : [];
  const edited = Math.max(item.edited, ...all.map((d) => d.edited));
  const versions = item.kind === 'file' ? [...state.items.values()].filter((o) => o.streamId === item.streamId && !o.deleted).length : 0;
  const out: Json = {
    'odata.type': `${MODELS}.${item.kind === 'folder' ? 'Folder' : 'File'}`,
    Id: item.id,
    url: entityUrl(c, 'Items', item.id),
    Name: item.name,
    FileName: item.name,
    CreationDate: iso(item.created),
    ProgenyEditDate: iso(edited),
    Description: item.description,
    Path: itemPath(state, item),
    CreatorFirstName: creator?.firstName ?? '',
    CreatorLastName: creator?.lastName ?? '',
    CreatorNameShort: creator ? `${creator.firstName} ${creator.lastName.slice(0, 1)}.` : '',
    FileSizeBytes: size,
    FileSizeInKB: Math.ceil(size / 1024),
    State: 0,
    StreamID: item.streamId,
    ExpirationDate: item.expiration ?? '9999-12-31T23:59:59.997Z',
    HasPendingDeletion: item.deleted,
    HasMultipleVersions: versions > 1,
    IsHidden: false,
    Parent: parentRef(c, item.parentId),
  };
  if (item.kind === 'folder') {
    out.FileCount = all.filter((d) => d.kind === 'file').length;
    out.Info = {
      IsAHomeFolder: Boolean(item.homeOf),
      IsMyHomeFolder: item.homeOf === user.id,
      IsSharedFolder: item.parentId === 'allshared',
      CanUpload: p.upload,
      CanDownload: p.download,
      CanView: p.view,
      CanDeleteCurrentItem: p.delete && !item.homeOf && !item.boxOf,
      CanManagePermissions: p.manage,
    };
  } else {
    out.Hash = item.hash ?? '';
    out.Version = item.version;
  }
  return out;
}

/** The children of a virtual root the caller may see. */
export function virtualChildren(state: SfState, user: SfUser, root: VirtualRoot): SfItem[] {
  if (root === 'top') return [user.homeId, user.boxId].filter((id): id is string => Boolean(id)).map((id) => state.items.get(id)!);
  if (root === 'allshared') {
    // The shared folders the user can open at their highest level: a client given access to a
    // subfolder sees that subfolder here, not the parents they cannot open.
    return [...state.items.values()].filter((i) => {
      if (i.kind !== 'folder' || i.deleted || i.homeOf || i.boxOf || !perms(state, user, i).view) return false;
      const chain = ancestors(state, i);
      const root = chain.length ? chain[chain.length - 1]! : i;
      if (root.parentId !== 'allshared') return false;
      const parent = state.items.get(i.parentId);
      return !parent || !perms(state, user, parent).view;
    });
  }
  if (root === 'favorites') {
    return [...(state.favorites.get(user.id) ?? [])]
      .map((id) => state.items.get(id))
      .filter((i): i is SfItem => Boolean(i && !i.deleted && perms(state, user, i).view));
  }
  return [];
}

/** A virtual root as a Folder entity (`Items(allshared)`, `Items(top)`…). */
export function renderRoot(c: SfContext, state: SfState, user: SfUser, root: VirtualRoot): Json {
  const canUpload = root === 'allshared' && user.employee && user.canCreateFolders;
  return {
    'odata.type': `${MODELS}.Folder`,
    Id: root,
    url: entityUrl(c, 'Items', root),
    Name: VIRTUAL_ROOTS[root],
    FileName: VIRTUAL_ROOTS[root],
    CreationDate: '2024-01-15T09:00:00Z',
    ProgenyEditDate: '2024-01-15T09:00:00Z',
    Description: '',
    Path: '/',
    FileSizeBytes: 0,
    State: 0,
    Parent: parentRef(c, 'top'),
    Info: { IsAHomeFolder: false, IsMyHomeFolder: false, IsSharedFolder: false, CanUpload: canUpload, CanDownload: false, CanView: true, CanDeleteCurrentItem: false, CanManagePermissions: false },
  };
}

export const roles = (u: SfUser) => (u.employee ? ['Employee', ...(u.admin ? ['AdminManageEmployees', 'AdminAccountPolicies'] : [])] : ['Client']);

/** A user (docs/vendors/sharefile.md#users): AccountUser for employees, User for clients. */
export function renderUser(c: SfContext, state: SfState, u: SfUser, expand: string[] = []): Json {
  const shared = [...state.shares.values()].filter((s) => s.creatorId === u.id).reduce((n, s) => n + s.itemIds.length, 0);
  const out: Json = {
    'odata.type': `${MODELS}.${u.employee ? 'AccountUser' : 'User'}`,
    Id: u.id,
    url: entityUrl(c, 'Users', u.id),
    Email: u.email,
    Emails: [{ Email: u.email, IsConfirmed: u.confirmed, IsPrimary: true }],
    Username: u.email,
    FirstName: u.firstName,
    LastName: u.lastName,
    FullName: fullName(u),
    FullNameShort: `${u.firstName} ${u.lastName.slice(0, 1)}.`.trim(),
    Initials: `${u.firstName.slice(0, 1)}${u.lastName.slice(0, 1)}`.toUpperCase(),
    Company: u.company,
    DateCreated: iso(u.created),
    IsConfirmed: u.confirmed,
    IsDeleted: false,
    IsBillingContact: u.admin,
    IsAdministrator: u.admin,
    IsEmployee: u.employee,
    Roles: roles(u),
    CanCreateFolders: u.canCreateFolders,
    CanUseFileBox: u.employee,
    CanManageUsers: u.canManageUsers,
    IsVirtualClient: false,
    Domain: u.email.split('@')[1] ?? '',
    ReferredBy: u.referredBy,
    TotalSharedFiles: shared,
    Contacted: 0,
  };
  const has = (name: string) => expand.some((e) => e.toLowerCase() === name.toLowerCase());
  if (has('Security')) out.Security = { IsDisabled: u.disabled, IsLocked: false, LastFailedLoginDate: null, PasswordNeverExpires: false };
  if (has('Preferences')) out.Preferences = { CanResetPassword: true, CanViewMySettings: true, TimeZone: 'UTC', DefaultDownloadTime: 7 };
  if (has('DiskSpace') && u.employee) {
    const used = u.homeId ? treeSize(state, state.items.get(u.homeId)!) : 0;
    out.DiskSpace = { Max: 10_240, Used: Math.ceil(used / (1024 * 1024)), Free: 10_240 - Math.ceil(used / (1024 * 1024)) };
  }
  return out;
}

/** The short Contact form of a user (account lists, group members). */
export function renderContact(c: SfContext, u: SfUser): Json {
  return {
    'odata.type': `${MODELS}.Contact`,
    Id: u.id,
    url: entityUrl(c, 'Users', u.id),
    Email: u.email,
    FirstName: u.firstName,
    LastName: u.lastName,
    Company: u.company,
    Name: fullName(u),
    IsConfirmed: u.confirmed,
    IsDisabled: u.disabled,
    LastAnyLogin: null,
    CreatedDate: iso(u.created),
  };
}

export function renderGroup(c: SfContext, state: SfState, g: SfGroup, withContacts: boolean): Json {
  const owner = state.users.get(g.ownerId);
  const out: Json = {
    'odata.type': `${MODELS}.Group`,
    Id: g.id,
    url: entityUrl(c, 'Groups', g.id),
    Name: g.name,
    IsShared: g.shared,
    NumberOfContacts: g.memberIds.length,
    Owner: owner ? { Id: owner.id, url: entityUrl(c, 'Users', owner.id), FullName: fullName(owner) } : null,
  };
  if (withContacts) out.Contacts = g.memberIds.map((id) => state.users.get(id)).filter((u): u is SfUser => Boolean(u)).map((u) => renderContact(c, u));
  return out;
}

export const aclKey = (principalId: string, itemId: string) => `principalid=${principalId},itemid=${itemId}`;

export function renderAcl(c: SfContext, state: SfState, a: SfAcl & { isOwner?: boolean }): Json {
  const user = state.users.get(a.principalId);
  const group = state.groups.get(a.principalId);
  const key = aclKey(a.principalId, a.itemId);
  return {
    'odata.type': `${MODELS}.AccessControl`,
    Id: key,
    url: `${SF_HOST}${API}/AccessControls(${key})`,
    Principal: group
      ? { 'odata.type': `${MODELS}.Group`, Id: group.id, url: entityUrl(c, 'Groups', group.id), Name: group.name }
      : { 'odata.type': `${MODELS}.User`, Id: a.principalId, url: entityUrl(c, 'Users', a.principalId), Name: user ? fullName(user) : '', Email: user?.email ?? '' },
    Item: { Id: a.itemId, url: entityUrl(c, 'Items', a.itemId) },
    CanUpload: a.canUpload,
    CanDownload: a.canDownload,
    CanView: a.canView,
    CanDelete: a.canDelete,
    CanManagePermissions: a.canManagePermissions,
    NotifyOnUpload: a.notifyOnUpload,
    NotifyOnDownload: a.notifyOnDownload,
    IsOwner: a.isOwner ?? false,
  };
}

export const shareUri = (c: SfContext, s: SfShare) => `${c.get('links')}/share/view/${s.aliasId}`;

export function renderShare(c: SfContext, state: SfState, user: SfUser, s: SfShare, expand: string[] = []): Json {
  const has = (name: string) => expand.some((e) => e.toLowerCase() === name.toLowerCase());
  const right = s.type === 'Request' ? 'Upload' : s.isViewOnly ? 'ViewOnly' : 'Download';
  const creator = state.users.get(s.creatorId);
  const out: Json = {
    'odata.type': `${MODELS}.Share`,
    Id: s.id,
    url: entityUrl(c, 'Shares', s.id),
    AliasID: s.aliasId,
    ShareType: s.type,
    Title: s.title,
    HasSentMessage: s.sentMessage,
    RequireLogin: s.requireLogin,
    RequireUserInfo: s.requireUserInfo,
    ShareAccessLevel: s.requireLogin ? 'Login' : s.requireUserInfo ? 'UserInfo' : 'Anonymous',
    CreationDate: iso(s.created),
    ExpirationDate: iso(s.expiration),
    MaxDownloads: s.maxDownloads,
    TotalDownloads: s.totalDownloads,
    IsViewOnly: s.isViewOnly,
    IsArchived: false,
    UsesStreamIDs: false,
    Uri: shareUri(c, s),
    ShareSubType: 'Standard',
    ShareAccessRight: { DisplayText: { Upload: 'Upload', ViewOnly: 'View only', Download: 'Download' }[right], AccessRightType: right, IsWatermarked: false, IsViewOnly: s.isViewOnly },
    Creator: creator ? { Id: creator.id, url: entityUrl(c, 'Users', creator.id), FullName: fullName(creator), Email: creator.email } : null,
  };
  if (s.parentId) out.Parent = parentRef(c, s.parentId);
  if (has('Items')) out.Items = s.itemIds.map((id) => state.items.get(id)).filter((i): i is SfItem => Boolean(i && !i.deleted)).map((i) => renderItem(c, state, user, i));
  if (has('Recipients')) {
    out.Recipients = s.recipients.map((r) => ({
      'odata.type': `${MODELS}.ShareAlias`,
      Id: r.aliasId,
      Email: r.email,
      Downloads: r.downloads,
      IsConsumed: false,
      IsRead: r.downloads > 0,
      Uri: `${c.get('links')}/share/view/${r.aliasId}`,
    }));
  }
  return out;
}
