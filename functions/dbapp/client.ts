import { ToolError } from '../../shared/core/errors';
import { createUpstream, downloadLink, naming, UNNAMED, type VendorError } from '../../shared/vendor/upstream';
import type { PlatformEnv } from '../../shared/core/tool';
import { contractedRequest } from '../../shared/vendor/vendor-contract';
import * as z from 'zod';
import type {
  TapeAppSummary, TapeAppWithFields, TapeAppWrite, TapeAutomation, TapeAutomationError, TapeAutomationRevision,
  TapeAutomationRun, TapeAutomationScope, TapeAutomationTrigger, TapeAutomationWrite, TapeCallBody, TapeCatalogAction,
  TapeCatalogTrigger, TapeComment, TapeFieldInputs, TapeFile, TapeFilterOperator, TapeOrgUser, TapeOrganization,
  TapeRecord, TapeRecordListQuery, TapeRecordPage, TapeRevision, TapeRevisionDelta, TapeRunBody, TapeRunListBody,
  TapeUpload, TapeUsageBucket, TapeView, TapeViewPreview, TapeViewWrite, TapeWebhook, TapeWebhookType, TapeWeblinkBody,
  TapeWorkspace, TapeWorkspaceMember, TapeWriteFlags,
} from './wire';

export const TAPE_BASE_URL = 'https://api.tapeapp.com';

/**
 * Tape's error body is {status_code, endpoint, error_code, error_message}, plus `retry_after`
 * (seconds) on a 429. A malformed key is answered 400 "Invalid user API key …"
 * (docs/vendors/tape.md#authentication): that is an UNAUTHORIZED for us.
 */
/** The next step when an automation-type key calls a view endpoint. */
export const USER_KEY_NEEDED =
  'Views are read and managed with a user-type API key (a person\'s key, from Tape\'s API settings, with SHARE access to the app); ' +
  'this is an automation-type key. Call again with a user key.';

function describeTapeError(body: unknown): VendorError {
  const b = (body ?? {}) as { error_code?: unknown; error_message?: unknown; retry_after?: unknown };
  const code = typeof b.error_code === 'string' ? b.error_code : undefined;
  const message = typeof b.error_message === 'string' ? b.error_message : undefined;
  const badKey = message !== undefined && /invalid user api key/i.test(message);
  // Views answer an automation-type key 401 "…can only be accessed with a user API key": the key is
  // valid, its kind lacks the permission, so FORBIDDEN saying which key works.
  const automationKey = !badKey && message !== undefined && /only be accessed with a user api key/i.test(message);
  // A deleted record is answered 400 "Record is deleted(17)!" (docs/vendors/tape.md#records): for the caller it is gone (NOT_FOUND), restorable.
  const deleted = message !== undefined ? /Record is deleted\((\d+)\)/.exec(message) : null;
  // Without a body field the shared upstream falls back to the Retry-After header.
  const retryAfter = typeof b.retry_after === 'number' ? b.retry_after : undefined;
  return {
    code,
    message,
    ...(badKey ? { as: 'UNAUTHORIZED' as const } : {}),
    ...(automationKey ? { as: 'FORBIDDEN' as const, hint: USER_KEY_NEEDED } : {}),
    ...(deleted
      ? {
          as: 'NOT_FOUND' as const,
          hint: `Record ${deleted[1]} is in the trash: restoreRecord with record_id ${deleted[1]} brings it back; listRecords lists the live ones.`,
          details: { parameter: 'record_id', record_id: Number(deleted[1]), deleted: true },
        }
      : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  };
}

// Tape's 400s name its own fields (`"cursor" is not a cursor…`, `Unknown field_type "x"`, `Record 5
// is not available…`) or nothing: each call below maps them to the tool's parameters (naming(), or
// tapeNaming() with the closest input for what names none).
const PAGE = { cursor: 'cursor', limit: 'limit' };
/** A record's field values: Tape says `Invalid value for field "<external_id>" (…)`, the key of `fields` the tool took. */
const FIELD_VALUE = /\bfield "([^"]+)"/;
const VIEW_WRITE = { filters: 'filters', split_by: 'split_by', sort_by: 'sort_by', 'fields|[Ff]ield \\d+': 'fields', layout: 'layout', name: 'name' };
const AUTOMATION_WRITE = { trigger: 'trigger', filter: 'filter', 'actions?': 'actions', name: 'name', description: 'description' };
const WORKSPACE_WRITE = { name: 'name', description: 'description', type: 'type' };

/**
 * Every Tape 400 a dbapp tool passes on names one of the tool's parameters and what it expects:
 * the one the message names (`sent`, as naming() reads it; a record field's value as
 * `fields.<key>`), else `closest`, the input the refused request was about, with `expected`
 * saying Tape's message names no input.
 */
async function tapeNaming<T>(call: Promise<T>, sent: Record<string, string>, closest: string, fields?: string): Promise<T> {
  try {
    return await naming(call, sent);
  } catch (e) {
    if (!(e instanceof ToolError) || e.code !== 'INVALID_PARAMETER' || e.details.upstream_status === undefined) throw e;
    const said = typeof e.details.vendor_message === 'string' ? e.details.vendor_message : '';
    const field = fields !== undefined ? FIELD_VALUE.exec(said)?.[1] : undefined;
    const named = field !== undefined ? `${fields}.${field}` : e.details.parameter !== UNNAMED ? String(e.details.parameter) : undefined;
    const parameter = named ?? closest;
    const expected =
      named !== undefined
        ? `a value of ${parameter} that Tape accepts (its message says what it refused)`
        : `a request Tape accepts: its message names no input, so ${closest}, the input the request was about, is named (the message says what it refused)`;
    throw new ToolError(e.code, e.message, { ...e.details, parameter, expected }, e.headers);
  }
}
const RECORD_PAGE = { ...PAGE, sort_by: 'sort_by' };
const RUN_FILTERS = { ...PAGE, automation_ids: 'automation_id', app_ids: 'app_id', workspace_ids: 'workspace_id', status: 'status', created_at_from: 'created_at_from', created_at_to: 'created_at_to' };
const AUTOMATION_CALL = { 'trigger_workflow_def_id|[Aa]utomation \\d+': 'automation_id', 'trigger_on_record_id|[Rr]ecord \\d+': 'record_id', trigger_with_arguments: 'arguments' };

// The parts of Tape's answers the tools read (shared/vendor/vendor-contract.ts): ids and names they render, the lists they page.
const WORKSPACE = z.looseObject({ workspace_id: z.number().int(), org_id: z.number().int(), name: z.string(), slug: z.string(), type: z.string() });
const WORKSPACES = z.looseObject({ workspaces: z.array(WORKSPACE) });
const APP_SUMMARY = z.looseObject({ app_id: z.number().int(), workspace_id: z.number().int(), name: z.string() });
const APPS = z.looseObject({ apps: z.array(APP_SUMMARY) });
const APP = APP_SUMMARY.extend({ fields: z.array(z.looseObject({ field_id: z.number().int(), field_type: z.string(), label: z.string() })) });
const RECORD = z.looseObject({ record_id: z.number().int(), fields: z.array(z.looseObject({ field_id: z.number().int() })).optional() });
const RECORD_LIST = z.looseObject({ records: z.array(RECORD) });
// A batch create reads only the ids of its answer (50 whole records): checking each record's fields too cost more than the write's own work.
const CREATED_IDS = z.looseObject({ records: z.array(z.looseObject({ record_id: z.number().int() })) });
const RECORD_PAGE_ANSWER = RECORD_LIST.extend({ total: z.number(), cursor: z.string().nullable().optional() });
const ID = z.number().int();
const PAGE_CURSOR = z.string().nullable().optional();
const COMMENT = z.looseObject({ comment_id: ID, value: z.string(), created_on: z.string() });
const VIEW_PREVIEW = z.looseObject({ view_id: ID, name: z.string().nullable(), app_id: ID });
const ONE_VIEW = z.looseObject({ view: VIEW_PREVIEW });
const WEBHOOK = z.looseObject({ hook_id: ID, status: z.string(), type: z.string(), url: z.string() });
const AUTOMATION = z.looseObject({ id: ID, app_id: ID, name: z.string(), paused: z.boolean() });
const ONE_AUTOMATION = z.looseObject({ automation: AUTOMATION });
const AUTOMATION_RUN = z.looseObject({ id: z.string(), automation_id: ID, status: z.string() });
const RUN_PAGE = z.looseObject({ total: z.number(), cursor: PAGE_CURSOR, automation_runs: z.array(AUTOMATION_RUN) });
const ORG_USER = z.looseObject({ user_id: ID, name: z.string() });
const MEMBER = z.looseObject({ workspace_id: ID, user_id: ID, role: z.string() });

/** The only place that knows Tape's paths. One instance per call, bound to the caller's key. */
export function createTapeClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    ...env,
    headers: { authorization: `Bearer ${key}` },
    describeError: describeTapeError,
    vendor: 'Tape',
  });
  const checked = contractedRequest({ platform: 'dbapp', vendor: 'Tape' }, request);

  /**
   * docs/vendors/tape.md#automation-advanced: the call and weblink endpoints answer 400 (not 404) when the automation does not
   * exist. A 400 from them is checked against the automation itself, so a missing automation_id is
   * NOT_FOUND here as on every other automation tool.
   */
  async function missingAutomation<T>(automationId: number, call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (e) {
      if (!(e instanceof ToolError) || e.code !== 'INVALID_PARAMETER') throw e;
      const missing = await request({ method: 'GET', path: `/v1/automation/${automationId}` }).then(
        () => undefined,
        (err: unknown) => (err instanceof ToolError && err.code === 'NOT_FOUND' ? err : undefined),
      );
      if (missing) throw new ToolError('NOT_FOUND', missing.message, { ...missing.details, parameter: 'automation_id' });
      throw e;
    }
  }

  return {
    // --- workspaces (docs/vendors/tape.md#workspaces) ---
    listWorkspaces: () => checked<{ total: number; workspaces: TapeWorkspace[] }>(WORKSPACES, { method: 'GET', path: '/v1/workspace/org' }),
    createWorkspace: (body: { name: string; type: TapeWorkspace['type']; description?: string }) =>
      tapeNaming(checked<TapeWorkspace>(WORKSPACE, { method: 'POST', path: '/v1/workspace', body }), WORKSPACE_WRITE, 'name'),
    updateWorkspace: (id: number, body: { name?: string; description?: string | null }) =>
      tapeNaming(checked<TapeWorkspace>(WORKSPACE, { method: 'PUT', path: `/v1/workspace/${id}`, body, idempotent: true }), WORKSPACE_WRITE, 'workspace_id'),
    deleteWorkspace: (id: number) => tapeNaming(request<TapeWorkspace>({ method: 'DELETE', path: `/v1/workspace/${id}` }), {}, 'workspace_id'),
    listWorkspaceMembers: (id: number) =>
      checked<{ workspace_members: TapeWorkspaceMember[] }>(z.looseObject({ workspace_members: z.array(MEMBER) }), { method: 'GET', path: `/v1/workspace/${id}/member` }),
    // Tape adds or changes the role: sending it twice leaves the same state. A user outside the organization is a 400 ("User 5 is not a user of…").
    addWorkspaceMember: (id: number, body: { user_id: number; role: 'admin' | 'member' }) =>
      tapeNaming(request<TapeWorkspaceMember>({ method: 'POST', path: `/v1/workspace/${id}/member`, body, idempotent: true }), { 'user_id|[Uu]ser \\d+': 'user_id', role: 'role' }, 'user_id'),
    removeWorkspaceMember: (id: number, userId: number) =>
      tapeNaming(request<TapeWorkspaceMember>({ method: 'DELETE', path: `/v1/workspace/${id}/member/${userId}` }), {}, 'user_id'),

    // --- apps, organization, users (docs/vendors/tape.md#apps, #organization, #users) ---
    listApps: () => checked<{ total: number; apps: TapeAppSummary[] }>(APPS, { method: 'GET', path: '/v1/app' }),
    listWorkspaceApps: (workspaceId: number) =>
      checked<{ total: number; apps: TapeAppSummary[] }>(APPS, { method: 'GET', path: `/v1/app/workspace/${workspaceId}` }),
    getApp: (appId: number) => checked<TapeAppWithFields>(APP, { method: 'GET', path: `/v1/app/${appId}` }),
    createApp: (body: TapeAppWrite & { workspace_id: number; name: string }) => checked<TapeAppWithFields>(APP, { method: 'POST', path: '/v1/app', body }),
    // New fields in `fields` (no field_id) would be created twice: not retried.
    updateApp: (appId: number, body: TapeAppWrite) => request<TapeAppWithFields>({ method: 'PUT', path: `/v1/app/${appId}`, body }),
    // Sets the whole order: sending it twice leaves the same state.
    updateAppFieldOrder: (appId: number, fieldIds: number[]) =>
      request<TapeAppWithFields>({ method: 'PUT', path: `/v1/app/${appId}/fields/order`, body: { fields: fieldIds.map((field_id) => ({ field_id })) }, idempotent: true }),
    deleteApp: (appId: number) => request<Record<string, never>>({ method: 'DELETE', path: `/v1/app/${appId}` }),
    getOrganization: () => checked<TapeOrganization>(z.looseObject({ org_id: ID, name: z.string() }), { method: 'GET', path: '/v1/org' }),
    listOrganizationUsers: () => checked<{ users: TapeOrgUser[]; total: number }>(z.looseObject({ users: z.array(ORG_USER), total: z.number() }), { method: 'GET', path: '/v1/org/user' }),

    // --- records (docs/vendors/tape.md#records, #record-revisions, #record-comments) ---
    // Writes run webhooks and automations: none is retried.
    createRecord: (appId: number, fields: TapeFieldInputs, flags: TapeWriteFlags = {}) =>
      tapeNaming(checked<TapeRecord>(RECORD, { method: 'POST', path: `/v1/record/app/${appId}`, query: { ...flags }, body: { fields } }), {}, 'fields', 'fields'),
    getRecord: (recordId: number, query: { include_deleted?: boolean } = {}) =>
      checked<TapeRecord>(RECORD, { method: 'GET', path: `/v1/record/${recordId}`, query: { ...query } }),
    updateRecord: (recordId: number, fields: TapeFieldInputs, flags: TapeWriteFlags = {}) =>
      tapeNaming(checked<TapeRecord>(RECORD, { method: 'PUT', path: `/v1/record/${recordId}`, query: { ...flags }, body: { fields } }), {}, 'fields', 'fields'),
    // A repeat answers 400 record_deleted: not retried.
    deleteRecord: (recordId: number, flags: { silent?: boolean; hook?: boolean; skip_trash?: boolean } = {}) =>
      tapeNaming(request<TapeRecord>({ method: 'DELETE', path: `/v1/record/${recordId}`, query: { ...flags } }), {}, 'record_id'),
    restoreRecord: (recordId: number, flags: { silent?: boolean; hook?: boolean } = {}) =>
      tapeNaming(request<TapeRecord>({ method: 'POST', path: `/v1/record/${recordId}/restore`, query: { ...flags } }), { '[Rr]ecord \\d+': 'record_id' }, 'record_id'),
    listRecords: (appId: number, query: TapeRecordListQuery = {}) =>
      tapeNaming(checked<TapeRecordPage>(RECORD_PAGE_ANSWER, { method: 'GET', path: `/v1/record/app/${appId}`, query: { ...query } }), RECORD_PAGE, 'app_id'),
    // The records a view matches, in the view's order (docs/vendors/tape.md#records): limit (default 50, max 500), cursor.
    listViewRecords: (viewId: number, query: { limit?: number; cursor?: string } = {}) =>
      tapeNaming(checked<TapeRecordPage>(RECORD_PAGE_ANSWER, { method: 'GET', path: `/v1/record/view/${viewId}`, query: { ...query } }), PAGE, 'view_id'),
    // A read over POST: safe to repeat. cursor and limit go in the query string (docs/vendors/tape.md#records, #pagination).
    filterRecords: (appId: number, filters: unknown[], query: TapeRecordListQuery = {}) =>
      tapeNaming(checked<TapeRecordPage>(RECORD_PAGE_ANSWER, { method: 'POST', path: `/v1/record/filter/app/${appId}`, query: { ...query }, body: { filters }, idempotent: true, read: true }), { ...RECORD_PAGE, filters: 'filters' }, 'filters'),
    // Not paginated: at most 1000 records (limit in the query); total = records returned.
    relatedRecords: (
      appId: number,
      refAppId: number,
      body: { recordIds: number[]; direction?: 'forward' | 'reverse' | 'both'; relationFieldIds?: number[] },
      query: { limit?: number } = {},
    ) =>
      tapeNaming(
        request<{ total: number; records: TapeRecord[] }>({ method: 'POST', path: `/v1/record/app/${appId}/ref/${refAppId}`, query: { ...query }, body, idempotent: true, read: true }),
        { relationFieldIds: 'relation_field_ids', 'recordIds|[Rr]ecords? \\d+': 'record_ids', direction: 'direction', limit: 'limit' },
        'record_ids',
      ),
    // At most 10 records, without fields.
    findRelatableRecords: (fieldId: number, text: string) =>
      tapeNaming(request<{ total: number; records: TapeRecord[] }>({ method: 'GET', path: `/v1/record/field/${fieldId}/find`, query: { text } }), { '[Ff]ield \\d+': 'field_id', text: 'text' }, 'field_id'),
    // At most 50 inputs; one invalid input fails the whole batch (docs/vendors/tape.md#records).
    batchCreateRecords: (appId: number, inputs: { fields: TapeFieldInputs }[], flags: TapeWriteFlags = {}) =>
      checked<{ records: Pick<TapeRecord, 'record_id'>[] }>(CREATED_IDS, { method: 'POST', path: `/v1/record/app/batch/${appId}`, query: { ...flags }, body: { inputs } }),
    batchUpdateRecords: (appId: number, inputs: { record_id: number; fields: TapeFieldInputs }[], flags: TapeWriteFlags & { empty_response?: boolean } = {}) =>
      request<{ records: TapeRecord[] }>({ method: 'PUT', path: `/v1/record/app/batch/${appId}`, query: { ...flags }, body: { inputs } }),
    listRecordRevisions: (recordId: number, query: { include_deleted?: boolean } = {}) =>
      tapeNaming(request<{ total: number; revisions: TapeRevision[] }>({ method: 'GET', path: `/v1/record/${recordId}/revision`, query: { ...query } }), {}, 'record_id'),
    getRecordRevisionDelta: (recordId: number, toRevision: number) =>
      tapeNaming(request<TapeRevisionDelta>({ method: 'GET', path: `/v1/record/${recordId}/revision/previous/${toRevision}` }), {}, 'revision'),
    createComment: (recordId: number, body: { value: string; file_ids?: (string | number)[] }, flags: { silent?: boolean; hook?: boolean } = {}) =>
      tapeNaming(checked<TapeComment>(COMMENT, { method: 'POST', path: `/v1/comment/record/${recordId}`, query: { ...flags }, body }), { 'file_ids|[Ff]iles?': 'files', value: 'value' }, 'value'),
    getComment: (commentId: number) => checked<TapeComment>(COMMENT, { method: 'GET', path: `/v1/comment/${commentId}` }),
    // limit default 50, max 100.
    listComments: (recordId: number, query: { limit?: number; cursor?: string } = {}) =>
      tapeNaming(checked<{ total: number; cursor: string | null; comments: TapeComment[] }>(z.looseObject({ total: z.number(), cursor: PAGE_CURSOR, comments: z.array(COMMENT) }), { method: 'GET', path: `/v1/comment/record/${recordId}`, query: { ...query } }), PAGE, 'record_id'),
    deleteComment: (commentId: number, flags: { silent?: boolean; hook?: boolean } = {}) =>
      tapeNaming(request<Record<string, never>>({ method: 'DELETE', path: `/v1/comment/${commentId}`, query: { ...flags } }), {}, 'comment_id'),

    // --- views (docs/vendors/tape.md#views) ---
    getAppViews: (appId: number) => checked<{ views: TapeViewPreview[]; total: number }>(z.looseObject({ views: z.array(VIEW_PREVIEW), total: z.number() }), { method: 'GET', path: `/v1/app/${appId}/views` }),
    getView: (viewId: number) => checked<{ view: TapeView }>(ONE_VIEW, { method: 'GET', path: `/v1/view/${viewId}` }),
    // A repeat after a lost answer would create a second view: not retried.
    createView: (appId: number, body: TapeViewWrite) => tapeNaming(checked<{ view: TapeView }>(ONE_VIEW, { method: 'POST', path: `/v1/view/app/${appId}`, body }), VIEW_WRITE, 'app_id'),
    // Replaces what it names: sending it twice leaves the same state.
    updateView: (viewId: number, body: TapeViewWrite) => tapeNaming(checked<{ view: TapeView }>(ONE_VIEW, { method: 'PUT', path: `/v1/view/${viewId}`, body, idempotent: true }), VIEW_WRITE, 'view_id'),
    // Promoting the default again is a no-op (docs/vendors/tape.md#views).
    makeViewDefault: (viewId: number) => checked<{ view: TapeView }>(ONE_VIEW, { method: 'POST', path: `/v1/view/${viewId}/default`, idempotent: true }),
    deleteView: (viewId: number) => tapeNaming(request<{ view_id: number }>({ method: 'DELETE', path: `/v1/view/${viewId}` }), {}, 'view_id'),

    // --- webhooks (docs/vendors/tape.md#webhooks) ---
    listWebhooks: (appId: number) => checked<{ webhooks: TapeWebhook[]; total: number }>(z.looseObject({ webhooks: z.array(WEBHOOK), total: z.number() }), { method: 'GET', path: `/v1/hook/app/${appId}` }),
    createWebhook: (appId: number, body: { type: TapeWebhookType; url: string }) =>
      tapeNaming(checked<TapeWebhook>(WEBHOOK, { method: 'POST', path: `/v1/hook/app/${appId}`, body }), { 'url|[Pp]ort': 'url', type: 'event_type' }, 'url'),
    deleteWebhook: (hookId: number) => tapeNaming(request<TapeWebhook>({ method: 'DELETE', path: `/v1/hook/${hookId}` }), {}, 'hook_id'),
    // Each call sends a new code to the url: not retried.
    requestWebhookVerification: (hookId: number) => tapeNaming(request<TapeWebhook>({ method: 'POST', path: `/v1/hook/${hookId}/verify/request` }), {}, 'hook_id'),
    // A repeat after a lost answer would fail ("already verified"): not retried.
    validateWebhookVerification: (hookId: number, body: { code: string }) =>
      tapeNaming(request<TapeWebhook>({ method: 'POST', path: `/v1/hook/${hookId}/verify/validate`, body }), {}, 'code'),

    // --- automations (docs/vendors/tape.md#automations, #automation-runs) ---
    // Discovery (docs/vendors/tape.md#automation-discovery): the same catalog for every key.
    listAutomationTriggerTypes: () => request<{ triggers: TapeCatalogTrigger[] }>({ method: 'GET', path: '/v1/automation/meta/trigger' }),
    listAutomationActionTypes: () => request<{ actions: TapeCatalogAction[] }>({ method: 'GET', path: '/v1/automation/meta/action' }),
    listAutomationFilterOperators: (fieldType: string) =>
      tapeNaming(request<{ field_type: string; operators: TapeFilterOperator[] }>({ method: 'GET', path: '/v1/automation/meta/filter', query: { field_type: fieldType } }), {}, 'field_type'),
    // docs/vendors/tape.md#automation-management: app, workspace, or (no scope) the key's organization; limit 1-100, scope-pinned cursor.
    listAutomations: (scope: TapeAutomationScope, query: { limit?: number; cursor?: string } = {}) =>
      tapeNaming(
        checked<{ total: number; cursor: string | null; automations: TapeAutomation[] }>(z.looseObject({ total: z.number(), cursor: PAGE_CURSOR, automations: z.array(AUTOMATION) }), {
          method: 'GET',
          path: 'app_id' in scope ? `/v1/automation/app/${scope.app_id}` : 'workspace_id' in scope ? `/v1/automation/workspace/${scope.workspace_id}` : '/v1/automation/org',
          query: { ...query },
        }),
        PAGE,
        'cursor',
      ),
    getAutomation: (automationId: number) => checked<{ automation: TapeAutomation }>(ONE_AUTOMATION, { method: 'GET', path: `/v1/automation/${automationId}` }),
    // A repeat would create a second automation: not retried.
    createAutomation: (appId: number, body: TapeAutomationWrite) =>
      tapeNaming(checked<{ automation: TapeAutomation }>(ONE_AUTOMATION, { method: 'POST', path: `/v1/automation/app/${appId}`, body }), AUTOMATION_WRITE, 'app_id'),
    // Every update mints a revision: a repeat would mint two, so not retried.
    updateAutomation: (automationId: number, body: TapeAutomationWrite) =>
      tapeNaming(checked<{ automation: TapeAutomation }>(ONE_AUTOMATION, { method: 'PUT', path: `/v1/automation/${automationId}`, body }), AUTOMATION_WRITE, 'automation_id'),
    replaceAutomationTrigger: (automationId: number, trigger: TapeAutomationTrigger) =>
      tapeNaming(request<{ automation: TapeAutomation }>({ method: 'PUT', path: `/v1/automation/${automationId}/trigger`, body: trigger }), {}, 'trigger'),
    // Both idempotent (docs/vendors/tape.md#automation-management).
    activateAutomation: (automationId: number) =>
      tapeNaming(request<{ automation: TapeAutomation }>({ method: 'POST', path: `/v1/automation/${automationId}/activate`, idempotent: true }), {}, 'automation_id'),
    pauseAutomation: (automationId: number) =>
      tapeNaming(request<{ automation: TapeAutomation }>({ method: 'POST', path: `/v1/automation/${automationId}/pause`, idempotent: true }), {}, 'automation_id'),
    deleteAutomation: (automationId: number) => tapeNaming(request<{ automation: TapeAutomation }>({ method: 'DELETE', path: `/v1/automation/${automationId}` }), {}, 'automation_id'),
    validateAutomation: (automationId: number) =>
      tapeNaming(request<{ valid: boolean; errors: TapeAutomationError[] }>({ method: 'GET', path: `/v1/automation/${automationId}/validate` }), {}, 'automation_id'),
    // docs/vendors/tape.md#automation-execution: 202 with a message and no run id. A manual run has side effects: not retried; simulate has none.
    runAutomation: (automationId: number, body: TapeRunBody) =>
      tapeNaming(request<{ message?: string }>({ method: 'POST', path: `/v1/automation/${automationId}/manual-run`, body }), {}, 'record_id'),
    simulateAutomation: (automationId: number, body: TapeRunBody) =>
      tapeNaming(request<{ message?: string }>({ method: 'POST', path: `/v1/automation/${automationId}/simulate`, body }), {}, 'record_id'),
    // docs/vendors/tape.md#automation-advanced: call an automation_called automation (202 {}), mint a weblink (201).
    callAutomation: (automationId: number, body: TapeCallBody) =>
      missingAutomation(automationId, tapeNaming(request<Record<string, never>>({ method: 'POST', path: `/v1/automation/${automationId}/trigger`, body }), AUTOMATION_CALL, 'automation_id')),
    generateAutomationWeblink: (body: TapeWeblinkBody) =>
      missingAutomation(
        body.trigger_workflow_def_id,
        tapeNaming(request<{ trigger_token: string; trigger_client_url: string }>({ method: 'POST', path: '/v1/automation/weblink/generate', body }), { ...AUTOMATION_CALL, expiration_type: 'expiration' }, 'automation_id'),
      ),
    // docs/vendors/tape.md#automation-revisions: newest first, unpaginated; the revision id travels as the string Tape sent.
    listAutomationRevisions: (automationId: number) =>
      tapeNaming(request<{ revisions: TapeAutomationRevision[] }>({ method: 'GET', path: `/v1/automation/${automationId}/revision` }), {}, 'automation_id'),
    getAutomationRevision: (automationId: number, revisionId: string) =>
      tapeNaming(request<{ revision: TapeAutomationRevision }>({ method: 'GET', path: `/v1/automation/${automationId}/revision/${encodeURIComponent(revisionId)}` }), {}, 'revision_id'),
    // docs/vendors/tape.md#automation-runs: reads over POST, safe to repeat. The general list takes filters; the scoped ones cursor and limit only.
    listAutomationRuns: (body: TapeRunListBody) =>
      tapeNaming(checked<{ total: number; cursor: string | null; automation_runs: TapeAutomationRun[] }>(RUN_PAGE, { method: 'POST', path: '/v1/automation-run', body, idempotent: true, read: true }), RUN_FILTERS, 'automation_id'),
    listScopedAutomationRuns: (scope: { app_id: number } | { workspace_id: number } | { automation_id: number }, body: { cursor?: string; limit?: number }) =>
      tapeNaming(
        checked<{ total: number; cursor: string | null; automation_runs: TapeAutomationRun[] }>(RUN_PAGE, {
          method: 'POST',
          path: 'app_id' in scope ? `/v1/automation-run/app/${scope.app_id}` : 'workspace_id' in scope ? `/v1/automation-run/workspace/${scope.workspace_id}` : `/v1/automation-run/automation/${scope.automation_id}`,
          body,
          idempotent: true,
        }),
        PAGE,
        'cursor',
      ),
    getAutomationRun: (runId: string) =>
      checked<{ automation_run: TapeAutomationRun }>(z.looseObject({ automation_run: AUTOMATION_RUN }), { method: 'GET', path: `/v1/automation-run/${encodeURIComponent(runId)}` }),
    // docs/vendors/tape.md#automation-usage-report: both query parameters required.
    getAutomationUsageReport: (query: { limit: number; interval_resolution: 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' }) =>
      tapeNaming(request<{ organization_id: number; usage_reports: TapeUsageBucket[] }>({ method: 'GET', path: '/v1/automation-usage-report', query: { ...query } }), { limit: 'limit', interval_resolution: 'interval' }, 'interval'),

    // --- files (docs/vendors/tape.md#files) ---
    /** The bytes behind an attachment's `download_url` (docs/vendors/tape.md#fields-and-values): a signed link, so no key goes along. */
    downloadBytes: (downloadUrl: string) => downloadLink(downloadUrl, { ...env, describeError: describeTapeError, vendor: 'Tape' }),
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
