/**
 * Podio's wire shapes (docs/vendors/podio.md), as the collab client sends and receives them. Only the keys the
 * tools read are typed; Podio sends more. The twin (infra/twins/podio) mirrors these on its side.
 */

// --- apps and fields (docs/vendors/podio.md#field-types, #apps-spaces-orgs-and-contacts) ---

/** An app field as `GET /app/{app_id}` returns it. */
export interface PodioAppField {
  field_id: number;
  external_id: string;
  type: string;
  label: string;
  /** `active` or `deleted`; deleted fields take no values. */
  status?: string;
  config: {
    label: string;
    description?: string | null;
    delta?: number;
    required?: boolean;
    settings?: Record<string, unknown> | null;
  };
}

/** An app with its fields (`GET /app/{app_id}`). */
export interface PodioApp {
  app_id: number;
  status?: string;
  space_id?: number;
  url_label?: string;
  link?: string;
  config: { name: string; item_name?: string; description?: string | null; icon?: string; [key: string]: unknown };
  fields: PodioAppField[];
}

/** An app in a listing (`GET /app/space/{space_id}/`): fields may be absent. */
export type PodioAppSummary = Omit<PodioApp, 'fields'> & { fields?: PodioAppField[] };

/** One entry of an item field's `values`: an object keyed by sub_id (`value`, `start`, `embed`, …). */
export type PodioFieldValue = Record<string, unknown>;

/** An item field on output (`GET /item/{item_id}`, filter results). */
export interface PodioItemField {
  field_id: number;
  type: string;
  external_id: string;
  label: string;
  config?: Record<string, unknown>;
  values: PodioFieldValue[];
}

// --- people: users, profiles, orgs, spaces (docs/vendors/podio.md#apps-spaces-orgs-and-contacts) ---

/** Who did something: Podio's "by" object (a user, an app, …). */
export interface PodioByLine {
  type?: string;
  id?: number;
  user_id?: number;
  profile_id?: number;
  name?: string;
  [key: string]: unknown;
}

/** A contact (profile): profile_id identifies the contact, user_id the account. */
export interface PodioProfile {
  profile_id: number;
  user_id?: number | null;
  type?: string;
  name: string;
  mail?: string[];
  [key: string]: unknown;
}

export interface PodioSpace {
  space_id: number;
  name: string;
  url_label?: string;
  org_id?: number;
  url?: string;
  [key: string]: unknown;
}

export interface PodioOrg {
  org_id: number;
  name: string;
  url_label?: string;
  url?: string;
  spaces?: PodioSpace[];
  [key: string]: unknown;
}

/** `GET /org/{org_id}/member/`: an account, its profile and its role in the org. */
export interface PodioOrgMember {
  user: { user_id: number; mail?: string };
  profile: PodioProfile;
  role?: string;
  employee?: boolean;
  [key: string]: unknown;
}

/** `GET /user/status`: the key's own user. */
export interface PodioUserStatus {
  user: { user_id: number; mail?: string; timezone?: string; [key: string]: unknown };
  profile: PodioProfile;
  [key: string]: unknown;
}

// --- items (docs/vendors/podio.md#items) ---

export interface PodioRevisionRef {
  revision: number;
  /** The revision's id across Podio (item hooks name it), unlike `revision`, its number within the item. */
  item_revision_id?: number;
  created_on?: string;
  created_by?: PodioByLine;
  created_via?: { id?: number; name?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** A file as Podio describes it (docs/vendors/podio.md#files). */
export interface PodioFile {
  file_id: number;
  name: string;
  mimetype?: string;
  size?: number;
  link?: string;
  hosted_by?: string;
  description?: string | null;
  created_on?: string;
  created_by?: PodioByLine;
  thumbnail_link?: string | null;
  rights?: string[];
  context?: { type: string; id: number; title?: string } | null;
  [key: string]: unknown;
}

/** An item as `GET /item/{id}` and the filter return it. */
export interface PodioItem {
  item_id: number;
  app_item_id?: number;
  app?: { app_id: number; name?: string; item_name?: string; [key: string]: unknown };
  external_id?: string | null;
  title: string;
  link?: string;
  created_on?: string;
  created_by?: PodioByLine;
  initial_revision?: PodioRevisionRef;
  current_revision?: PodioRevisionRef;
  last_event_on?: string;
  fields: PodioItemField[];
  files?: PodioFile[];
  tags?: string[];
  [key: string]: unknown;
}

/** The body of `POST /item/app/{app_id}/` and `PUT /item/{id}`. */
export interface PodioItemWrite {
  fields?: Record<string, unknown>;
  external_id?: string;
  file_ids?: number[];
  tags?: string[];
  /** Only on update: 409 when stale. */
  revision?: number;
}

/** `silent` / `hook` query flags of writes (docs/vendors/podio.md#conventions). */
export interface PodioWriteFlags {
  silent?: boolean;
  hook?: boolean;
}

/** The body of `POST /item/app/{app_id}/filter/`. */
export interface PodioFilterBody {
  filters?: Record<string, unknown>;
  sort_by?: string;
  sort_desc?: boolean;
  limit?: number;
  offset?: number;
  remember?: boolean;
}

export interface PodioFilterPage {
  total: number;
  filtered: number;
  items: PodioItem[];
}

/** The body of `POST /item/app/{app_id}/calculate`. */
export interface PodioCalculateBody {
  aggregation: 'count' | 'sum' | 'average' | 'minimum' | 'maximum';
  formula?: { type: 'field' | 'number' | 'operator'; value: number | string }[];
  groupings?: { type: 'field' | 'revision'; value: number | string; sub_value?: string }[];
  filters?: Record<string, unknown>;
  limit?: number;
}

export interface PodioCalculation {
  total: number | string | null;
  count: number;
  groups?: { value: unknown; label?: string | null; total: number | string | null; count: number; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** `GET /item/{id}/revision/`. */
export interface PodioItemRevision extends PodioRevisionRef {
  item_revision_id?: number;
  app_revision?: number;
  type?: string;
}

/** One field's change between two revisions (`GET /item/{id}/revision/{from}/{to}`). */
export interface PodioRevisionDiff {
  field_id: number;
  type: string;
  external_id?: string;
  label: string;
  from: PodioFieldValue[];
  to: PodioFieldValue[];
}

/** `GET /item/{id}/reference/`: the items pointing at an item, grouped by app. */
export interface PodioItemReferenceGroup {
  app: { app_id: number; name?: string; item_name?: string; [key: string]: unknown };
  items: { item_id: number; title: string; link?: string; app_item_id?: number; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** `GET /item/field/{field_id}/find`: items an app-relation field may point to. */
export interface PodioReferenceable {
  item_id: number;
  title: string;
  app?: { app_id: number; name?: string; [key: string]: unknown };
  link?: string;
  [key: string]: unknown;
}

// --- embeds (docs/vendors/podio.md#field-types embed field) ---

export interface PodioEmbed {
  embed_id: number;
  url: string;
  title?: string | null;
  type?: string;
  [key: string]: unknown;
}

// --- comments (docs/vendors/podio.md#comments) ---

export type PodioCommentRefType = 'item' | 'task' | 'status';

export interface PodioComment {
  comment_id: number;
  value: string;
  rich_value?: string;
  external_id?: string | null;
  space_id?: number;
  created_on: string;
  created_by: PodioByLine;
  created_via?: { id?: number; name?: string; [key: string]: unknown };
  ref?: { type: string; id: number; [key: string]: unknown };
  files?: PodioFile[];
  embed?: PodioEmbed | null;
  embed_file?: PodioFile | null;
  is_liked?: boolean;
  like_count?: number;
  [key: string]: unknown;
}

/** The body of `POST /comment/{type}/{id}/` and `PUT /comment/{id}`. */
export interface PodioCommentWrite {
  value: string;
  external_id?: string;
  file_ids?: number[];
  embed_id?: number;
  embed_url?: string;
}

export interface PodioCommentRevision {
  revision_id?: number;
  created_on: string;
  value: string;
  rich_value?: string;
  embed?: PodioEmbed | null;
  embed_file?: PodioFile | null;
  [key: string]: unknown;
}

// --- files, hooks and search (docs/vendors/podio.md#files, #hooks, #search) ---

/** Query of `GET /file/app/{app_id}/` and `GET /file/space/{space_id}/`. */
export interface PodioFileListQuery {
  attached_to?: string;
  filetype?: string;
  limit?: number;
  offset?: number;
  sort_by?: 'name' | 'created_on';
  sort_desc?: boolean;
}

/** `GET /hook/{ref_type}/{ref_id}/`. */
export interface PodioHook {
  hook_id: number;
  status: 'active' | 'inactive';
  type: string;
  url: string;
  created_on?: string;
  created_by?: PodioByLine;
  [key: string]: unknown;
}

/** The body of `POST /search/…`. */
export interface PodioSearchBody {
  query: string;
  ref_type?: string;
  search_fields?: string;
  limit?: number;
  offset?: number;
}

/** One hit of `POST /search/…` (docs/vendors/podio.md#search). */
export interface PodioSearchResult {
  type: string;
  id: number;
  rank?: number;
  title: string;
  link?: string;
  created_on?: string;
  created_by?: PodioByLine;
  app?: { app_id: number; name?: string; [key: string]: unknown } | null;
  space?: { space_id: number; name?: string; [key: string]: unknown } | null;
  org?: { org_id: number; name?: string; [key: string]: unknown } | null;
  [key: string]: unknown;
}

// --- views (docs/vendors/podio.md#views) ---

export type PodioViewLayout = 'table' | 'badge' | 'calendar';

/** A view filter as Podio stores it: a field id or system key and its values (shape by type); reads add humanized_values. */
export interface PodioViewFilter {
  key: string | number;
  values: unknown;
  humanized_values?: { value: unknown; label: string }[];
}

/** Display settings of one field in a view. */
export interface PodioViewFieldSettings {
  hidden?: boolean;
  width?: number;
  delta_offset?: number;
  use?: '_x_axis_' | '_y_axis_';
}

export interface PodioViewGrouping {
  type: 'field' | 'revision';
  value: number | string;
  sub_value?: 'date' | 'weekday' | 'week' | 'month' | 'year';
}

/** A view as `GET /view/app/{app_id}/{view_id_or_name}` returns it (`type` saved, standard or last). */
export interface PodioView {
  view_id: number | null;
  name: string | null;
  type?: string;
  layout?: PodioViewLayout;
  private?: boolean;
  sort_by?: string | number | null;
  sort_desc?: boolean;
  filters?: PodioViewFilter[];
  fields?: Record<string, PodioViewFieldSettings>;
  grouping?: Partial<PodioViewGrouping> | null;
  items?: number;
  rights?: string[];
  created_by?: PodioByLine | null;
  created_on?: string | null;
  [key: string]: unknown;
}

/** The body of `POST /view/app/{app_id}/`, `PUT /view/{view_id}` and (without name, private, grouping) `PUT /view/app/{app_id}/last`. */
export interface PodioViewWrite {
  name?: string;
  private?: boolean;
  sort_by?: string;
  sort_desc?: boolean;
  filters?: { key: string; values: unknown }[];
  layout?: PodioViewLayout;
  fields?: Record<string, PodioViewFieldSettings>;
  grouping?: PodioViewGrouping | null;
}

// --- item sharing: grants (docs/vendors/podio.md#grants) ---

export type PodioAccessLevel = 'view' | 'edit';

/** Who a grant is for: a contact identifier (docs/vendors/podio.md#grants `people`). */
export type PodioGrantPerson = { type: 'user' | 'profile'; id: number } | { type: 'mail'; id: string };

export interface PodioGrantWrite {
  people: PodioGrantPerson[];
  access_level: PodioAccessLevel;
  action?: 'view' | 'comment' | 'rate';
  message?: string;
}

/** A grant as `GET /grant/{ref_type}/{ref_id}/` lists it. */
export interface PodioGrant {
  grant_id: number;
  access_level: PodioAccessLevel;
  created_on?: string;
  rights?: string[];
  message?: string | null;
  created_by?: PodioByLine;
  user: { user_id: number; profile_id?: number | null; name?: string | null; type?: string; mail?: string | null };
  [key: string]: unknown;
}

// --- conversations (docs/vendors/podio.md#conversations) ---

export interface PodioConversationParticipant {
  user_id: number;
  profile_id?: number;
  name: string;
  type?: string;
}

export interface PodioConversationMessage {
  message_id: number;
  text: string;
  created_on: string;
  created_by?: PodioByLine;
  files?: PodioFile[];
  embed?: PodioEmbed | null;
  embed_file?: PodioFile | null;
}

/** A conversation (NET Conversation.cs); `link` and `messages` on a single fetch. */
export interface PodioConversation {
  conversation_id: number;
  type?: string;
  subject: string;
  excerpt?: string;
  starred?: boolean;
  unread?: boolean;
  unread_count?: number;
  created_on: string;
  last_event_on?: string;
  created_by?: PodioByLine;
  participants?: PodioConversationParticipant[];
  ref?: { type: string; id: number } | null;
  link?: string;
  messages?: PodioConversationMessage[];
}

/** An event of a conversation (`message`, `participant_add`, `participant_leave`, …). */
export interface PodioConversationEvent {
  event_id: number;
  action: string;
  created_on: string;
  created_by?: PodioByLine;
  created_via?: { id: number; name: string; url?: string | null };
  data?: Record<string, unknown> & Partial<PodioConversationMessage>;
}

export interface PodioConversationWrite {
  subject?: string;
  text: string;
  participants?: number[];
  file_ids?: number[];
  embed_id?: number;
  embed_url?: string;
}

/** The answer of `POST /conversation/{ref_type}/{ref_id}/` (Podio's legacy form). */
export interface PodioConversationCreated {
  conversation_id: number;
  message_id: number;
  embed_id?: number | null;
  embed_file_id?: number | null;
}

// --- tasks and labels (docs/vendors/podio.md#tasks) ---

export interface PodioLabel {
  label_id: number;
  text: string;
  color: string;
}

/** A task: `GET /task/{id}` (full) or a `GET /task/` entry (short: ref flattened to ref_type/ref_title/…, `group` when grouped). */
export interface PodioTask {
  task_id: number;
  status: string;
  text: string;
  description?: string | null;
  private?: boolean;
  due_on?: string | null;
  due_date?: string | null;
  due_time?: string | null;
  created_on: string;
  created_by?: PodioByLine;
  completed_on?: string | null;
  completed_by?: PodioByLine | null;
  responsible?: { user_id: number; name: string; profile_id?: number } | null;
  ref?: { type: string; id: number; title?: string; link?: string; data?: { app?: { app_id: number; name: string } } } | null;
  ref_type?: string | null;
  ref_id?: number | null;
  ref_title?: string | null;
  ref_app?: { app_id: number; name: string; item_name?: string } | null;
  ref_link?: string | null;
  labels?: PodioLabel[];
  files?: PodioFile[];
  file_count?: number;
  link?: string;
  space_id?: number | null;
  external_id?: string | null;
  group?: string | { type: string; id: number | null; name: string };
  /** Podio's start/stop of work on a task. */
  started?: boolean;
  /** Minutes before the due time Podio reminds the responsible. */
  reminder?: { remind_delta?: number | null } | null;
}

/** A task create or update body (docs/vendors/podio.md#tasks; Podio's "Update task"). */
export interface PodioTaskWrite {
  text?: string;
  description?: string | null;
  private?: boolean;
  due_on?: string | null;
  due_date?: string | null;
  due_time?: string | null;
  responsible?: number | null;
  ref_type?: string;
  ref_id?: number;
  label_ids?: number[];
  labels?: (number | string)[];
  file_ids?: number[];
  completed?: boolean;
  external_id?: string;
}

/** `GET /task/` query (NET GetTasks). */
export type PodioTaskQuery = Record<string, string | number | boolean | undefined>;

/** One user's membership of a space (`GET /space/{space_id}/member/{user_id}`); `ended_on` once it ended. */
export interface PodioSpaceMember {
  user: { user_id: number; [key: string]: unknown };
  role?: string;
  started_on?: string | null;
  ended_on?: string | null;
  [key: string]: unknown;
}
