/** Tape's wire shapes (snake_case, as documented in docs/vendors/tape.md). */
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

/** docs/vendors/tape.md#webhooks: one event type per hook. */
export type TapeWebhookType = 'record.create' | 'record.update' | 'record.delete' | 'record.restore' | 'comment.create' | 'comment.delete' | 'app.update';

/** A hook as docs/vendors/tape.md#webhooks shows it; verify/validate/delete answers carry no app_id. */
export interface TapeWebhook {
  hook_id: number;
  app_id?: number;
  status: 'active' | 'inactive';
  num_failed_executions: number;
  type: TapeWebhookType;
  url: string;
}

/** A file object of docs/vendors/tape.md#files (POST /v1/file/upload); `file_id` is a temporary id until the file is attached. */
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

/** A field of an app as GET /v1/app/{id} returns it (docs/vendors/tape.md#apps); `config.settings` depends on the field type (docs/vendors/tape.md#fields-and-values). */
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

/** An app as the listings of docs/vendors/tape.md#apps show it (no fields); `workspace_name` only in GET /v1/app. */
export interface TapeAppSummary {
  app_id: number;
  workspace_id: number;
  workspace_name?: string;
  name: string;
  slug: string;
  type: 'database' | 'dashboard' | 'form';
  config: { item_name: string; name: string; description: string };
}

/** An app with its fields, as GET /v1/app/{id} (and POST/PUT /v1/app) returns it (docs/vendors/tape.md#apps). */
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

/** A field definition to create (field_type + config) or, with field_id, to update (docs/vendors/tape.md#fields-and-values). */
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

/** docs/vendors/tape.md#organization: the key's organization; `active_user_id` is the key's user. */
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

/** docs/vendors/tape.md#users: a user of the organization. */
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
 * One entry of a record field's `values` (docs/vendors/tape.md#fields-and-values). Most types wrap the datum in `value`
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

/** A record as docs/vendors/tape.md#records returns it; `fields` holds only the fields with a value; no `fields` from the relatable search. */
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

/** A cursor page of records (docs/vendors/tape.md#pagination): the end is a page shorter than `limit`. */
export interface TapeRecordPage {
  total: number;
  cursor: string | null;
  records: TapeRecord[];
}

/** Field values to write, keyed by field_id or external_id (input forms of docs/vendors/tape.md#fields-and-values). */
export type TapeFieldInputs = Record<string, unknown>;

/** Query flags of record writes (docs/vendors/tape.md#records): silent (no notifications), hook (run webhooks), workflow (trigger automations). */
export interface TapeWriteFlags {
  silent?: boolean;
  hook?: boolean;
  workflow?: boolean;
}

/** Listing query of docs/vendors/tape.md#records: limit (default 50, max 500), opaque cursor, sort_by (a field's external_id), sort_desc. */
export interface TapeRecordListQuery {
  limit?: number;
  cursor?: string;
  sort_by?: string;
  sort_desc?: boolean;
}

/** docs/vendors/tape.md#record-revisions: revision metadata (no values). */
export interface TapeRevision {
  created_by: TapeUserRef;
  created_on: string;
  type: string;
  revision: number;
}

/** docs/vendors/tape.md#record-revisions: what changed from revision `from_revision_id` to `to_revision_id`. */
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

/** docs/vendors/tape.md#record-comments: a comment on a record. */
export interface TapeComment {
  comment_id: number;
  value: string;
  created_on: string;
  ref: { type: 'record'; id: number };
  files: { file_id: number | string; name: string; size: number }[];
  created_by: TapeUserRef;
  user: TapeUserRef;
}

/** docs/vendors/tape.md#views: a view filter is the record filter object of docs/vendors/tape.md#record-filters. */
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

/** docs/vendors/tape.md#views: what GET /v1/app/{id}/views lists. */
export interface TapeViewPreview {
  id: number;
  view_id: number;
  name: string | null;
  app_id: number;
  is_default: boolean;
  layout: TapeViewLayout;
  private: boolean;
}

/** docs/vendors/tape.md#views: the preview plus the definition (also show_progress, table and board, which the tools do not expose). */
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

// --- automations (docs/vendors/tape.md#automations, #automation-runs, #automation-usage-report) ---
/** A trigger {type, config} (docs/vendors/tape.md#automation-triggers); a webhook_received config carries the read-only webhook_url. */
export interface TapeAutomationTrigger { type: string; config: Record<string, unknown> }
/** The filter tree (docs/vendors/tape.md#automation-filters): a group {operator, rows} or a condition {subject, operator, value?} / {code}. */
export type TapeFilterNode = { id?: string; operator?: string; rows?: TapeFilterNode[]; subject?: Record<string, unknown>; value?: Record<string, unknown>; code?: unknown[] };
export interface TapeFilterGroup { id?: string; operator: 'and' | 'or'; rows: TapeFilterNode[] }
/** An action (docs/vendors/tape.md#automation-actions); control flow keeps condition / action_rows / iterable inside config. */
export interface TapeAutomationAction {
  id?: string;
  type: string;
  group?: 'action' | 'control_flow';
  custom_name?: string;
  deactivate?: boolean;
  continue_on_error?: boolean;
  config: Record<string, unknown>;
}
/** A validate / broken_reason entry (docs/vendors/tape.md#automation-errors); `deactivated` is absent when false. */
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
/** The automation object (docs/vendors/tape.md#automation-object); `description` is absent when unset. */
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
/** The create / update body (docs/vendors/tape.md#automation-management); null only on update. */
export interface TapeAutomationWrite {
  name?: string;
  description?: string | null;
  trigger?: TapeAutomationTrigger | null;
  filter?: TapeFilterGroup | null;
  actions?: TapeAutomationAction[];
}
/** A revision (docs/vendors/tape.md#automation-revisions): `id` is a 64-bit value sent as a JSON string. */
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
/** The manual-run / simulate body (docs/vendors/tape.md#automation-execution): one of these per trigger kind, {} for periodic / no trigger. */
export interface TapeRunBody { record_id?: number; webhook_payload?: unknown; use_last_received_webhook_payload?: boolean }
/** POST /v1/automation/{id}/trigger (docs/vendors/tape.md#automation-advanced). */
export interface TapeCallBody {
  trigger_on_record_id: number;
  triggered_by_record_id?: number;
  triggered_by_workflow_def_id?: number;
  trigger_with_arguments?: Record<string, unknown>;
  is_manual_run?: boolean;
  is_simulation?: boolean;
}
/** POST /v1/automation/weblink/generate (docs/vendors/tape.md#automation-advanced). */
export interface TapeWeblinkBody extends Omit<TapeCallBody, 'is_manual_run'> {
  trigger_workflow_def_id: number;
  expiration_type?: 'NEVER' | 'ONE_DAY' | 'ONE_WEEK' | 'ONE_MONTH' | 'ONE_YEAR';
  expire_after_first_click?: boolean;
  is_manual_run?: boolean;
}
/** A run (docs/vendors/tape.md#automation-runs): `id` and `automation_revision_id` are 64-bit values sent as strings. */
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
/** The general run listing's filters (docs/vendors/tape.md#automation-runs); a cursor is sent alone (with limit). */
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
