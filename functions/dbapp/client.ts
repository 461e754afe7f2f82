import { createUpstream, type VendorError } from '../../shared/upstream';
import type { PlatformEnv } from '../../shared/tool';

/** Tape's wire shapes (snake_case, as documented in vendor-docs/tape/resource/*.md). */
export interface TapeWorkspace {
  workspace_id: number;
  org_id: number;
  name: string;
  slug: string;
  type: 'private' | 'open' | 'default' | 'closed';
  description: string | null;
  icon?: { type: string; id?: string; emoji?: string; color?: string };
}

export interface TapeWorkspaceMember {
  workspace_id: number;
  user_id: number;
  role: 'admin' | 'member' | 'guest';
}

/** webhook.md: one event type per hook. */
export type TapeWebhookType = 'record.create' | 'record.update' | 'record.delete' | 'record.restore' | 'comment.create' | 'comment.delete' | 'app.update';

/** A hook as webhook.md shows it; verify/validate/delete answers carry no app_id. */
export interface TapeWebhook {
  hook_id: number;
  app_id?: number;
  status: 'active' | 'inactive';
  num_failed_executions: number;
  type: TapeWebhookType;
  url: string;
}

/** A file object of file.md (POST /v1/file/upload); `file_id` is a temporary id until the file is attached. */
export interface TapeFile {
  file_id: string;
  name: string;
  size: number;
  mimetype: string;
  created_on: string;
  link: string;
  thumbnail?: { small: string; medium: string; large: string };
}

/** One file to upload: its bytes, name and media type. */
export interface TapeUpload {
  name: string;
  content: Uint8Array;
  mimetype: string;
}

/** A field of an app as GET /v1/app/{id} returns it (app.md); `config.settings` depends on the field type (field/*.md). */
export interface TapeAppField {
  field_id: number;
  external_id: string;
  slug?: string;
  label: string;
  /** Kind of data: text, number, category, status, date, app (relation), contact (user), email, phone, embed (link), location, file, checklist, unique_id, calculation. */
  type: string;
  field_type: string;
  config: {
    label: string;
    description?: string | null;
    required?: boolean;
    always_hidden?: boolean;
    hidden_if_empty?: boolean;
    settings?: Record<string, unknown>;
  };
}

/** An app as the listings of app.md show it (no fields); `workspace_name` only in GET /v1/app. */
export interface TapeAppSummary {
  app_id: number;
  workspace_id: number;
  workspace_name?: string;
  name: string;
  slug: string;
  type: 'database' | 'dashboard' | 'form';
  config: { item_name: string; name: string; description: string };
}

/** An app with its fields, as GET /v1/app/{id} (and POST/PUT /v1/app) returns it (app.md). */
export interface TapeAppWithFields {
  app_id: number;
  workspace_id: number;
  name: string;
  slug: string;
  external_id?: string;
  item_name?: string;
  record_name?: string;
  type?: 'database' | 'dashboard' | 'form';
  description?: string;
  config?: { item_name?: string; name?: string; description?: string; icon?: Record<string, unknown>; item_icon?: Record<string, unknown> };
  fields: TapeAppField[];
}

/** A field definition to create (field_type + config) or, with field_id, to update (field/*.md). */
export interface TapeFieldWrite {
  field_id?: number;
  field_type?: string;
  config?: { label?: string; description?: string | null; required?: boolean; always_hidden?: boolean; hidden_if_empty?: boolean; settings?: Record<string, unknown> };
}

/** The body of POST /v1/app (workspace_id and name required) and PUT /v1/app/{id}. */
export interface TapeAppWrite {
  workspace_id?: number;
  name?: string;
  item_name?: string;
  description?: string;
  icon?: { type: 'graphic'; id: string; color?: string } | { type: 'emoji'; emoji: string };
  item_icon?: { type: 'graphic'; id: string; color?: string } | { type: 'emoji'; emoji: string };
  fields?: TapeFieldWrite[];
  /** PUT only: fields to delete, by field_id. */
  fields_to_delete?: { field_id: number }[];
}

/** organization.md: the key's organization; `active_user_id` is the key's user. */
export interface TapeOrganization {
  org_id: number;
  active_user_id: number;
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

/** user.md: a user of the organization. */
export interface TapeOrgUser {
  user_id: number;
  name: string;
  org_id: number;
  status: 'active' | 'invited';
  email: string;
  phone: string | null;
  role: 'owner' | 'admin' | 'member' | 'guest';
  job_description: string | null;
}

/** A user as record values, comments and revisions reference one. */
export interface TapeUserRef {
  user_id: number;
  name: string;
  mail?: string[];
  image?: string | null;
  org_id?: number;
  type?: string;
}

/**
 * One entry of a record field's `values` (field-value/*.md). Most types wrap the datum in `value`
 * (text, number, category, relation, user, attachment, calculation); dates ({start, end, …}),
 * emails/phones ({id, value, type}), links ({embed_id, url, …}), locations and checklist entries are flat.
 */
export type TapeFieldValue = { value?: unknown; [key: string]: unknown };

export interface TapeRecordField {
  field_id: number;
  external_id: string;
  label: string;
  /** Kind of value: text, number, category, status, date, relation, user, email, phone, link, location, attachment, image, checklist, calculation. */
  type: string;
  field_type: string;
  values: TapeFieldValue[];
}

/** A record as record.md returns it; `fields` holds only the fields with a value; no `fields` from the relatable search. */
export interface TapeRecord {
  record_id: number;
  app_record_id?: number;
  title: string;
  created_on: string;
  created_by?: TapeUserRef;
  last_modified_on?: string;
  revision?: number;
  deleted_on?: string;
  app?: { app_id: number; icon: string; name: string; record_name: string; workspace_id: number };
  fields?: TapeRecordField[];
}

/** A cursor page of records (pagination.md): the end is a page shorter than `limit`. */
export interface TapeRecordPage {
  total: number;
  cursor: string | null;
  records: TapeRecord[];
}

/** Field values to write, keyed by field_id or external_id (input forms of field-value/*.md). */
export type TapeFieldInputs = Record<string, unknown>;

/** Query flags of record writes (record.md): silent (no notifications), hook (run webhooks), workflow (trigger automations). */
export interface TapeWriteFlags {
  silent?: boolean;
  hook?: boolean;
  workflow?: boolean;
}

/** Listing query of record.md: limit (default 50, max 500), opaque cursor, sort_by (a field's external_id), sort_desc. */
export interface TapeRecordListQuery {
  limit?: number;
  cursor?: string;
  sort_by?: string;
  sort_desc?: boolean;
}

/** record-revision.md: revision metadata (no values). */
export interface TapeRevision {
  created_by: TapeUserRef;
  created_on: string;
  type: string;
  revision: number;
}

/** record-revision.md: what changed from revision `from_revision_id` to `to_revision_id`. */
export interface TapeRevisionDelta {
  record_id: number;
  from_revision_id: number;
  to_revision_id: number;
  revision_deltas: {
    field_id: number;
    external_id: string;
    label: string;
    type: string;
    field_type: string;
    from: TapeFieldValue[];
    to: TapeFieldValue[];
    config: { description: string | null; required: boolean; label: string };
  }[];
}

/** record-comment.md: a comment on a record. */
export interface TapeComment {
  comment_id: number;
  value: string;
  created_on: string;
  ref: { type: 'record'; id: number };
  files: { file_id: number | string; name: string; size: number }[];
  created_by: TapeUserRef;
  user: TapeUserRef;
}

/** view.md: a view filter is the record filter object of filter.md. */
export interface TapeViewFilter {
  field_id: number;
  field_type: string;
  type: string;
  match_type: string;
  values?: { value: unknown }[];
  [operand: string]: unknown;
}

export type TapeViewLayout = 'table' | 'list' | 'board';

export interface TapeViewSplitBy {
  field_id: number;
  period?: 'day' | 'weekday' | 'week' | 'month' | 'year' | null;
  sorting?: 'label_asc' | 'label_desc' | 'value_asc' | 'value_desc' | null;
  limit?: number | null;
}

/** view.md "Preview": what GET /v1/app/{id}/views lists. */
export interface TapeViewPreview {
  id: number;
  view_id: number;
  name: string | null;
  app_id: number;
  is_default: boolean;
  layout: TapeViewLayout;
  private: boolean;
}

/** view.md "Detail": the preview plus the definition (also show_progress, table and board, which the tools do not expose). */
export interface TapeView extends TapeViewPreview {
  sort_by: number | null;
  sort_desc: boolean;
  filters: TapeViewFilter[];
  fields: Record<string, { hidden: boolean; width?: number }>;
  split_by: TapeViewSplitBy | null;
}

/** The body of POST /v1/view/app/{app_id} and PUT /v1/view/{id}; null only on update (clears, or keeps the name). */
export interface TapeViewWrite {
  name?: string | null;
  layout?: TapeViewLayout;
  filters?: TapeViewFilter[] | null;
  sort_by?: number | null;
  sort_desc?: boolean;
  fields?: Record<string, { hidden: boolean; width?: number }> | null;
  split_by?: TapeViewSplitBy | null;
}

// --- automations (automation/*.md, automation-run.md, automation-usage-report.md) ---
/** A trigger {type, config} (reference/triggers.md); a webhook_received config carries the read-only webhook_url. */
export interface TapeAutomationTrigger { type: string; config: Record<string, unknown> }
/** The filter tree (reference/filters.md): a group {operator, rows} or a condition {subject, operator, value?} / {code}. */
export type TapeFilterNode = { id?: string; operator?: string; rows?: TapeFilterNode[]; subject?: Record<string, unknown>; value?: Record<string, unknown>; code?: unknown[] };
export interface TapeFilterGroup { id?: string; operator: 'and' | 'or'; rows: TapeFilterNode[] }
/** An action (reference/actions.md); control flow keeps condition / action_rows / iterable inside config. */
export interface TapeAutomationAction {
  id?: string;
  type: string;
  group?: 'action' | 'control_flow';
  custom_name?: string;
  deactivate?: boolean;
  continue_on_error?: boolean;
  config: Record<string, unknown>;
}
/** A validate / broken_reason entry (reference/errors.md); `deactivated` is absent when false. */
export interface TapeAutomationError {
  code: string;
  message: string;
  deactivated?: boolean;
  block_id?: string | null;
  action_id?: string | null;
  app_id?: number | null;
  field_id?: number | null;
  [ref: string]: unknown;
}
/** The automation object (reference/object.md); `description` is absent when unset. */
export interface TapeAutomation {
  id: number;
  app_id: number;
  workspace_id: number;
  name: string;
  description?: string | null;
  paused: boolean;
  broken: boolean;
  broken_reason?: { errors: TapeAutomationError[] } | null;
  trigger: TapeAutomationTrigger | null;
  filter: TapeFilterGroup | null;
  actions: TapeAutomationAction[];
  created_at: string;
  updated_at: string;
}
/** The create / update body (manage.md); null only on update. */
export interface TapeAutomationWrite {
  name?: string;
  description?: string | null;
  trigger?: TapeAutomationTrigger | null;
  filter?: TapeFilterGroup | null;
  actions?: TapeAutomationAction[];
}
/** A revision (revisions.md): `id` is a 64-bit value sent as a JSON string. */
export interface TapeAutomationRevision {
  id: string;
  automation_id: number;
  created_at: string;
  name: string;
  paused: boolean;
  broken: boolean;
  trigger: TapeAutomationTrigger | null;
  filter: TapeFilterGroup | null;
  actions: TapeAutomationAction[];
}
export interface TapeCatalogTrigger { type: string; label: string; description?: string; config_schema?: Record<string, unknown> }
export interface TapeCatalogAction extends TapeCatalogTrigger { group: 'action' | 'control_flow' }
export interface TapeFilterOperator { operator: string; label: string; description?: string; value_arity: 'none' | 'single' | 'multiple' }
/** The manual-run / simulate body (execution.md): one of these per trigger kind, {} for periodic / no trigger. */
export interface TapeRunBody { record_id?: number; webhook_payload?: unknown; use_last_received_webhook_payload?: boolean }
/** POST /v1/automation/{id}/trigger (advanced.md). */
export interface TapeCallBody {
  trigger_on_record_id: number;
  triggered_by_record_id?: number;
  triggered_by_workflow_def_id?: number;
  trigger_with_arguments?: Record<string, unknown>;
  is_manual_run?: boolean;
  is_simulation?: boolean;
}
/** POST /v1/automation/weblink/generate (advanced.md). */
export interface TapeWeblinkBody extends Omit<TapeCallBody, 'is_manual_run'> {
  trigger_workflow_def_id: number;
  expiration_type?: 'NEVER' | 'ONE_DAY' | 'ONE_WEEK' | 'ONE_MONTH' | 'ONE_YEAR';
  expire_after_first_click?: boolean;
  is_manual_run?: boolean;
}
/** A run (automation-run.md): `id` and `automation_revision_id` are 64-bit values sent as strings. */
export interface TapeAutomationRun {
  id: string;
  automation_id: number;
  automation_name: string;
  automation_revision_id: string | null;
  app_id: number;
  app_name: string;
  workspace_id: number;
  status: 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
  type: 'regular' | 'manual' | 'simulation';
  created_at: string;
  filtering_at?: string | null;
  started_at?: string | null;
  completed_at: string | null;
  execution_duration_ms?: number | null;
  waiting_duration_ms?: number | null;
  num_consumed_actions: number;
  failure_reason: string | null;
  error_message: string | null;
  triggered_on_record_id: number | null;
  triggered_on_record_revision_id: number | null;
  triggered_by_automation_id: number | null;
  logs?: TapeAutomationRunLog[];
}
export interface TapeAutomationRunLog {
  id: string;
  type: 'trigger' | 'filter' | 'action' | 'exception';
  status: 'in_progress' | 'success' | 'failure' | 'skipped' | 'cancelled';
  label: string;
  messages: { message: string; level: 'info' | 'warn' | 'error' | 'success' | null }[];
  action_id: string | null;
  record_id: number | null;
  logged_at: string;
}
/** The general run listing's filters (automation-run.md); a cursor is sent alone (with limit). */
export interface TapeRunListBody {
  cursor?: string;
  limit?: number;
  app_ids?: number[];
  automation_ids?: number[];
  workspace_ids?: number[];
  status?: TapeAutomationRun['status'][];
  created_at_from?: string;
  created_at_to?: string;
}
export interface TapeUsageBucket {
  organization_id: number;
  from: string;
  to: string;
  num_consumed_actions: number;
  num_succeeded_runs: number;
  num_failed_runs: number;
  num_cancelled_runs: number;
}
/** Where automations or runs are listed: one app, one workspace, or the key's organization. */
export type TapeAutomationScope = { app_id: number } | { workspace_id: number } | Record<string, never>;

export const TAPE_BASE_URL = 'https://api.tapeapp.com';

/**
 * Tape's error body is {status_code, endpoint, error_code, error_message}. A malformed key is
 * answered 400 "Invalid user API key …" (authentication.md): that is an UNAUTHORIZED for us.
 */
function describeTapeError(body: unknown): VendorError {
  const b = (body ?? {}) as { error_code?: unknown; error_message?: unknown };
  const code = typeof b.error_code === 'string' ? b.error_code : undefined;
  const message = typeof b.error_message === 'string' ? b.error_message : undefined;
  const badKey = message !== undefined && /invalid user api key/i.test(message);
  return { code, message, ...(badKey ? { as: 'UNAUTHORIZED' as const } : {}) };
}

/** The only place that knows Tape's paths. One instance per call, bound to the caller's key. */
export function createTapeClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    baseUrl: env.baseUrl,
    fetch: env.fetch,
    timeoutMs: env.timeoutMs,
    headers: { authorization: `Bearer ${key}` },
    describeError: describeTapeError,
    vendor: 'Tape',
  });

  return {
    // --- workspaces (workspace.md) ---
    listWorkspaces: () => request<{ total: number; workspaces: TapeWorkspace[] }>({ method: 'GET', path: '/v1/workspace/org' }),
    createWorkspace: (body: { name: string; type: TapeWorkspace['type']; description?: string }) =>
      request<TapeWorkspace>({ method: 'POST', path: '/v1/workspace', body }),
    updateWorkspace: (id: number, body: { name?: string; description?: string | null }) =>
      request<TapeWorkspace>({ method: 'PUT', path: `/v1/workspace/${id}`, body, idempotent: true }),
    deleteWorkspace: (id: number) => request<TapeWorkspace>({ method: 'DELETE', path: `/v1/workspace/${id}` }),
    listWorkspaceMembers: (id: number) =>
      request<{ workspace_members: TapeWorkspaceMember[] }>({ method: 'GET', path: `/v1/workspace/${id}/member` }),
    // Tape adds or changes the role: sending it twice leaves the same state.
    addWorkspaceMember: (id: number, body: { user_id: number; role: 'admin' | 'member' }) =>
      request<TapeWorkspaceMember>({ method: 'POST', path: `/v1/workspace/${id}/member`, body, idempotent: true }),
    removeWorkspaceMember: (id: number, userId: number) =>
      request<TapeWorkspaceMember>({ method: 'DELETE', path: `/v1/workspace/${id}/member/${userId}` }),

    // --- apps, organization, users (app.md, organization.md, user.md) ---
    listApps: () => request<{ total: number; apps: TapeAppSummary[] }>({ method: 'GET', path: '/v1/app' }),
    listWorkspaceApps: (workspaceId: number) =>
      request<{ total: number; apps: TapeAppSummary[] }>({ method: 'GET', path: `/v1/app/workspace/${workspaceId}` }),
    getApp: (appId: number) => request<TapeAppWithFields>({ method: 'GET', path: `/v1/app/${appId}` }),
    createApp: (body: TapeAppWrite & { workspace_id: number; name: string }) => request<TapeAppWithFields>({ method: 'POST', path: '/v1/app', body }),
    // New fields in `fields` (no field_id) would be created twice: not retried.
    updateApp: (appId: number, body: TapeAppWrite) => request<TapeAppWithFields>({ method: 'PUT', path: `/v1/app/${appId}`, body }),
    // Sets the whole order: sending it twice leaves the same state.
    updateAppFieldOrder: (appId: number, fieldIds: number[]) =>
      request<TapeAppWithFields>({ method: 'PUT', path: `/v1/app/${appId}/fields/order`, body: { fields: fieldIds.map((field_id) => ({ field_id })) }, idempotent: true }),
    deleteApp: (appId: number) => request<Record<string, never>>({ method: 'DELETE', path: `/v1/app/${appId}` }),
    getOrganization: () => request<TapeOrganization>({ method: 'GET', path: '/v1/org' }),
    listOrganizationUsers: () => request<{ users: TapeOrgUser[]; total: number }>({ method: 'GET', path: '/v1/org/user' }),

    // --- records (record.md, record-revision.md, record-comment.md) ---
    // Writes run webhooks and automations: none is retried.
    createRecord: (appId: number, fields: TapeFieldInputs, flags: TapeWriteFlags = {}) =>
      request<TapeRecord>({ method: 'POST', path: `/v1/record/app/${appId}`, query: { ...flags }, body: { fields } }),
    getRecord: (recordId: number, query: { include_deleted?: boolean } = {}) =>
      request<TapeRecord>({ method: 'GET', path: `/v1/record/${recordId}`, query: { ...query } }),
    updateRecord: (recordId: number, fields: TapeFieldInputs, flags: TapeWriteFlags = {}) =>
      request<TapeRecord>({ method: 'PUT', path: `/v1/record/${recordId}`, query: { ...flags }, body: { fields } }),
    // A repeat answers 400 record_deleted: not retried.
    deleteRecord: (recordId: number, flags: { silent?: boolean; hook?: boolean; skip_trash?: boolean } = {}) =>
      request<TapeRecord>({ method: 'DELETE', path: `/v1/record/${recordId}`, query: { ...flags } }),
    restoreRecord: (recordId: number, flags: { silent?: boolean; hook?: boolean } = {}) =>
      request<TapeRecord>({ method: 'POST', path: `/v1/record/${recordId}/restore`, query: { ...flags } }),
    listRecords: (appId: number, query: TapeRecordListQuery = {}) =>
      request<TapeRecordPage>({ method: 'GET', path: `/v1/record/app/${appId}`, query: { ...query } }),
    // The records a view matches, in the view's order (record.md "Retrieve records for a view"): limit (default 50, max 500), cursor.
    listViewRecords: (viewId: number, query: { limit?: number; cursor?: string } = {}) =>
      request<TapeRecordPage>({ method: 'GET', path: `/v1/record/view/${viewId}`, query: { ...query } }),
    // A read over POST: safe to repeat. cursor and limit go in the query string (record.md, pagination.md).
    filterRecords: (appId: number, filters: unknown[], query: TapeRecordListQuery = {}) =>
      request<TapeRecordPage>({ method: 'POST', path: `/v1/record/filter/app/${appId}`, query: { ...query }, body: { filters }, idempotent: true }),
    // Not paginated: at most 1000 records (limit in the query); total = records returned.
    relatedRecords: (
      appId: number,
      refAppId: number,
      body: { recordIds: number[]; direction?: 'forward' | 'reverse' | 'both'; relationFieldIds?: number[] },
      query: { limit?: number } = {},
    ) => request<{ total: number; records: TapeRecord[] }>({ method: 'POST', path: `/v1/record/app/${appId}/ref/${refAppId}`, query: { ...query }, body, idempotent: true }),
    // At most 10 records, without fields.
    findRelatableRecords: (fieldId: number, text: string) =>
      request<{ total: number; records: TapeRecord[] }>({ method: 'GET', path: `/v1/record/field/${fieldId}/find`, query: { text } }),
    // At most 50 inputs; one invalid input fails the whole batch (record.md).
    batchCreateRecords: (appId: number, inputs: { fields: TapeFieldInputs }[], flags: TapeWriteFlags = {}) =>
      request<{ records: TapeRecord[] }>({ method: 'POST', path: `/v1/record/app/batch/${appId}`, query: { ...flags }, body: { inputs } }),
    batchUpdateRecords: (appId: number, inputs: { record_id: number; fields: TapeFieldInputs }[], flags: TapeWriteFlags & { empty_response?: boolean } = {}) =>
      request<{ records: TapeRecord[] }>({ method: 'PUT', path: `/v1/record/app/batch/${appId}`, query: { ...flags }, body: { inputs } }),
    listRecordRevisions: (recordId: number, query: { include_deleted?: boolean } = {}) =>
      request<{ total: number; revisions: TapeRevision[] }>({ method: 'GET', path: `/v1/record/${recordId}/revision`, query: { ...query } }),
    getRecordRevisionDelta: (recordId: number, toRevision: number) =>
      request<TapeRevisionDelta>({ method: 'GET', path: `/v1/record/${recordId}/revision/previous/${toRevision}` }),
    createComment: (recordId: number, body: { value: string; file_ids?: (string | number)[] }, flags: { silent?: boolean; hook?: boolean } = {}) =>
      request<TapeComment>({ method: 'POST', path: `/v1/comment/record/${recordId}`, query: { ...flags }, body }),
    getComment: (commentId: number) => request<TapeComment>({ method: 'GET', path: `/v1/comment/${commentId}` }),
    // limit default 50, max 100.
    listComments: (recordId: number, query: { limit?: number; cursor?: string } = {}) =>
      request<{ total: number; cursor: string | null; comments: TapeComment[] }>({ method: 'GET', path: `/v1/comment/record/${recordId}`, query: { ...query } }),
    deleteComment: (commentId: number, flags: { silent?: boolean; hook?: boolean } = {}) =>
      request<Record<string, never>>({ method: 'DELETE', path: `/v1/comment/${commentId}`, query: { ...flags } }),

    // --- views (view.md) ---
    getAppViews: (appId: number) => request<{ views: TapeViewPreview[]; total: number }>({ method: 'GET', path: `/v1/app/${appId}/views` }),
    getView: (viewId: number) => request<{ view: TapeView }>({ method: 'GET', path: `/v1/view/${viewId}` }),
    // A repeat after a lost answer would create a second view: not retried.
    createView: (appId: number, body: TapeViewWrite) => request<{ view: TapeView }>({ method: 'POST', path: `/v1/view/app/${appId}`, body }),
    // Replaces what it names: sending it twice leaves the same state.
    updateView: (viewId: number, body: TapeViewWrite) => request<{ view: TapeView }>({ method: 'PUT', path: `/v1/view/${viewId}`, body, idempotent: true }),
    // Promoting the default again is a no-op (view.md).
    makeViewDefault: (viewId: number) => request<{ view: TapeView }>({ method: 'POST', path: `/v1/view/${viewId}/default`, idempotent: true }),
    deleteView: (viewId: number) => request<{ view_id: number }>({ method: 'DELETE', path: `/v1/view/${viewId}` }),

    // --- webhooks (webhook.md) ---
    listWebhooks: (appId: number) => request<{ webhooks: TapeWebhook[]; total: number }>({ method: 'GET', path: `/v1/hook/app/${appId}` }),
    createWebhook: (appId: number, body: { type: TapeWebhookType; url: string }) =>
      request<TapeWebhook>({ method: 'POST', path: `/v1/hook/app/${appId}`, body }),
    deleteWebhook: (hookId: number) => request<TapeWebhook>({ method: 'DELETE', path: `/v1/hook/${hookId}` }),
    // Each call sends a new code to the url: not retried.
    requestWebhookVerification: (hookId: number) => request<TapeWebhook>({ method: 'POST', path: `/v1/hook/${hookId}/verify/request` }),
    // A repeat after a lost answer would fail ("already verified"): not retried.
    validateWebhookVerification: (hookId: number, body: { code: string }) =>
      request<TapeWebhook>({ method: 'POST', path: `/v1/hook/${hookId}/verify/validate`, body }),

    // --- automations (automation/*.md, automation-run.md) ---
    // Discovery (discovery.md): the same catalog for every key.
    listAutomationTriggerTypes: () => request<{ triggers: TapeCatalogTrigger[] }>({ method: 'GET', path: '/v1/automation/meta/trigger' }),
    listAutomationActionTypes: () => request<{ actions: TapeCatalogAction[] }>({ method: 'GET', path: '/v1/automation/meta/action' }),
    listAutomationFilterOperators: (fieldType: string) =>
      request<{ field_type: string; operators: TapeFilterOperator[] }>({ method: 'GET', path: '/v1/automation/meta/filter', query: { field_type: fieldType } }),
    // manage.md: app, workspace, or (no scope) the key's organization; limit 1-100, scope-pinned cursor.
    listAutomations: (scope: TapeAutomationScope, query: { limit?: number; cursor?: string } = {}) =>
      request<{ total: number; cursor: string | null; automations: TapeAutomation[] }>({
        method: 'GET',
        path: 'app_id' in scope ? `/v1/automation/app/${scope.app_id}` : 'workspace_id' in scope ? `/v1/automation/workspace/${scope.workspace_id}` : '/v1/automation/org',
        query: { ...query },
      }),
    getAutomation: (automationId: number) => request<{ automation: TapeAutomation }>({ method: 'GET', path: `/v1/automation/${automationId}` }),
    // A repeat would create a second automation: not retried.
    createAutomation: (appId: number, body: TapeAutomationWrite) =>
      request<{ automation: TapeAutomation }>({ method: 'POST', path: `/v1/automation/app/${appId}`, body }),
    // Every update mints a revision: a repeat would mint two, so not retried.
    updateAutomation: (automationId: number, body: TapeAutomationWrite) =>
      request<{ automation: TapeAutomation }>({ method: 'PUT', path: `/v1/automation/${automationId}`, body }),
    replaceAutomationTrigger: (automationId: number, trigger: TapeAutomationTrigger) =>
      request<{ automation: TapeAutomation }>({ method: 'PUT', path: `/v1/automation/${automationId}/trigger`, body: trigger }),
    // Both idempotent (manage.md).
    activateAutomation: (automationId: number) =>
      request<{ automation: TapeAutomation }>({ method: 'POST', path: `/v1/automation/${automationId}/activate`, idempotent: true }),
    pauseAutomation: (automationId: number) =>
      request<{ automation: TapeAutomation }>({ method: 'POST', path: `/v1/automation/${automationId}/pause`, idempotent: true }),
    deleteAutomation: (automationId: number) => request<{ automation: TapeAutomation }>({ method: 'DELETE', path: `/v1/automation/${automationId}` }),
    validateAutomation: (automationId: number) =>
      request<{ valid: boolean; errors: TapeAutomationError[] }>({ method: 'GET', path: `/v1/automation/${automationId}/validate` }),
    // execution.md: 202 with a message and no run id. A manual run has side effects: not retried; simulate has none.
    runAutomation: (automationId: number, body: TapeRunBody) =>
      request<{ message?: string }>({ method: 'POST', path: `/v1/automation/${automationId}/manual-run`, body }),
    simulateAutomation: (automationId: number, body: TapeRunBody) =>
      request<{ message?: string }>({ method: 'POST', path: `/v1/automation/${automationId}/simulate`, body }),
    // advanced.md: call an automation_called automation (202 {}), mint a weblink (201).
    callAutomation: (automationId: number, body: TapeCallBody) =>
      request<Record<string, never>>({ method: 'POST', path: `/v1/automation/${automationId}/trigger`, body }),
    generateAutomationWeblink: (body: TapeWeblinkBody) =>
      request<{ trigger_token: string; trigger_client_url: string }>({ method: 'POST', path: '/v1/automation/weblink/generate', body }),
    // revisions.md: newest first, unpaginated; the revision id travels as the string Tape sent.
    listAutomationRevisions: (automationId: number) =>
      request<{ revisions: TapeAutomationRevision[] }>({ method: 'GET', path: `/v1/automation/${automationId}/revision` }),
    getAutomationRevision: (automationId: number, revisionId: string) =>
      request<{ revision: TapeAutomationRevision }>({ method: 'GET', path: `/v1/automation/${automationId}/revision/${encodeURIComponent(revisionId)}` }),
    // automation-run.md: reads over POST, safe to repeat. The general list takes filters; the scoped ones cursor and limit only.
    listAutomationRuns: (body: TapeRunListBody) =>
      request<{ total: number; cursor: string | null; automation_runs: TapeAutomationRun[] }>({ method: 'POST', path: '/v1/automation-run', body, idempotent: true }),
    listScopedAutomationRuns: (scope: { app_id: number } | { workspace_id: number } | { automation_id: number }, body: { cursor?: string; limit?: number }) =>
      request<{ total: number; cursor: string | null; automation_runs: TapeAutomationRun[] }>({
        method: 'POST',
        path: 'app_id' in scope ? `/v1/automation-run/app/${scope.app_id}` : 'workspace_id' in scope ? `/v1/automation-run/workspace/${scope.workspace_id}` : `/v1/automation-run/automation/${scope.automation_id}`,
        body,
        idempotent: true,
      }),
    getAutomationRun: (runId: string) =>
      request<{ automation_run: TapeAutomationRun }>({ method: 'GET', path: `/v1/automation-run/${encodeURIComponent(runId)}` }),
    // automation-usage-report.md: both query parameters required.
    getAutomationUsageReport: (query: { limit: number; interval_resolution: 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' }) =>
      request<{ organization_id: number; usage_reports: TapeUsageBucket[] }>({ method: 'GET', path: '/v1/automation-usage-report', query: { ...query } }),

    // --- files (file.md) ---
    // multipart/form-data, one `file` part per file; Tape answers one object for one file, an array for more.
    // Not retried: a repeat would upload the files twice.
    uploadFiles: async (files: TapeUpload[]): Promise<TapeFile[]> => {
      const form = new FormData();
      for (const f of files) form.append('file', new Blob([f.content], { type: f.mimetype }), f.name);
      const r = await request<TapeFile | TapeFile[]>({ method: 'POST', path: '/v1/file/upload', body: form });
      return Array.isArray(r) ? r : [r];
    },
  };
}

export type TapeClient = ReturnType<typeof createTapeClient>;
