/**
 * Podio's wire shapes (podio.md), as the collab client sends and receives them. Only the keys the
 * tools read are typed; Podio sends more. The twin (infra/twins/podio) mirrors these on its side.
 */

// --- apps and fields (podio.md §2, §12) ---

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

// --- people: users, profiles, orgs, spaces (podio.md §12) ---

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

// --- items (podio.md §3) ---

export interface PodioRevisionRef {
  revision: number;
  created_on?: string;
  created_by?: PodioByLine;
  created_via?: { id?: number; name?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** A file as Podio describes it (podio.md §7). */
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

/** `silent` / `hook` query flags of writes (podio.md §1). */
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

// --- embeds (podio.md §2 embed field) ---

export interface PodioEmbed {
  embed_id: number;
  url: string;
  title?: string | null;
  type?: string;
  [key: string]: unknown;
}

// --- comments (podio.md §6) ---

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
