import type { Context } from 'hono';
import { failure, success, writeEnvelope, type Outcome } from '../core/envelope';
import { bearerKey } from '../identity/bearer';
import { textResponse } from './text-body';

/** An Outcome as an HTTP Response, through the one envelope writer (shared/core/envelope.ts). */
export function respond(outcome: Pick<Outcome, 'status' | 'body' | 'headers'>, opts: { base64?: boolean; headers?: Record<string, string> } = {}): Response {
  const written = writeEnvelope(outcome, opts);
  return textResponse(written.body, { status: written.status, headers: written.headers });
}

/**
 * A keyed route that is not a tool call (tool lists, tool search): the key first, then the
 * route's work; every outcome an envelope, with the rate-limit headers the work set.
 */
export async function keyed(c: Context, platform: string, work: (key: string, headers: Record<string, string>) => Promise<unknown>): Promise<Response> {
  const auth = bearerKey(c.req.header('authorization'));
  if (!auth.ok) return respond(failure(auth.error, { platform, tool: '' }));
  const headers: Record<string, string> = {};
  try {
    return respond(success(await work(auth.key, headers), headers));
  } catch (err) {
    return respond(failure(err, { platform, tool: '' }, headers));
  }
}
