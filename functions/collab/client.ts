import { createUpstream, type VendorError } from '../../shared/upstream';
import type { PlatformEnv } from '../../shared/tool';
import type {
  PodioApp, PodioAppSummary, PodioCalculateBody, PodioCalculation, PodioComment, PodioCommentRefType, PodioCommentRevision,
  PodioCommentWrite, PodioEmbed, PodioFile, PodioFilterBody, PodioFilterPage, PodioItem, PodioItemReferenceGroup, PodioItemRevision,
  PodioItemWrite, PodioOrg, PodioOrgMember, PodioProfile, PodioReferenceable, PodioRevisionDiff, PodioSpace, PodioUserStatus,
  PodioWriteFlags,
} from './wire';

export const PODIO_BASE_URL = 'https://api.podio.com';

const WAIT = /wait\s+(\d+)\s+seconds?/i;

/**
 * Podio's error body is {error, error_description, error_detail, error_parameters, request}
 * (podio.md §1). Its rate limit is HTTP 420 (error "rate_limit") whose only delay is in the text
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
 * (`Authorization: OAuth2 <token>`, podio.md §1). Paths keep Podio's slash-aware form: collections
 * end in `/`, single objects do not.
 */
export function createPodioClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    baseUrl: env.baseUrl,
    fetch: env.fetch,
    timeoutMs: env.timeoutMs,
    headers: { authorization: `OAuth2 ${key}` },
    describeError: describePodioError,
    vendor: 'Podio',
  });

  return {
    // --- the caller, orgs, spaces, members, contacts (podio.md §12) ---
    userStatus: () => request<PodioUserStatus>({ method: 'GET', path: '/user/status' }),
    listOrgs: () => request<PodioOrg[]>({ method: 'GET', path: '/org/' }),
    getOrg: (orgId: number) => request<PodioOrg>({ method: 'GET', path: `/org/${orgId}` }),
    listOrgSpaces: (orgId: number) => request<PodioSpace[]>({ method: 'GET', path: `/org/${orgId}/space/` }),
    getSpace: (spaceId: number) => request<PodioSpace>({ method: 'GET', path: `/space/${spaceId}` }),
    listOrgMembers: (orgId: number, query: { limit?: number; offset?: number } = {}) =>
      request<PodioOrgMember[]>({ method: 'GET', path: `/org/${orgId}/member/`, query: { ...query } }),
    listContacts: (query: { limit?: number; offset?: number; name?: string; mail?: string } = {}) =>
      request<PodioProfile[]>({ method: 'GET', path: '/contact/', query: { ...query } }),

    // --- apps (podio.md §12) ---
    listSpaceApps: (spaceId: number) => request<PodioAppSummary[]>({ method: 'GET', path: `/app/space/${spaceId}/` }),
    getApp: (appId: number) => request<PodioApp>({ method: 'GET', path: `/app/${appId}` }),
    /** An app by the labels of its URL (podio.com/<org>/<space>/apps/<app>). */
    getAppByLabels: (orgLabel: string, spaceLabel: string, appLabel: string) =>
      request<PodioApp>({ method: 'GET', path: `/app/org/${encodeURIComponent(orgLabel)}/space/${encodeURIComponent(spaceLabel)}/${encodeURIComponent(appLabel)}` }),

    // --- items (podio.md §3). Writes run hooks: none is retried. ---
    createItem: (appId: number, body: PodioItemWrite, flags: PodioWriteFlags = {}) =>
      request<{ item_id: number; title?: string; link?: string }>({ method: 'POST', path: `/item/app/${appId}/`, query: flagQuery(flags), body }),
    getItem: (itemId: number) => request<PodioItem>({ method: 'GET', path: `/item/${itemId}` }),
    /** An item by its app-scoped number (the number in an item's URL). */
    getItemByAppItemId: (appId: number, appItemId: number) => request<PodioItem>({ method: 'GET', path: `/app/${appId}/item/${appItemId}` }),
    updateItem: (itemId: number, body: PodioItemWrite, flags: PodioWriteFlags = {}) =>
      request<{ revision: number; title: string }>({ method: 'PUT', path: `/item/${itemId}`, query: flagQuery(flags), body }),
    /** One field's value, in any input form (podio.md §3 "Update one field"). */
    updateItemValue: (itemId: number, fieldId: number, value: unknown, flags: PodioWriteFlags = {}) =>
      request<{ revision: number; title: string }>({ method: 'PUT', path: `/item/${itemId}/value/${fieldId}`, query: flagQuery(flags), body: value }),
    deleteItem: (itemId: number, flags: PodioWriteFlags = {}) => request<Record<string, never>>({ method: 'DELETE', path: `/item/${itemId}`, query: flagQuery(flags) }),
    cloneItem: (itemId: number, flags: { silent?: boolean } = {}) => request<{ item_id: number }>({ method: 'POST', path: `/item/${itemId}/clone`, query: flagQuery(flags) }),
    // Reads over POST: safe to repeat.
    filterItems: (appId: number, body: PodioFilterBody) => request<PodioFilterPage>({ method: 'POST', path: `/item/app/${appId}/filter/`, body, idempotent: true }),
    calculateItems: (appId: number, body: PodioCalculateBody) => request<PodioCalculation>({ method: 'POST', path: `/item/app/${appId}/calculate`, body, idempotent: true }),
    listItemRevisions: (itemId: number) => request<PodioItemRevision[]>({ method: 'GET', path: `/item/${itemId}/revision/` }),
    getItemRevisionDiff: (itemId: number, from: number, to: number) =>
      request<PodioRevisionDiff[]>({ method: 'GET', path: `/item/${itemId}/revision/${from}/${to}` }),
    getItemReferences: (itemId: number) => request<PodioItemReferenceGroup[]>({ method: 'GET', path: `/item/${itemId}/reference/` }),
    findReferenceableItems: (fieldId: number, query: { text?: string; limit?: number } = {}) =>
      request<PodioReferenceable[]>({ method: 'GET', path: `/item/field/${fieldId}/find`, query: { ...query } }),

    // --- embeds and files (podio.md §2, §7) ---
    createEmbed: (url: string) => request<PodioEmbed>({ method: 'POST', path: '/embed/', body: { url } }),
    /** Uploads one file, unattached (parts `source` and `filename`, as podio-js sends them). */
    uploadFile: (file: PodioUpload) => {
      const form = new FormData();
      form.set('source', new Blob([file.content], { type: file.mimetype }), file.name);
      form.set('filename', file.name);
      return request<PodioFile>({ method: 'POST', path: '/file/', body: form });
    },
    getFile: (fileId: number) => request<PodioFile>({ method: 'GET', path: `/file/${fileId}` }),
    attachFile: (fileId: number, ref: { ref_type: string; ref_id: number }, flags: PodioWriteFlags = {}) =>
      request<Record<string, never>>({ method: 'POST', path: `/file/${fileId}/attach`, query: flagQuery(flags), body: ref }),

    // --- comments (podio.md §6) ---
    addComment: (type: PodioCommentRefType, id: number, body: PodioCommentWrite, flags: PodioWriteFlags & { alert_invite?: boolean } = {}) =>
      request<{ comment_id: number } & Partial<PodioComment>>({ method: 'POST', path: `/comment/${type}/${id}/`, query: flagQuery(flags), body }),
    getComment: (commentId: number) => request<PodioComment>({ method: 'GET', path: `/comment/${commentId}` }),
    /** Oldest first, as Podio lists them. */
    listComments: (type: PodioCommentRefType, id: number, query: { limit?: number; offset?: number } = {}) =>
      request<PodioComment[]>({ method: 'GET', path: `/comment/${type}/${id}/`, query: { ...query } }),
    // Replaces the text: sending it twice leaves the same state.
    updateComment: (commentId: number, body: PodioCommentWrite) => request<Record<string, never>>({ method: 'PUT', path: `/comment/${commentId}`, body, idempotent: true }),
    deleteComment: (commentId: number, flags: PodioWriteFlags = {}) =>
      request<Record<string, never>>({ method: 'DELETE', path: `/comment/${commentId}`, query: flagQuery(flags) }),
    listCommentRevisions: (commentId: number) => request<PodioCommentRevision[]>({ method: 'GET', path: `/comment/${commentId}/revision` }),
  };
}

export type PodioClient = ReturnType<typeof createPodioClient>;
