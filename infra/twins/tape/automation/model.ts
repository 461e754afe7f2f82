/**
 * Shapes of the Tape twin's automation resource, as docs/vendors/tape.md#automation-object, #automation-revisions,
 * docs/vendors/tape.md#automation-runs and #automation-usage-report put them on the wire.
 */

/** A dynamic value: literals interleaved with references (docs/vendors/tape.md#automation-dynamic-values). */
export type DynamicValue = (string | Reference)[];
export interface Reference {
  kind: 'variable' | 'value';
  source?: string;
  value_type?: string;
  property?: string;
  [key: string]: unknown;
}

export interface Trigger {
  type: string;
  config: Record<string, unknown>;
}

/** A filter group or condition (docs/vendors/tape.md#automation-filters). */
export interface FilterNode {
  id?: string;
  operator?: string;
  rows?: FilterNode[];
  subject?: Reference;
  value?: Record<string, unknown>;
  code?: DynamicValue;
}

export interface Action {
  id: string;
  type: string;
  group: 'action' | 'control_flow';
  custom_name?: string;
  deactivate?: boolean;
  continue_on_error?: boolean;
  config: Record<string, unknown>;
}

export interface BrokenError {
  code: string;
  message: string;
  deactivated?: boolean;
  block_id?: string | null;
  action_id?: string | null;
  app_id?: number;
  field_id?: number;
  automation_id?: number;
  option_id?: number;
  [key: string]: unknown;
}

/** An automation as the twin stores it. */
export interface StoredAutomation {
  id: number;
  app_id: number;
  workspace_id: number;
  name: string;
  description?: string;
  paused: boolean;
  broken: boolean;
  broken_reason: { errors: BrokenError[] } | null;
  trigger: Trigger | null;
  filter: FilterNode | null;
  actions: Action[];
  created_at: string;
  updated_at: string;
  deleted: boolean;
  /** The user who created it: the author of its writes unless an action names one (not on the wire). */
  author_id: number;
  /** The stored definition can't be read (a pre-migration row): reads fail until `actions` is replaced. */
  unserializable: boolean;
  /** Token of the webhook URL, minted once the automation has a webhook_received trigger and kept for good. */
  webhook_token?: string;
  /** The last payload its webhook received (use_last_received_webhook_payload). */
  last_webhook_payload?: unknown;
}

export interface Revision {
  /** A 64-bit value, kept and sent as a string. */
  id: string;
  automation_id: number;
  created_at: string;
  name: string;
  paused: boolean;
  broken: boolean;
  trigger: Trigger | null;
  filter: FilterNode | null;
  actions: Action[];
}

export type RunStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type RunType = 'regular' | 'manual' | 'simulation';
export type FailureReason =
  | 'filters_setup_failed'
  | 'filters_failed'
  | 'actions_setup_failed'
  | 'actions_failed'
  | 'actions_timeout'
  | 'actions_resource_limit_exceeded'
  | 'exit_on_purpose';

export interface RunLog {
  id: string;
  type: 'trigger' | 'filter' | 'action' | 'exception';
  status: 'in_progress' | 'success' | 'failure' | 'skipped' | 'cancelled';
  label: string;
  messages: { message: string; level: 'info' | 'warn' | 'error' | 'success' | null }[];
  action_id: string | null;
  record_id: number | null;
  logged_at: string;
}

export interface Run {
  id: string;
  automation_id: number;
  automation_name: string;
  automation_revision_id: string;
  app_id: number;
  app_name: string;
  workspace_id: number;
  status: RunStatus;
  type: RunType;
  created_at: string;
  filtering_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  execution_duration_ms: number | null;
  waiting_duration_ms: number | null;
  num_consumed_actions: number;
  failure_reason: FailureReason | null;
  error_message: string | null;
  triggered_on_record_id: number | null;
  triggered_on_record_revision_id: number | null;
  triggered_by_automation_id: number | null;
  logs: RunLog[];
}

/** An email a send_email action "sent": kept in the twin's outbox, never delivered. */
export interface OutboxEmail {
  /** Who sent it: a send_email action, POST /v1/email/send, or an invitation to the organization. */
  source: 'automation' | 'api' | 'invitation';
  /** The run, automation and action of a send_email; null for the others. */
  run_id: string | null;
  automation_id: number | null;
  action_id: string | null;
  record_id: number | null;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string | null;
  from_address: string | null;
  from_name: string | null;
  subject: string;
  body: string;
  smtp_account_id: number | null;
  /** Files attached by id (docs/vendors/tape.md#email attachment_ids). */
  attachment_ids?: number[];
  sent_at: string;
}

/** An outbound request an http_call action made (or was refused). */
export interface HttpCallRecord {
  run_id: string;
  action_id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  allowed: boolean;
  status: number | null;
  /** authenticated_http_call: the provider that signed it (its header values are not kept here). */
  authentication_provider_id?: number;
}
