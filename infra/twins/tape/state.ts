import { SANDBOX_KEYS } from '../kit';
import { TapeEvents, type TapeApp, type TapeRecordRow } from './model';

/** In-memory state of the Tape twin, seeded with the organization, users and workspaces of Tape's docs. */
export interface TapeUser {
  user_id: number;
  name: string;
  org_id: number;
  status: 'active' | 'invited';
  email: string;
  phone: string | null;
  role: 'owner' | 'admin' | 'member' | 'guest';
  job_description: string | null;
}

export interface TapeIcon {
  type: 'graphic' | 'emoji';
  id?: string;
  emoji?: string;
  color?: string;
}

export interface TapeWorkspace {
  workspace_id: number;
  name: string;
  slug: string;
  type: 'private' | 'open' | 'default' | 'closed';
  description: string | null;
  org_id: number;
  icon?: TapeIcon;
}

export type WorkspaceRole = 'admin' | 'member' | 'guest';

export interface TapeOrg {
  org_id: number;
  name: string;
  slug: string;
  url: string;
  description: string;
  website: string;
  location: string;
  created_on: string;
  plan: string;
  activity_count: number;
}

/** A file object of docs/vendors/tape.md#files: what POST /v1/file/upload answers. */
export interface TapeFile {
  /** Temporary file id (a string) until the file is attached to a resource. */
  file_id: string;
  name: string;
  size: number;
  mimetype: string;
  created_on: string;
  /** Download URL; expires after some hours. */
  link: string;
  /** Only when a thumbnail could be generated (images). */
  thumbnail?: { small: string; medium: string; large: string };
}

/** An uploaded file as the twin keeps it: the wire object plus what never goes on the wire. */
export interface TapeStoredFile extends TapeFile {
  content: Uint8Array;
  uploaded_by: number;
}

export interface TapeState {
  apps: Map<number, TapeApp>;
  records: Map<number, TapeRecordRow>;
  events: TapeEvents;
  org: TapeOrg;
  users: Map<number, TapeUser>;
  /** API key → user id. */
  keys: Map<string, number>;
  /** The keys among `keys` that are automation-type keys (docs/vendors/tape.md#views: view endpoints answer them 401). */
  automationKeys: Set<string>;
  workspaces: Map<number, TapeWorkspace>;
  /** workspace id → (user id → role). */
  members: Map<number, Map<number, WorkspaceRole>>;
  /** Uploaded files by temporary file id (docs/vendors/tape.md#files). */
  files: Map<string, TapeStoredFile>;
  /** The bytes of files attached to records, by their integer id: an attachment's `download_url` serves them without the key. */
  attachments: Map<number, { content: Uint8Array; mimetype: string; token: string }>;
  /** Where links meant for people (`download_url`) point: the API host, or the local server's mount of the twin. */
  linkBase: () => string;
  nextId: { user: number; workspace: number; app: number; field: number; record: number; revision: number; comment: number; file: number; view: number; hook: number };
}

/** The sandbox keys live in the kit (one owner key for every twin); re-exported for existing imports. */
export { SANDBOX_KEYS };

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Tape's API host, as its own links name it. */
export const TAPE_HOST = 'https://api.tapeapp.com';

export function seedState(): TapeState {
  const org: TapeOrg = {
    org_id: 1337,
    name: 'Tape Technologies',
    slug: 'tape',
    url: 'https://tapeapp.com/tape',
    description: 'One shall dogfood all day all night',
    website: 'https://tapeapp.com',
    location: 'Munich, Germany',
    created_on: '2019-05-01 10:00',
    plan: 'premium',
    activity_count: 345,
  };
  const users = new Map<number, TapeUser>([
    [10000, { user_id: 10000, name: 'John Doe', org_id: 1337, status: 'active', email: 'john@doe.com', phone: '555 123 456', role: 'owner', job_description: 'Founder & CEO' }],
    [10001, { user_id: 10001, name: 'Zoe Maxwell', org_id: 1337, status: 'active', email: 'zoemaxwell10001@me.com', phone: '555 123 457', role: 'member', job_description: 'Executive' }],
  ]);
  const workspaces = new Map<number, TapeWorkspace>([
    [1, { workspace_id: 1, name: 'Task management', slug: 'task-management', type: 'closed', description: 'Manage all tasks and projects inside this workspace.', org_id: 1337 }],
    [2, { workspace_id: 2, name: 'Contact directory', slug: 'contact-directory', type: 'default', description: 'Keep track of our contacts here.', org_id: 1337 }],
  ]);
  const members = new Map<number, Map<number, WorkspaceRole>>([
    [1, new Map<number, WorkspaceRole>([[10000, 'admin'], [10001, 'member']])],
    [2, new Map<number, WorkspaceRole>([[10000, 'admin']])],
  ]);
  const keys = new Map<string, number>([
    [SANDBOX_KEYS.owner, 10000],
    [SANDBOX_KEYS.member, 10001],
    [SANDBOX_KEYS.automation, 10000],
  ]);
  return {
    org,
    users,
    keys,
    automationKeys: new Set<string>([SANDBOX_KEYS.automation]),
    workspaces,
    members,
    apps: new Map(),
    files: new Map(),
    attachments: new Map(),
    linkBase: () => TAPE_HOST,
    records: new Map(),
    events: new TapeEvents(),
    nextId: { user: 10002, workspace: 3, app: 1, field: 1, record: 1, revision: 1, comment: 1, file: 1, view: 500, hook: 1 },
  };
}
