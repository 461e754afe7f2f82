import { SANDBOX_KEYS } from '../kit';

/**
 * In-memory state of the Podio twin. Values are kept in a normalized form of their own (see
 * values.ts) and rendered to Podio's output shapes on every read, so a category option renamed or a
 * relation's title changed shows everywhere at once, as in Podio. Every row of the state is typed
 * here, the features' rows too (hooks, views, grants, conversations, tasks): this file imports no
 * module of the twin, and the features, then the routes, build on it.
 */

export interface PodioUser {
  user_id: number;
  profile_id: number;
  name: string;
  mail: string;
  /** Organization role (docs/vendors/podio.md#apps-spaces-orgs-and-contacts: `regular|admin`). */
  role: 'admin' | 'regular';
  /** Spaces the user is a member of. */
  spaces: number[];
  timezone: string;
  title: string;
  phone: string;
}

export interface PodioOrgRow {
  org_id: number;
  name: string;
  url_label: string;
  created_on: string;
}

export interface PodioSpaceRow {
  space_id: number;
  org_id: number;
  name: string;
  url_label: string;
  description: string;
  created_on: string;
}

export interface PodioFieldRow {
  field_id: number;
  external_id: string;
  type: string;
  label: string;
  status: 'active' | 'deleted';
  config: { label: string; description: string | null; delta: number; required: boolean; settings: Record<string, unknown> };
}

export interface PodioAppRow {
  app_id: number;
  space_id: number;
  url_label: string;
  name: string;
  item_name: string;
  icon: string;
  description: string;
  /** The secret of the app-authentication grant (grant_type=app). */
  token: string;
  fields: PodioFieldRow[];
  /** The last app_item_id handed out (a per-app counter). */
  lastAppItemId: number;
}

/** A stored value of a field: the normalized form of values.ts (one per entry of `values`). */
export type StoredValue = Record<string, unknown>;

export interface ItemRevisionRow {
  revision: number;
  item_revision_id: number;
  created_on: string;
  created_by: number;
  type: 'creation' | 'update';
  /** The item's values as they were after this revision: field id → values. */
  values: Map<number, StoredValue[]>;
}

export interface PodioItemRow {
  item_id: number;
  app_id: number;
  app_item_id: number;
  external_id: string | null;
  created_on: string;
  created_by: number;
  last_event_on: string;
  /** field id → stored values (empty fields absent). */
  values: Map<number, StoredValue[]>;
  tags: string[];
  file_ids: number[];
  revisions: ItemRevisionRow[];
}

export interface PodioFileRow {
  file_id: number;
  name: string;
  mimetype: string;
  content: Uint8Array;
  description: string | null;
  created_on: string;
  /** Twin clock (ms) at upload: unattached files are collected UNATTACHED_FILE_TTL_MS later. */
  uploaded_at: number;
  created_by: number;
  /** What the file is attached to; null while unattached. */
  context: { type: string; id: number } | null;
  /** Set by copyFile: `file_<original id>` (docs/spec.md#collab-file). */
  external_id?: string | null;
  /** The file this one replaced (POST /file/{id}/replace). */
  replaces?: number[];
  /** The secret part of the file's keyless `link` (kit/downloads.ts), made when the link is first handed out. */
  token?: string;
}

export interface PodioEmbedRow {
  embed_id: number;
  url: string;
  title: string;
  description: string | null;
  created_on: string;
}

export interface CommentVersion {
  revision_id: number;
  value: string;
  created_on: string;
  embed_id: number | null;
}

export interface PodioCommentRow {
  comment_id: number;
  ref: { type: 'item' | 'task' | 'status'; id: number };
  value: string;
  external_id: string | null;
  created_on: string;
  created_by: number;
  embed_id: number | null;
  file_ids: number[];
  /** Every version, oldest first (the current one last). */
  versions: CommentVersion[];
}

export interface TokenRow {
  user_id: number;
  /** Epoch ms on the twin clock; null: never expires (the sandbox keys). */
  expires_at: number | null;
  ref: { type: 'user' | 'app'; id: number };
}

type Json = Record<string, unknown>;

/* Webhooks (hooks.ts). */

export type HookRefType = 'app' | 'space';

export interface PodioHookRow {
  hook_id: number;
  ref_type: HookRefType;
  ref_id: number;
  type: string;
  url: string;
  status: 'active' | 'inactive';
  created_on: string;
  created_by: number;
  /** The code of the last verification request, until validated. */
  code: string | null;
}

/* Views (views.ts). */

export const VIEW_LAYOUTS = ['table', 'badge', 'calendar'] as const;
export type ViewLayout = (typeof VIEW_LAYOUTS)[number];

export interface ViewFilter { key: string; values: unknown }

/** What a view defines (a last view is the same without name, privacy or grouping). */
export interface ViewDefinition {
  sort_by: string;
  sort_desc: boolean;
  filters: ViewFilter[];
  layout: ViewLayout;
  fields: Record<string, Json>;
  grouping: Json | null;
}

export interface PodioViewRow extends ViewDefinition {
  view_id: number;
  app_id: number;
  name: string;
  private: boolean;
  created_by: number;
  created_on: string;
}

export interface PodioViewState {
  saved: Map<number, PodioViewRow>;
  /** `${user_id}:${app_id}` → that user's last view of the app. */
  last: Map<string, ViewDefinition>;
  /** app id → its default view id. */
  defaults: Map<number, number>;
  /** The next saved view id (from 20001; standard views have ids of their own, far above: standardViewId). */
  nextId: number;
}

/* Item share grants (grants.ts). */

export const ACCESS_LEVELS = ['view', 'edit'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export interface PodioGrantRow {
  grant_id: number;
  ref: { type: 'item'; id: number };
  /** A user's id, or an invitee's id (invitees.get). */
  user_id: number;
  access_level: AccessLevel;
  message: string | null;
  created_by: number;
  created_on: string;
}

export interface PodioGrantState {
  rows: Map<number, PodioGrantRow>;
  /** Invited people who are no Podio users yet: invitee id → email. */
  invitees: Map<number, string>;
  nextId: number;
  nextInvitee: number;
}

/* Conversations (conversations.ts). */

export interface ConversationMessage {
  message_id: number;
  text: string;
  file_ids: number[];
  embed_id: number | null;
}

export interface ConversationEventRow {
  event_id: number;
  action: 'message' | 'participant_add' | 'participant_leave';
  created_on: string;
  created_by: number;
  message?: ConversationMessage;
  /** Who joined (participant_add). */
  user_ids?: number[];
}

export interface PodioConversationRow {
  conversation_id: number;
  type: 'direct' | 'group';
  subject: string;
  created_on: string;
  created_by: number;
  ref: { type: 'item' | 'task'; id: number } | null;
  /** User ids, in the order they joined. */
  participants: number[];
  /** Oldest first. */
  events: ConversationEventRow[];
  /** user id → the last event id they have read. */
  readUpTo: Map<number, number>;
  starred: Set<number>;
}

export interface ConversationState {
  rows: Map<number, PodioConversationRow>;
  next: { conversation: number; event: number; message: number };
}

/* Tasks and labels (tasks.ts). */

export interface PodioLabelRow {
  label_id: number;
  user_id: number;
  text: string;
  color: string;
}

export type TaskDue = { date: string } | { utc: number };

export interface PodioTaskRow {
  task_id: number;
  text: string;
  description: string | null;
  private: boolean;
  created_by: number;
  created_on: string;
  responsible: number | null;
  due: TaskDue | null;
  ref: { type: 'item'; id: number } | null;
  label_ids: number[];
  file_ids: number[];
  status: 'active' | 'completed';
  completed_on: string | null;
  completed_by: number | null;
  external_id: string | null;
  /** Podio's manual order ("rank"): creation order here. */
  rank: number;
}

export interface TaskState {
  rows: Map<number, PodioTaskRow>;
  labels: Map<number, PodioLabelRow>;
  next: { task: number; label: number };
}

export interface PodioState {
  org: PodioOrgRow;
  spaces: Map<number, PodioSpaceRow>;
  users: Map<number, PodioUser>;
  apps: Map<number, PodioAppRow>;
  items: Map<number, PodioItemRow>;
  /** Deleted item ids: Podio answers 410 gone for them. */
  deletedItems: Set<number>;
  files: Map<number, PodioFileRow>;
  embeds: Map<number, PodioEmbedRow>;
  comments: Map<number, PodioCommentRow>;
  /** Webhooks (hooks.ts), by hook id. */
  hooks: Map<number, PodioHookRow>;
  /** Saved views, last views per user, default views (views.ts). */
  views: PodioViewState;
  /** Item share grants and invitees (grants.ts). */
  grants: PodioGrantState;
  /** Conversations with their events, participants and unread state (conversations.ts). */
  conversations: ConversationState;
  /** Tasks and the users' labels (tasks.ts). */
  tasks: TaskState;
  /** Access token → who it authenticates. */
  tokens: Map<string, TokenRow>;
  /** Refresh token → who it authenticates and when it expires. */
  refreshTokens: Map<string, TokenRow>;
  /** The next id of each kind; the seed leaves them above every seeded id. */
  nextId: { item: number; revision: number; file: number; embed: number; comment: number; app: number; field: number };
  /** Where links meant for people (a file's `link`) point: the twin's public base (the local server's mount), if it has one. */
  linkBase: () => string | undefined;
}

export function emptyState(): PodioState {
  return {
    org: { org_id: 0, name: '', url_label: '', created_on: '' },
    spaces: new Map(),
    users: new Map(),
    apps: new Map(),
    items: new Map(),
    deletedItems: new Set(),
    files: new Map(),
    linkBase: () => undefined,
    embeds: new Map(),
    comments: new Map(),
    hooks: new Map(),
    views: { saved: new Map(), last: new Map(), defaults: new Map(), nextId: 20001 },
    grants: { rows: new Map(), invitees: new Map(), nextId: 50001, nextInvitee: 1900001 },
    conversations: { rows: new Map(), next: { conversation: 1, event: 1, message: 1 } },
    tasks: { rows: new Map(), labels: new Map(), next: { task: 1, label: 1 } },
    tokens: new Map(),
    refreshTokens: new Map(),
    nextId: { item: 1, revision: 1, file: 1, embed: 1, comment: 1, app: 1, field: 1 },
  };
}

/** Registers the kit's sandbox keys as never-expiring access tokens of the owner and the member. */
export function registerSandboxKeys(state: PodioState, owner: number, member: number): void {
  state.tokens.set(SANDBOX_KEYS.owner, { user_id: owner, expires_at: null, ref: { type: 'user', id: owner } });
  state.tokens.set(SANDBOX_KEYS.member, { user_id: member, expires_at: null, ref: { type: 'user', id: member } });
}

export function nextId(state: PodioState, kind: keyof PodioState['nextId']): number {
  return state.nextId[kind]++;
}

/** Podio's date-time format: UTC `YYYY-MM-DD HH:MM:SS`. */
export function podioDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The user profile of someone, as Podio shows a contact (docs/vendors/podio.md#apps-spaces-orgs-and-contacts). */
export function profileOf(u: PodioUser) {
  return { profile_id: u.profile_id, user_id: u.user_id, type: 'user' as const, name: u.name, mail: [u.mail], title: [u.title], phone: [u.phone], avatar: null, link: `https://podio.com/users/${u.user_id}` };
}

/** Podio's "by" line of an object's author. */
export function byLine(u: PodioUser | undefined) {
  if (!u) return { type: 'user', id: 0, user_id: 0, name: 'Unknown', avatar: null, url: null };
  return { type: 'user', id: u.user_id, user_id: u.user_id, profile_id: u.profile_id, name: u.name, avatar: null, url: `https://podio.com/users/${u.user_id}` };
}

/** How a change came in: always the API here. */
export const CREATED_VIA = { id: 1, name: 'Podio', url: 'https://podio.com', display: false };
