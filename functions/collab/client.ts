import * as z from 'zod';
import { createUpstream, naming, type VendorError } from '../../shared/vendor/upstream';
import { contractedRequest } from '../../shared/vendor/vendor-contract';
import type { PlatformEnv } from '../../shared/core/tool';
import type { PodioAccessLevel, PodioGrant, PodioGrantWrite, PodioView, PodioViewWrite } from './wire';
import type { PodioConversation, PodioConversationCreated, PodioConversationEvent, PodioConversationWrite, PodioLabel, PodioTask, PodioTaskQuery, PodioTaskWrite } from './wire';
import type {
  PodioApp, PodioAppSummary, PodioCalculateBody, PodioCalculation, PodioComment, PodioCommentRefType, PodioCommentRevision,
  PodioCommentWrite, PodioEmbed, PodioFile, PodioFilterBody, PodioFilterPage, PodioItem, PodioItemReferenceGroup, PodioItemRevision,
  PodioItemWrite, PodioOrg, PodioOrgMember, PodioProfile, PodioSpaceMember, PodioReferenceable, PodioRevisionDiff, PodioSpace, PodioUserStatus,
  PodioWriteFlags,
} from './wire';
import type { PodioFileListQuery, PodioHook, PodioSearchBody, PodioSearchResult } from './wire';

export const PODIO_BASE_URL = 'https://api.podio.com';

const WAIT = /wait\s+(\d+)\s+seconds?/i;

/**
 * Podio's error body is {error, error_description, error_detail, error_parameters, request}
 * (docs/vendors/podio.md#conventions). Its rate limit is HTTP 420 (error "rate_limit") whose only delay is in the text
 * ("Please wait 300 seconds"); 410 means the object was deleted: a NOT_FOUND for the caller.
 */
export function describePodioError(body: unknown, status: number): VendorError {
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown };
  const code = typeof b.error === 'string' ? b.error : undefined;
  const message = typeof b.error_description === 'string' ? b.error_description : undefined;
  if (status === 420 || code === 'rate_limit') {
    const wait = message ? WAIT.exec(message) : null;
    return { code, message, as: 'RATE_LIMITED', ...(wait ? { retryAfter: Number(wait[1]) } : {}) };
  }
  if (status === 410) return { code, message, as: 'NOT_FOUND' };
  return { code, message };
}

/** A file to upload: its bytes, name and media type. */
export interface PodioUpload {
  name: string;
  content: Uint8Array;
  mimetype: string;
}

/** Query flags as Podio reads them; unset ones are left out so Podio's defaults apply. */
const flagQuery = (f: PodioWriteFlags & { alert_invite?: boolean } = {}): Record<string, boolean | undefined> => ({ ...f });

/**
 * The only place that knows Podio's paths. One instance per call, bound to the caller's token
 * (`Authorization: OAuth2 <token>`, docs/vendors/podio.md#conventions). Paths keep Podio's slash-aware form: collections
 * end in `/`, single objects do not.
 */
// The parts of Podio's answers the tools read (shared/vendor/vendor-contract.ts): ids, titles, names, the field lists.
const FIELD = z.looseObject({ field_id: z.number().int(), type: z.string() });
const APP = z.looseObject({ app_id: z.number().int(), config: z.looseObject({ name: z.string() }), fields: z.array(FIELD) });
const APP_SUMMARY = z.looseObject({ app_id: z.number().int(), config: z.looseObject({ name: z.string() }) });
const ITEM = z.looseObject({ item_id: z.number().int(), title: z.string().nullable(), fields: z.array(z.looseObject({ field_id: z.number().int(), values: z.array(z.unknown()) })).optional() });
const FILTER_PAGE = z.looseObject({ total: z.number(), filtered: z.number(), items: z.array(ITEM) });
const CREATED_ITEM = z.looseObject({ item_id: z.number().int() });
const ID = z.number().int();
const FILE = z.looseObject({ file_id: ID, name: z.string() });
const COMMENT = z.looseObject({ comment_id: ID, value: z.string(), created_on: z.string() });
const VIEW = z.looseObject({ view_id: ID.nullable(), name: z.string().nullable() });
const GRANT = z.looseObject({ grant_id: ID, access_level: z.string(), user: z.looseObject({ user_id: ID }) });
const CONVERSATION = z.looseObject({ conversation_id: ID, subject: z.string(), created_on: z.string() });
const CONVERSATION_EVENT = z.looseObject({ event_id: ID, action: z.string(), created_on: z.string() });
const TASK = z.looseObject({ task_id: ID, status: z.string(), text: z.string(), created_on: z.string() });
const LABEL = z.looseObject({ label_id: ID, text: z.string(), color: z.string() });
const HOOK = z.looseObject({ hook_id: ID, status: z.string(), type: z.string(), url: z.string() });
const SPACE = z.looseObject({ space_id: ID, name: z.string() });
const ORG = z.looseObject({ org_id: ID, name: z.string() });

export function createPodioClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    ...env,
    headers: { authorization: `OAuth2 ${key}` },
    describeError: describePodioError,
    vendor: 'Podio',
  });
  const checked = contractedRequest({ platform: 'collab', vendor: 'Podio' }, request);

  return {
    // --- the caller, orgs, spaces, members, contacts (docs/vendors/podio.md#apps-spaces-orgs-and-contacts) ---
    userStatus: () => request<PodioUserStatus>({ method: 'GET', path: '/user/status' }),
    listOrgs: () => checked<PodioOrg[]>(z.array(ORG), { method: 'GET', path: '/org/' }),
    getOrg: (orgId: number) => checked<PodioOrg>(ORG, { method: 'GET', path: `/org/${orgId}` }),
    listOrgSpaces: (orgId: number) => checked<PodioSpace[]>(z.array(SPACE), { method: 'GET', path: `/org/${orgId}/space/` }),
    getSpace: (spaceId: number) => checked<PodioSpace>(SPACE, { method: 'GET', path: `/space/${spaceId}` }),
    listOrgMembers: (orgId: number, query: { limit?: number; offset?: number } = {}) =>
      request<PodioOrgMember[]>({ method: 'GET', path: `/org/${orgId}/member/`, query: { ...query } }),
    /** One user's membership of a space: how the event inbox confirms a space's member events. */
    getSpaceMember: (spaceId: number, userId: number) => request<PodioSpaceMember>({ method: 'GET', path: `/space/${spaceId}/member/${userId}` }),
    listContacts: (query: { limit?: number; offset?: number; name?: string; mail?: string } = {}) =>
      request<PodioProfile[]>({ method: 'GET', path: '/contact/', query: { ...query } }),

    // --- apps (docs/vendors/podio.md#apps-spaces-orgs-and-contacts) ---
    listSpaceApps: (spaceId: number) => checked<PodioAppSummary[]>(z.array(APP_SUMMARY), { method: 'GET', path: `/app/space/${spaceId}/` }),
    getApp: (appId: number) => checked<PodioApp>(APP, { method: 'GET', path: `/app/${appId}` }),
    /** An app by the labels of its URL (podio.com/<org>/<space>/apps/<app>). */
    getAppByLabels: (orgLabel: string, spaceLabel: string, appLabel: string) =>
      request<PodioApp>({ method: 'GET', path: `/app/org/${encodeURIComponent(orgLabel)}/space/${encodeURIComponent(spaceLabel)}/${encodeURIComponent(appLabel)}` }),

    // --- items (docs/vendors/podio.md#items). Writes run hooks: none is retried. ---
    createItem: (appId: number, body: PodioItemWrite, flags: PodioWriteFlags = {}) =>
      checked<{ item_id: number; title?: string; link?: string }>(CREATED_ITEM, { method: 'POST', path: `/item/app/${appId}/`, query: flagQuery(flags), body }),
    getItem: (itemId: number) => checked<PodioItem>(ITEM, { method: 'GET', path: `/item/${itemId}` }),
    /** An item by its app-scoped number (the number in an item's URL). */
    getItemByAppItemId: (appId: number, appItemId: number) => checked<PodioItem>(ITEM, { method: 'GET', path: `/app/${appId}/item/${appItemId}` }),
    updateItem: (itemId: number, body: PodioItemWrite, flags: PodioWriteFlags = {}) =>
      request<{ revision: number; title: string }>({ method: 'PUT', path: `/item/${itemId}`, query: flagQuery(flags), body }),
    /** One field's value, in any input form (docs/vendors/podio.md#items). */
    updateItemValue: (itemId: number, fieldId: number, value: unknown, flags: PodioWriteFlags = {}) =>
      request<{ revision: number; title: string }>({ method: 'PUT', path: `/item/${itemId}/value/${fieldId}`, query: flagQuery(flags), body: value }),
    deleteItem: (itemId: number, flags: PodioWriteFlags = {}) => request<Record<string, never>>({ method: 'DELETE', path: `/item/${itemId}`, query: flagQuery(flags) }),
    cloneItem: (itemId: number, flags: { silent?: boolean } = {}) => request<{ item_id: number }>({ method: 'POST', path: `/item/${itemId}/clone`, query: flagQuery(flags) }),
    // Reads over POST: safe to repeat.
    filterItems: (appId: number, body: PodioFilterBody) => checked<PodioFilterPage>(FILTER_PAGE, { method: 'POST', path: `/item/app/${appId}/filter/`, body, idempotent: true, read: true }),
    calculateItems: (appId: number, body: PodioCalculateBody) => request<PodioCalculation>({ method: 'POST', path: `/item/app/${appId}/calculate`, body, idempotent: true, read: true }),
    listItemRevisions: (itemId: number) => request<PodioItemRevision[]>({ method: 'GET', path: `/item/${itemId}/revision/` }),
    getItemRevisionDiff: (itemId: number, from: number, to: number) =>
      request<PodioRevisionDiff[]>({ method: 'GET', path: `/item/${itemId}/revision/${from}/${to}` }),
    getItemReferences: (itemId: number) => request<PodioItemReferenceGroup[]>({ method: 'GET', path: `/item/${itemId}/reference/` }),
    findReferenceableItems: (fieldId: number, query: { text?: string; limit?: number } = {}) =>
      request<PodioReferenceable[]>({ method: 'GET', path: `/item/field/${fieldId}/find`, query: { ...query } }),

    // --- embeds and files (docs/vendors/podio.md#field-types, #files) ---
    createEmbed: (url: string) => request<PodioEmbed>({ method: 'POST', path: '/embed/', body: { url } }),
    /** Uploads one file, unattached (parts `source` and `filename`, as podio-js sends them). */
    uploadFile: (file: PodioUpload) => {
      const form = new FormData();
      form.set('source', new Blob([file.content], { type: file.mimetype }), file.name);
      form.set('filename', file.name);
      return request<PodioFile>({ method: 'POST', path: '/file/', body: form });
    },
    getFile: (fileId: number) => checked<PodioFile>(FILE, { method: 'GET', path: `/file/${fileId}` }),
    attachFile: (fileId: number, ref: { ref_type: string; ref_id: number }, flags: PodioWriteFlags = {}) =>
      request<Record<string, never>>({ method: 'POST', path: `/file/${fileId}/attach`, query: flagQuery(flags), body: ref }),

    // --- files, hooks and search (docs/vendors/podio.md#files, #hooks, #search) ---
    listFilesOnApp: (appId: number, query: PodioFileListQuery = {}) => checked<PodioFile[]>(z.array(FILE), { method: 'GET', path: `/file/app/${appId}/`, query: { ...query } }),
    listFilesOnSpace: (spaceId: number, query: PodioFileListQuery = {}) => checked<PodioFile[]>(z.array(FILE), { method: 'GET', path: `/file/space/${spaceId}/`, query: { ...query } }),
    copyFile: (fileId: number) => request<{ file_id: number }>({ method: 'POST', path: `/file/${fileId}/copy` }),
    // Sets the values given: sending it twice leaves the same state.
    updateFile: (fileId: number, body: { name?: string; description: string | null }) => request<Record<string, never>>({ method: 'PUT', path: `/file/${fileId}`, body, idempotent: true }),
    deleteFile: (fileId: number, flags: PodioWriteFlags = {}) => request<Record<string, never>>({ method: 'DELETE', path: `/file/${fileId}`, query: flagQuery(flags) }),
    /** The new file takes the old one's place (docs/vendors/podio.md#files: POST /file/{new}/replace {old_file_id}). */
    replaceFile: (newFileId: number, oldFileId: number, flags: PodioWriteFlags = {}) =>
      request<Record<string, never>>({ method: 'POST', path: `/file/${newFileId}/replace`, query: flagQuery(flags), body: { old_file_id: oldFileId } }),
    /** A file's bytes: `GET /file/{id}/raw` with the token (Podio's download needs it, docs/vendors/podio.md#files). */
    fileContent: (fileId: number) => request({ method: 'GET', path: `/file/${fileId}/raw`, response: 'bytes' }),
    listHooks: (refType: 'app' | 'space', refId: number) => checked<PodioHook[]>(z.array(HOOK), { method: 'GET', path: `/hook/${refType}/${refId}/` }),
    // Podio refuses an 11th hook of one event type on an object (docs/vendors/podio.md#hooks), a type the object has not, a url it cannot reach.
    createHook: (refType: 'app' | 'space', refId: number, body: { url: string; type: string }) =>
      naming(request<{ hook_id: number }>({ method: 'POST', path: `/hook/${refType}/${refId}/`, body }), { 'hooks per event type|hook type': 'type', 'url|port': 'url' }),
    deleteHook: (hookId: number) => request<Record<string, never>>({ method: 'DELETE', path: `/hook/${hookId}` }),
    requestHookVerification: (hookId: number) => request<Record<string, never>>({ method: 'POST', path: `/hook/${hookId}/verify/request` }),
    validateHookVerification: (hookId: number, code: string) => request<Record<string, never>>({ method: 'POST', path: `/hook/${hookId}/verify/validate`, body: { code } }),
    /** Search everywhere, or in an org, space or app (docs/vendors/podio.md#search); a read over POST. */
    search: (scope: { type: 'org' | 'space' | 'app'; id: number } | null, body: PodioSearchBody) =>
      request<PodioSearchResult[]>({ method: 'POST', path: scope ? `/search/${scope.type}/${scope.id}/` : '/search/', body, idempotent: true, read: true }),

    // --- comments (docs/vendors/podio.md#comments) ---
    addComment: (type: PodioCommentRefType, id: number, body: PodioCommentWrite, flags: PodioWriteFlags & { alert_invite?: boolean } = {}) =>
      request<{ comment_id: number } & Partial<PodioComment>>({ method: 'POST', path: `/comment/${type}/${id}/`, query: flagQuery(flags), body }),
    getComment: (commentId: number) => checked<PodioComment>(COMMENT, { method: 'GET', path: `/comment/${commentId}` }),
    /** Oldest first, as Podio lists them. */
    listComments: (type: PodioCommentRefType, id: number, query: { limit?: number; offset?: number } = {}) =>
      checked<PodioComment[]>(z.array(COMMENT), { method: 'GET', path: `/comment/${type}/${id}/`, query: { ...query } }),
    // Replaces the text: sending it twice leaves the same state.
    updateComment: (commentId: number, body: PodioCommentWrite) => request<Record<string, never>>({ method: 'PUT', path: `/comment/${commentId}`, body, idempotent: true }),
    deleteComment: (commentId: number, flags: PodioWriteFlags = {}) =>
      request<Record<string, never>>({ method: 'DELETE', path: `/comment/${commentId}`, query: flagQuery(flags) }),
    listCommentRevisions: (commentId: number) => request<PodioCommentRevision[]>({ method: 'GET', path: `/comment/${commentId}/revision` }),

    // --- views (docs/vendors/podio.md#views) ---
    listViews: (appId: number, query: { include_standard_views?: boolean } = {}) => checked<PodioView[]>(z.array(VIEW), { method: 'GET', path: `/view/app/${appId}/`, query: { ...query } }),
    /** A view by id, by standard name (table, badge, calendar) or `last`. */
    getView: (appId: number, viewIdOrName: number | string) => checked<PodioView>(VIEW, { method: 'GET', path: `/view/app/${appId}/${viewIdOrName}` }),
    /** A view by id alone, in whatever app it lives (older SDKs' path). */
    getViewById: (viewId: number) => checked<PodioView>(VIEW, { method: 'GET', path: `/view/${viewId}` }),
    createView: (appId: number, body: PodioViewWrite) => checked<{ view_id: number }>(z.looseObject({ view_id: ID }), { method: 'POST', path: `/view/app/${appId}/`, body }),
    // Updates set the given keys: sending one twice leaves the same view.
    updateView: (viewId: number, body: PodioViewWrite) => request<Record<string, never>>({ method: 'PUT', path: `/view/${viewId}`, body, idempotent: true }),
    deleteView: (viewId: number) => request<Record<string, never>>({ method: 'DELETE', path: `/view/${viewId}` }),
    /** Podio's reference lists the operation without its path; `POST /view/{view_id}/default` is our reading of it (the twin serves the same). */
    makeViewDefault: (viewId: number) => request<Record<string, never>>({ method: 'POST', path: `/view/${viewId}/default`, idempotent: true }),
    updateLastView: (appId: number, body: PodioViewWrite) => request<Record<string, never>>({ method: 'PUT', path: `/view/app/${appId}/last`, body, idempotent: true }),

    // --- item sharing: grants (docs/vendors/podio.md#grants) ---
    createGrant: (refType: 'item', refId: number, body: PodioGrantWrite) => request<{ invitable?: unknown[] }>({ method: 'POST', path: `/grant/${refType}/${refId}`, body }),
    listGrants: (refType: 'item', refId: number) => checked<PodioGrant[]>(z.array(GRANT), { method: 'GET', path: `/grant/${refType}/${refId}/` }),
    updateGrant: (refType: 'item', refId: number, userId: number, body: { access_level: PodioAccessLevel }) =>
      request<Record<string, never>>({ method: 'PUT', path: `/grant/${refType}/${refId}/${userId}`, body, idempotent: true }),
    deleteGrant: (refType: 'item', refId: number, userId: number) => request<Record<string, never>>({ method: 'DELETE', path: `/grant/${refType}/${refId}/${userId}` }),

    // --- conversations (docs/vendors/podio.md#conversations). Every write posts a message: none is retried. ---
    createConversation: (body: PodioConversationWrite) => checked<PodioConversation>(CONVERSATION, { method: 'POST', path: '/conversation/v2/', body }),
    createConversationOnObject: (refType: string, refId: number, body: PodioConversationWrite) =>
      request<PodioConversationCreated>({ method: 'POST', path: `/conversation/${refType}/${refId}/`, body }),
    getConversation: (conversationId: number) => checked<PodioConversation>(CONVERSATION, { method: 'GET', path: `/conversation/${conversationId}` }),
    /** Newest first. */
    listConversationEvents: (conversationId: number, query: { limit?: number; offset?: number } = {}) =>
      checked<PodioConversationEvent[]>(z.array(CONVERSATION_EVENT), { method: 'GET', path: `/conversation/${conversationId}/event/`, query: { ...query } }),
    /** Most recent activity first. */
    listConversations: (query: { limit?: number; offset?: number } = {}) => checked<PodioConversation[]>(z.array(CONVERSATION), { method: 'GET', path: '/conversation/', query: { ...query } }),
    listConversationsOnObject: (refType: string, refId: number) => checked<PodioConversation[]>(z.array(CONVERSATION), { method: 'GET', path: `/conversation/${refType}/${refId}/` }),
    getDirectConversation: (userId: number) => checked<PodioConversation>(CONVERSATION, { method: 'GET', path: `/conversation/direct/${userId}` }),
    /** NET's form (GET), as docs/vendors/podio.md#conversations describes. */
    searchConversations: (query: { text: string; limit?: number; offset?: number; participants?: boolean }) =>
      checked<PodioConversation[]>(z.array(CONVERSATION), { method: 'GET', path: '/conversation/search/', query: { ...query } }),
    replyToConversation: (conversationId: number, body: PodioConversationWrite) =>
      checked<PodioConversationEvent>(CONVERSATION_EVENT, { method: 'POST', path: `/conversation/${conversationId}/reply/v2`, body }),
    // Adding someone already in is a no-op: safe to repeat.
    addConversationParticipants: (conversationId: number, participants: number[]) =>
      request<PodioConversationEvent | Record<string, never>>({ method: 'POST', path: `/conversation/${conversationId}/participant/v2/`, body: { participants }, idempotent: true }),
    leaveConversation: (conversationId: number) => request<Record<string, never>>({ method: 'POST', path: `/conversation/${conversationId}/leave` }),

    // --- tasks and labels (docs/vendors/podio.md#tasks) ---
    createTask: (body: PodioTaskWrite, flags: PodioWriteFlags = {}) => checked<PodioTask>(TASK, { method: 'POST', path: '/task/', query: flagQuery(flags), body }),
    getTask: (taskId: number) => checked<PodioTask>(TASK, { method: 'GET', path: `/task/${taskId}` }),
    updateTask: (taskId: number, body: PodioTaskWrite, flags: PodioWriteFlags = {}) => checked<PodioTask>(TASK, { method: 'PUT', path: `/task/${taskId}`, query: flagQuery(flags), body }),
    deleteTask: (taskId: number, flags: PodioWriteFlags = {}) => request<Record<string, never>>({ method: 'DELETE', path: `/task/${taskId}`, query: flagQuery(flags) }),
    listTasks: (query: PodioTaskQuery) => checked<PodioTask[]>(z.array(TASK), { method: 'GET', path: '/task/', query }),
    listLabels: () => checked<PodioLabel[]>(z.array(LABEL), { method: 'GET', path: '/task/label/' }),
    createLabel: (body: { text: string; color: string }) => checked<{ label_id: number }>(z.looseObject({ label_id: ID }), { method: 'POST', path: '/task/label/', body }),
    updateLabel: (labelId: number, body: { text?: string; color?: string }) => request<Record<string, never>>({ method: 'PUT', path: `/task/label/${labelId}`, body, idempotent: true }),
    deleteLabel: (labelId: number) => request<Record<string, never>>({ method: 'DELETE', path: `/task/label/${labelId}` }),
  };
}

export type PodioClient = ReturnType<typeof createPodioClient>;
