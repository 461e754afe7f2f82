import { ToolError } from '../../shared/core/errors';
import type { PlatformEnv } from '../../shared/core/tool';
import * as z from 'zod';
import { createUpstream, vendorError, type UpstreamRequest, type VendorError } from '../../shared/vendor/upstream';
import { checkAnswer } from '../../shared/vendor/vendor-contract';
import type { BdEnvelope, BdLookupBody, BdSearchBody } from './wire';

/** The host; the client adds the API version to each path (`/api/v1/…`), so a base URL is just where BatchData (or its twin) answers. */
export const BATCHDATA_BASE_URL = 'https://api.batchdata.com';

/**
 * BatchData's error answer is its status envelope, `{"status":{"code":403,"text":"Forbidden",
 * "message":"…"}}` (docs/vendors/batchdata.md#conventions): the message is what a person reads, the text is the code.
 */
export function describeBatchDataError(body: unknown): VendorError {
  const status = (body as { status?: { text?: unknown; message?: unknown } } | null)?.status;
  return {
    code: typeof status?.text === 'string' ? status.text : undefined,
    message: typeof status?.message === 'string' ? status.message : undefined,
  };
}

// The parts of BatchData's answer the tools read (shared/vendor/vendor-contract.ts): the envelope, and each property's id.
const ENVELOPE = z.looseObject({
  status: z.looseObject({ code: z.literal(200) }),
  results: z.looseObject({ properties: z.array(z.looseObject({ _id: z.string() })) }),
});

/**
 * An HTTP 200 whose envelope says otherwise (`status.code` not 200) is BatchData's error all the
 * same: mapped to the catalogue like the HTTP status it names. Any other answer must fit ENVELOPE.
 */
function checkEnvelope(env: BdEnvelope, req: UpstreamRequest): BdEnvelope {
  const status = env?.status;
  if (status && typeof status.code === 'number' && status.code !== 200) throw envelopeError(status.code, status.message, `${req.method} ${req.path}`);
  return checkAnswer<BdEnvelope>({ platform: 'realty', vendor: 'BatchData' }, req, ENVELOPE, env);
}

function envelopeError(code: number, message: string | undefined, endpoint: string): ToolError {
  return vendorError('BatchData', code, new Headers(), { ...(message ? { message } : {}) }, endpoint);
}

/**
 * The only place that knows BatchData's paths. One instance per call, bound to the caller's API
 * token (`Authorization: Bearer <token>`). Every call is a POST; the lookups and searches only
 * read, so they are safe to retry.
 */
export function createBatchDataClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    ...env,
    headers: { authorization: `Bearer ${key}` },
    describeError: describeBatchDataError,
    vendor: 'BatchData',
  });
  const post = async (path: string, body: unknown) => {
    const req: UpstreamRequest = { method: 'POST', path, body, idempotent: true, read: true };
    return checkEnvelope(await request<BdEnvelope>(req), req);
  };

  return {
    /** POST /property/search: filters, quick lists, quick-list counts (take 0), comparables (compAddress). */
    searchProperties: (body: BdSearchBody) => post('/api/v1/property/search', body),
    /** POST /property/lookup/all-attributes: full records for up to 100 requests. */
    lookupProperties: (body: BdLookupBody) => post('/api/v1/property/lookup/all-attributes', body),
    /**
     * Whether the token works: a search that returns no record (billing is per record returned,
     * docs/vendors/batchdata.md), answered 401 for a token BatchData does not know. A token without
     * the search permission (403) is still a token of theirs.
     */
    checkToken: () => post('/api/v1/property/search', { searchCriteria: { query: 'AZ' }, options: { skip: 0, take: 0 } }).then(() => undefined),
  };
}

export type BatchDataClient = ReturnType<typeof createBatchDataClient>;
