import { ToolError } from '../../shared/core/errors';
import type { PlatformEnv } from '../../shared/core/tool';
import * as z from 'zod';
import { createUpstream, downloadLink, naming, type UpstreamRequest, type VendorError } from '../../shared/vendor/upstream';
import { contractedRequest } from '../../shared/vendor/vendor-contract';
import type {
  SfAccessControl, SfAccessControlWrite, SfAsyncOperation, SfContact, SfDownloadSpecification, SfFeed, SfGroup, SfItem, SfItemWrite, SfSearchQuery,
  SfSearchResults, SfShare, SfShareWrite, SfUploadResult, SfUploadSpecification, SfUser, SfUserWrite,
} from './wire';

/**
 * ShareFile's API lives on the account's own host, `https://{subdomain}.sf-api.com`, under
 * `/sf/v3`: set FILEBOX_BASE_URL to your host. The default names the sandbox account `acme` (what
 * the twin serves).
 */
export const SHAREFILE_BASE_URL = 'https://acme.sf-api.com';
const API = '/sf/v3';

/**
 * ShareFile's error body is {code, message:{lang, value}, reason} (docs/vendors/sharefile.md#conventions; the SDK's
 * ODataRequestException); a ChunkUri answers {error: true, errorMessage}.
 */
export function describeShareFileError(body: unknown): VendorError {
  const b = (body ?? {}) as { code?: unknown; message?: unknown; errorMessage?: unknown };
  const code = typeof b.code === 'string' || typeof b.code === 'number' ? String(b.code) : undefined;
  const m = b.message as { value?: unknown } | string | undefined;
  const message = typeof m === 'string' ? m : typeof m?.value === 'string' ? m.value : typeof b.errorMessage === 'string' ? b.errorMessage : undefined;
  return { code, message };
}

/** OData query options of a feed; unset ones are left out. */
export interface FeedQuery {
  $top?: number;
  $skip?: number;
  $filter?: string;
  $orderby?: string;
  $select?: string;
  $expand?: string;
}

const q = (o: Record<string, string | number | boolean | undefined>) => o;

/** What a refused new user names: a taken or malformed email (409/400 "A user with the email … already exists"), a short password. */
const NEW_USER = { '[Ee]mail': 'email', Password: 'password' };

// The parts of ShareFile's answers the tools read (shared/vendor/vendor-contract.ts): every entity's Id, the feeds' value lists.
const ENTITY = z.looseObject({ Id: z.string().min(1) });
const FEED = z.looseObject({ value: z.array(ENTITY), 'odata.count': z.number().optional() });
const GROUP = ENTITY.extend({ Name: z.string() });
const SEARCH = z.looseObject({ Results: z.array(z.looseObject({ ItemID: z.string().min(1), ItemType: z.string(), FileName: z.string() })) });
const SHARE = ENTITY.extend({ ShareType: z.string() });
const ACCESS_CONTROL = ENTITY.extend({ Principal: ENTITY });

/**
 * The only place that knows ShareFile's paths. One instance per call, bound to the caller's token
 * (`Authorization: Bearer <token>`). Entities are addressed OData-style, `Items(id)`, with the
 * aliases (home, allshared, favorites, top, box, connectors) in place of an id.
 */
export function createShareFileClient(key: string, env: PlatformEnv) {
  const upstream = createUpstream({
    ...env,
    headers: { authorization: `Bearer ${key}` },
    describeError: describeShareFileError,
    vendor: 'ShareFile',
  });
  const request = <T>(req: UpstreamRequest) => upstream<T>({ ...req, path: `${API}${req.path}` });
  const checked = contractedRequest({ platform: 'filebox', vendor: 'ShareFile' }, request);
  const get = <T>(path: string, query: UpstreamRequest['query'] = {}) => request<T>({ method: 'GET', path, query });
  /** A GET whose answer is an entity (or a feed of entities) the tools render. */
  const getEntity = <T>(path: string, query: UpstreamRequest['query'] = {}) => checked<T>(ENTITY, { method: 'GET', path, query });
  const getFeed = <T>(path: string, query: UpstreamRequest['query'] = {}) => checked<T>(FEED, { method: 'GET', path, query });

  return {
    // --- items (docs/vendors/sharefile.md#items) ---
    getItem: (id: string, o: { includeDeleted?: boolean; expandChildren?: boolean; select?: string } = {}) =>
      getEntity<SfItem>(`/Items(${id})`, q({ includeDeleted: o.includeDeleted, $expand: o.expandChildren ? 'Children' : undefined, $select: o.select })),
    listChildren: (id: string, query: FeedQuery & { includeDeleted?: boolean } = {}) => getFeed<SfFeed<SfItem>>(`/Items(${id})/Children`, q({ ...query })),
    createFolder: (parentId: string, body: SfItemWrite, o: { overwrite: boolean }) =>
      checked<SfItem>(ENTITY, { method: 'POST', path: `/Items(${parentId})/Folder`, query: q({ overwrite: o.overwrite, passthrough: false }), body }),
    // A PATCH sets the same values when sent twice: safe to retry.
    updateItem: (id: string, body: SfItemWrite) => checked<SfItem>(ENTITY, { method: 'PATCH', path: `/Items(${id})`, body, idempotent: true }),
    // --- webhook subscriptions (event inbox; https://api.sharefile.com/html/docs/WebhookSubscriptions.html) ---
    createWebhookSubscription: (body: { SubscriptionContext: { ResourceType: 'Folder'; ResourceId: string }; WebhookUrl: string; Events: { ResourceType: string; OperationName: string }[] }) =>
      checked<{ Id: string }>(ENTITY, { method: 'POST', path: '/WebhookSubscriptions', body }),
    deleteWebhookSubscription: (id: string) => request<Record<string, never>>({ method: 'DELETE', path: `/WebhookSubscriptions(${id})`, idempotent: true }),
    deleteItem: (id: string, o: { singleVersion: boolean; forceSync: boolean }) =>
      request<Record<string, never>>({ method: 'DELETE', path: `/Items(${id})`, query: q({ singleversion: o.singleVersion, forceSync: o.forceSync }) }),
    /** The copy, or an AsyncOperation when ShareFile runs it in the background. */
    copyItem: (id: string, targetId: string, overwrite: boolean) =>
      request<SfItem | SfAsyncOperation>({ method: 'POST', path: `/Items(${id})/Copy`, query: q({ targetid: targetId, overwrite }) }),
    getAsyncOperation: (id: string) => get<SfAsyncOperation>(`/AsyncOperations(${id})`),
    // A search over POST: a read, safe to repeat.
    search: (body: SfSearchQuery) => checked<SfSearchResults>(SEARCH, { method: 'POST', path: '/Items/AdvancedSimpleSearch', body, idempotent: true, read: true }),
    /** A DownloadSpecification: a link with a token that works without the key until it expires. */
    downloadSpecification: (id: string) => get<SfDownloadSpecification>(`/Items(${id})/Download`, q({ redirect: false })),
    /**
     * The bytes behind a DownloadSpecification's DownloadUrl: the link carries its own token (no
     * key is sent along), on whatever host ShareFile names; same deadline, retries and errors as
     * the API calls.
     */
    downloadBytes: (downloadUrl: string) => downloadLink(downloadUrl, { ...env, describeError: describeShareFileError, vendor: 'ShareFile' }),
    uploadSpecification: (folderId: string, body: { FileName: string; FileSize: number; Overwrite: boolean; Description?: string }) =>
      request<SfUploadSpecification>({ method: 'POST', path: `/Items(${folderId})/Upload2`, body: { Method: 'Standard', Raw: false, Notify: false, ...body } }),
    /** Sends the bytes to the spec's ChunkUri (multipart `Filedata`, the Standard method): no key, the URI carries its own token. */
    sendUpload: async (chunkUri: string, file: { name: string; content: Uint8Array; mimetype: string }) => {
      const uri = new URL(chunkUri);
      const base = new URL(env.baseUrl);
      if (uri.protocol !== 'https:' && uri.origin !== base.origin) {
        throw new ToolError('INTERNAL_ERROR', `ShareFile answered an upload address that is not https (${uri.origin}); nothing was sent.`, { upstream_status: 200 });
      }
      const upload = createUpstream({ baseUrl: uri.origin, fetch: env.fetch, timeoutMs: env.timeoutMs, deadline: env.deadline, headers: {}, describeError: describeShareFileError, vendor: 'ShareFile' });
      const form = new FormData();
      form.set('Filedata', new Blob([file.content], { type: file.mimetype }), file.name);
      const res = await upload<SfUploadResult>({ method: 'POST', path: `${uri.pathname}${uri.search}`, body: form });
      const stored = res.value?.[0];
      if (res.error || !stored) throw new ToolError('INTERNAL_ERROR', `ShareFile refused the upload: ${res.errorMessage ?? 'no file in the answer'}`, { upstream_status: 200 });
      return stored;
    },

    // --- users (docs/vendors/sharefile.md#users) ---
    currentUser: (expand?: string) => getEntity<SfUser>('/Users', q({ $expand: expand })),
    getUser: (id: string, expand?: string) => getEntity<SfUser>(`/Users(${id})`, q({ $expand: expand })),
    findUserByEmail: (email: string, expand?: string) => getEntity<SfUser>('/Users', q({ emailAddress: email, $expand: expand })),
    listEmployees: (query: FeedQuery) => getFeed<SfFeed<SfContact>>('/Accounts/Employees', q({ ...query })),
    listClients: (query: FeedQuery) => getFeed<SfFeed<SfContact>>('/Accounts/Clients', q({ ...query })),
    createClient: (body: SfUserWrite, o: { notify: boolean; addShared: boolean; addPersonal: boolean }) =>
      naming(checked<SfUser>(ENTITY, { method: 'POST', path: '/Users', query: q({ notify: o.notify, addshared: o.addShared, addpersonal: o.addPersonal, pushCreatorDefaultSettings: true }), body }), NEW_USER),
    createEmployee: (body: SfUserWrite, o: { notify: boolean; addShared: boolean; addPersonal: boolean }) =>
      naming(checked<SfUser>(ENTITY, { method: 'POST', path: '/Users/AccountUser', query: q({ notify: o.notify, addshared: o.addShared, addpersonal: o.addPersonal }), body }), NEW_USER),
    updateUser: (id: string, body: SfUserWrite) => checked<SfUser>(ENTITY, { method: 'PATCH', path: `/Users(${id})`, body, idempotent: true }),
    deleteUser: (id: string, completely: boolean) => request<Record<string, never>>({ method: 'DELETE', path: `/Users(${id})`, query: q({ completely }) }),

    // --- groups (docs/vendors/sharefile.md#groups) ---
    listGroups: (query: FeedQuery) => getFeed<SfFeed<SfGroup>>('/Groups', q({ ...query })),
    getGroup: (id: string, contacts: boolean) => get<SfGroup>(`/Groups(${id})`, q({ $expand: contacts ? 'Contacts' : undefined })),
    createGroup: (body: { Name: string; IsShared: boolean; Contacts: ({ Id: string } | { Email: string })[] }) => checked<SfGroup>(GROUP, { method: 'POST', path: '/Groups', body }),
    updateGroup: (id: string, body: { Name?: string; IsShared?: boolean }) => checked<SfGroup>(GROUP, { method: 'PATCH', path: `/Groups(${id})`, body, idempotent: true }),
    deleteGroup: (id: string) => request<Record<string, never>>({ method: 'DELETE', path: `/Groups(${id})` }),
    /** Adds contacts; answers the group's contacts afterwards. Adding a member twice changes nothing. */
    addGroupContacts: (id: string, contacts: ({ Id: string } | { Email: string })[]) =>
      request<SfFeed<SfContact>>({ method: 'POST', path: `/Groups(${id})/Contacts`, body: contacts, idempotent: true }),
    removeGroupContacts: (id: string, contacts: { Id: string }[]) => request<SfFeed<SfContact>>({ method: 'DELETE', path: `/Groups(${id})/Contacts`, body: contacts }),

    // --- access controls (docs/vendors/sharefile.md#access-controls) ---
    listAccessControls: (itemId: string) => get<SfFeed<SfAccessControl>>(`/Items(${itemId})/AccessControls`),
    // A principal with access already is a 409 ("Principal … already has an access control on this item").
    createAccessControl: (itemId: string, body: SfAccessControlWrite, o: { notify: boolean }) =>
      naming(checked<SfAccessControl>(ACCESS_CONTROL, { method: 'POST', path: `/Items(${itemId})/AccessControls`, query: q({ recursive: false, sendDefaultNotification: o.notify }), body }), { Principal: 'principal_id' }),
    updateAccessControl: (itemId: string, body: SfAccessControlWrite) =>
      request<SfAccessControl | SfAsyncOperation>({ method: 'PATCH', path: `/Items(${itemId})/AccessControls`, query: q({ recursive: false }), body, idempotent: true }),
    deleteAccessControl: (principalId: string, itemId: string) =>
      request<Record<string, never>>({ method: 'DELETE', path: `/AccessControls(principalid=${principalId},itemid=${itemId})` }),

    // --- shares (docs/vendors/sharefile.md#shares) ---
    listShares: (query: FeedQuery & { includeExpired: boolean }) => get<SfFeed<SfShare>>('/Shares', q({ ...query })),
    getShare: (id: string, expand?: string) => get<SfShare>(`/Shares(${id})`, q({ $expand: expand })),
    createShare: (body: SfShareWrite) => checked<SfShare>(SHARE, { method: 'POST', path: '/Shares', query: q({ notify: false, direct: false }), body }),
    updateShare: (id: string, body: SfShareWrite) => checked<SfShare>(SHARE, { method: 'PATCH', path: `/Shares(${id})`, body, idempotent: true }),
    deleteShare: (id: string) => request<Record<string, never>>({ method: 'DELETE', path: `/Shares(${id})` }),
    /** Mails the share to recipients (new ones become recipients), with a personal message. An expired share is a 400. */
    resendShare: (body: { ShareId: string; Recipients: string[]; Body?: string; CcSender: boolean }) =>
      naming(checked<SfShare>(SHARE, { method: 'POST', path: '/Shares/Resend', body }), { '[Rr]ecipients?|email address': 'recipients', '[Ss]hare|ShareId': 'share_id' }),
  };
}

export type ShareFileClient = ReturnType<typeof createShareFileClient>;
