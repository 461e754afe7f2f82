import { ERROR_CATALOGUE, ToolError, type ErrorCode, type ErrorDetails } from './errors';
import { log } from './log';
import type { ApprovalRequest } from './approval';

/** The one answer shape of every route and surface: `{success, data}` or `{success, error}`. */
export type Envelope =
  | { success: true; data: unknown }
  | { success: false; error: { code: ErrorCode; message: string; details: ErrorDetails } };

/** An answer before a surface writes it: HTTP status, envelope, headers. */
export interface Outcome {
  status: number;
  body: Envelope;
  headers: Record<string, string>;
  /** With format `structured`: the structured result beside the text in `body.data`. */
  structured?: unknown;
  /** A call held for a person's approval: the request, which a surface may turn into its own way of asking (shared/identity/approvals.ts). */
  approval?: ApprovalRequest;
}

export const success = (data: unknown, headers: Record<string, string> = {}): Outcome => ({ status: 200, body: { success: true, data }, headers });

export function errorBody(code: ErrorCode, message: string, details: ErrorDetails = {}): Envelope {
  return { success: false, error: { code, message, details } };
}

/** Any error as an Outcome: a ToolError as itself, anything else as a generic INTERNAL_ERROR (cause logged). */
export function failure(err: unknown, call: { platform: string; tool: string }, headers: Record<string, string> = {}): Outcome {
  if (err instanceof ToolError) {
    return { status: err.status, body: errorBody(err.code, err.message, err.details), headers: { ...headers, ...err.headers } };
  }
  // Unexpected: the caller gets a generic message, the log gets the cause (never the key or the params).
  log('error', 'unexpected error', { platform: call.platform, tool: call.tool.slice(0, 64), error: err instanceof Error ? err.stack : String(err) });
  return {
    status: ERROR_CATALOGUE.INTERNAL_ERROR.status,
    body: errorBody('INTERNAL_ERROR', 'The service hit an unexpected error; it has been logged. Retry later.', {}),
    headers,
  };
}

/** An Outcome as bytes on the wire, written one way for every HTTP answer (Hono routes and API Gateway proxy answers). */
export interface WrittenEnvelope {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The one envelope writer: JSON, never cached, and with `base64` the whole envelope (UTF-8 JSON)
 * in base64 (RFC 4648, padded) as plain text, for hosts that mangle JSON in transit.
 */
export function writeEnvelope(outcome: Pick<Outcome, 'status' | 'body' | 'headers'>, opts: { base64?: boolean; headers?: Record<string, string> } = {}): WrittenEnvelope {
  const json = JSON.stringify(outcome.body);
  const headers = { ...outcome.headers, ...opts.headers, 'cache-control': 'no-store' };
  if (opts.base64) return { status: outcome.status, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(json, 'utf8').toString('base64') };
  return { status: outcome.status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: json };
}
