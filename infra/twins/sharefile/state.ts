/**
 * In-memory state of the ShareFile twin: one company account with employees and clients, an items
 * tree (home folders, shared folders, versions, recycle bin), access controls, distribution groups,
 * shares, download tokens, upload specs and async operations.
 */

export interface SfUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  company: string;
  /** Employee (AccountUser) or client (User with role Client). */
  employee: boolean;
  admin: boolean;
  confirmed: boolean;
  disabled: boolean;
  created: number;
  /** Employees: their home folder and File Box. */
  homeId?: string;
  boxId?: string;
  canCreateFolders: boolean;
  canManageUsers: boolean;
  referredBy: string | null;
}

export interface SfItem {
  id: string;
  kind: 'folder' | 'file';
  name: string;
  description: string;
  /** A real folder id, or the alias roots `top` (home folders, File Boxes) and `allshared` (shared folders). */
  parentId: string;
  creatorId: string;
  created: number;
  edited: number;
  /** ISO 8601, or null. */
  expiration: string | null;
  /** In the recycle bin. */
  deleted: boolean;
  streamId: string;
  /** Files: version number within the stream (1, 2, …). */
  version: number;
  content?: Buffer;
  hash?: string;
  /** Text the search finds besides the name (the words of the seeded documents). */
  text?: string;
  homeOf?: string;
  boxOf?: string;
}

export interface SfAcl {
  itemId: string;
  principalId: string;
  canView: boolean;
  canDownload: boolean;
  canUpload: boolean;
  canDelete: boolean;
  canManagePermissions: boolean;
  notifyOnUpload: boolean;
  notifyOnDownload: boolean;
}

export interface SfGroup {
  id: string;
  name: string;
  shared: boolean;
  ownerId: string;
  memberIds: string[];
  created: number;
}

export interface SfRecipient {
  aliasId: string;
  email: string;
  downloads: number;
}

export interface SfShare {
  id: string;
  aliasId: string;
  type: 'Send' | 'Request';
  title: string;
  creatorId: string;
  itemIds: string[];
  parentId: string | null;
  created: number;
  expiration: number;
  maxDownloads: number;
  totalDownloads: number;
  requireLogin: boolean;
  requireUserInfo: boolean;
  isViewOnly: boolean;
  notifyOnDownload: boolean;
  notifyOnUpload: boolean;
  sentMessage: boolean;
  recipients: SfRecipient[];
}

/** A message the twin "sent" (welcome, share notification, access notice): kept, never mailed. */
export interface SfMail {
  to: string;
  cc?: string;
  subject: string;
  body: string;
  at: number;
}

export interface SfAsyncOperation {
  id: string;
  operation: 'Copy';
  sourceId: string;
  targetId: string;
  /** The copy made; reported once the operation is Completed. */
  resultId: string;
  created: number;
  /** Polls left before it reports Completed. */
  pollsLeft: number;
}

export interface SfState {
  account: { name: string; subdomain: string; shareExpirationDays: number };
  users: Map<string, SfUser>;
  items: Map<string, SfItem>;
  /** item id → principal id → entry. */
  acls: Map<string, Map<string, SfAcl>>;
  groups: Map<string, SfGroup>;
  shares: Map<string, SfShare>;
  /** Bearer token → user id. */
  tokens: Map<string, string>;
  favorites: Map<string, Set<string>>;
  downloads: Map<string, { itemId: string; expires: number }>;
  uploads: Map<string, { folderId: string; userId: string; fileName: string; overwrite: boolean; description: string; expires: number }>;
  asyncOps: Map<string, SfAsyncOperation>;
  outbox: SfMail[];
  seq: number;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * Ids in ShareFile's shapes (36 characters, GUID-like): items `fo…`/`fi…`, groups `g…`, shares `s…`,
 * async operations `ao…`; users plain GUIDs. Deterministic from a counter, so seeds and tests are stable.
 */
export function sfId(kind: 'folder' | 'file' | 'user' | 'group' | 'share' | 'alias' | 'async', n: number): string {
  const tail = `-5f1e-4b0c-9a7d-${hex(n, 12)}`;
  switch (kind) {
    case 'folder':
      return `fo${hex(n, 6)}${tail}`;
    case 'file':
      return `fi${hex(n, 6)}${tail}`;
    case 'group':
      return `g${hex(n, 7)}${tail}`;
    case 'share':
      return `s${hex(n, 7)}${tail}`;
    case 'async':
      return `ao${hex(n, 6)}${tail}`;
    case 'alias':
      return `a${hex(n, 9)}`;
    case 'user':
      return `${hex(n, 8)}-7a1e-4c2b-8d3f-${hex(n, 12)}`;
  }
}

export function nextId(state: SfState, kind: Parameters<typeof sfId>[0]): string {
  return sfId(kind, ++state.seq);
}

export function emptyState(): SfState {
  return {
    account: { name: 'Acme Legal', subdomain: 'acme', shareExpirationDays: 30 },
    users: new Map(),
    items: new Map(),
    acls: new Map(),
    groups: new Map(),
    shares: new Map(),
    tokens: new Map(),
    favorites: new Map(),
    downloads: new Map(),
    uploads: new Map(),
    asyncOps: new Map(),
    outbox: [],
    seq: 0,
  };
}

export const fullName = (u: SfUser) => `${u.firstName} ${u.lastName}`.trim();

/** The live (newest non-deleted) version of a file's stream, or the folder itself. */
export function isCurrent(state: SfState, item: SfItem): boolean {
  if (item.kind === 'folder') return true;
  let newest: SfItem | undefined;
  for (const other of state.items.values()) {
    if (other.streamId === item.streamId && !other.deleted && (!newest || other.version > newest.version)) newest = other;
  }
  return newest ? newest.id === item.id : item.deleted;
}

/** Real child rows of a folder (deleted ones too), without resolving versions. */
export function childRows(state: SfState, folderId: string): SfItem[] {
  const out: SfItem[] = [];
  for (const it of state.items.values()) if (it.parentId === folderId) out.push(it);
  return out;
}

/** Live children: folders and the current version of each file stream. */
export function liveChildren(state: SfState, folderId: string): SfItem[] {
  return childRows(state, folderId).filter((it) => !it.deleted && isCurrent(state, it));
}

/** Every live item below `folderId`. */
export function descendants(state: SfState, folderId: string, out: SfItem[] = []): SfItem[] {
  for (const child of liveChildren(state, folderId)) {
    out.push(child);
    if (child.kind === 'folder') descendants(state, child.id, out);
  }
  return out;
}

/** The ancestors of an item from its parent up (real items only). */
export function ancestors(state: SfState, item: SfItem): SfItem[] {
  const out: SfItem[] = [];
  let cur = state.items.get(item.parentId);
  while (cur && out.length < 64) {
    out.push(cur);
    cur = state.items.get(cur.parentId);
  }
  return out;
}
