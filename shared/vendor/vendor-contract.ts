import * as z from 'zod';
import { ToolError } from '../core/errors';
import { emit, logRecord } from '../core/log';
import { eventDocument, metricsEnabled } from '../core/metrics';
import type { UpstreamRequest } from './upstream';

/**
 * Vendor answers checked at the client's boundary: each platform client states, with zod, the
 * parts of an answer its tools read (ids, names, the lists they page through), and an answer that
 * does not fit is refused before any tool renders it — a vendor's drift is seen as an error with a
 * metric, not shown to the caller as `#x [object Object]`. Schemas are loose on purpose: they name
 * only what is read and let every other member pass, so a vendor adding fields changes nothing.
 *
 * The refusal is INTERNAL_ERROR with `details.reason: "vendor_contract"`. Where the answer broke
 * (endpoint, member path, what was expected) goes to the log only: the message stays generic, as it
 * is shown to callers who cannot act on a vendor's internals.
 */

/** The metric counted per refused answer, by platform (shared/core/metrics.ts eventDocument). */
export const VENDOR_CONTRACT_METRIC = 'VendorContractFailures';

export interface ContractScope {
  /** The platform's name ("dbapp"): the metric's dimension. */
  platform: string;
  /** The vendor's name ("Tape"): the message's subject. */
  vendor: string;
}

/** Where an answer broke, for the log: the member path and what zod expected there. */
function firstIssue(error: z.ZodError): { at: string; problem: string } {
  const issue = error.issues[0]!;
  return { at: issue.path.map(String).join('.') || '(answer)', problem: issue.message };
}

/**
 * Checks `answer` (from `req`) against `schema`; returns it unchanged when it fits. Otherwise logs
 * where it broke, counts the metric and throws INTERNAL_ERROR (reason vendor_contract).
 */
export function checkAnswer<T>(scope: ContractScope, req: Pick<UpstreamRequest, 'method' | 'path'>, schema: z.ZodType, answer: unknown): T {
  const fit = schema.safeParse(answer);
  if (fit.success) return answer as T;
  const { at, problem } = firstIssue(fit.error);
  // The request path holds ids only (keys travel in headers); the query is not part of it.
  const fields = { platform: scope.platform, vendor: scope.vendor, endpoint: `${req.method} ${req.path.split('?')[0]}`, member: at, problem };
  const record = logRecord('error', 'vendor_contract', fields);
  emit('error', metricsEnabled() ? eventDocument(record, { platform: scope.platform, metric: VENDOR_CONTRACT_METRIC }, process.env.METRICS_NAMESPACE ? { namespace: process.env.METRICS_NAMESPACE } : {}) : record);
  const write = req.method !== 'GET';
  throw new ToolError(
    'INTERNAL_ERROR',
    `${scope.vendor} answered in a shape this service does not recognise, so nothing of the answer is shown.${write ? ` The change may have been made at ${scope.vendor}: look before you retry.` : ' Retrying later may help; the service\'s log says what differed.'}`,
    { reason: 'vendor_contract', vendor: scope.vendor },
  );
}

/**
 * A client's checked request: `checked(schema, req)` sends `req` through the client's `request`
 * and checks the answer. The answer keeps the client's declared type (wire.ts); the schema only vouches for it.
 */
export function contractedRequest(scope: ContractScope, request: <T>(req: UpstreamRequest) => Promise<T>) {
  return async function checked<T>(schema: z.ZodType, req: UpstreamRequest): Promise<T> {
    return checkAnswer<T>(scope, req, schema, await request<unknown>(req));
  };
}
