import { ToolError } from '../core/errors';
import { execute } from '../core/execute';
import { failure, type Outcome } from '../core/envelope';
import type { Format } from '../core/call';
import { readJson, type BodyRead } from '../core/json-body';
import type { Runtime } from '../core/runtime';
import { bearerKey } from '../identity/bearer';
import { HTTP_BUDGET_MS } from './deadline';
import { getQueryParam, tryDecodeURIComponent } from 'hono/utils/url';

/** The largest request body read: AWS Lambda's synchronous payload limit (6 MB). */
export const MAX_BODY_BYTES = 6_000_000;

/** POST /v1/tools/{platform}/{tool} as the Hono route and the Lambda entry both read it. */
export interface ToolRequest {
  platform: string;
  tool: string;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** The first value of a query parameter. */
  query(name: string): string | undefined;
  /** Lambda's remaining time and request id, when the call runs in Lambda. */
  remainingMs?: number | undefined;
  awsRequestId?: string | undefined;
  /** The body as read (or why it was refused). */
  body: BodyRead | Promise<BodyRead>;
}

/** The path of a tool call: `/v1/tools/{platform}/{tool}`, nothing before or after. */
const TOOL_PATH = /^\/v1\/tools\/([^/]+)\/([^/]+)$/;

/**
 * The tool a request calls: POST /v1/tools/{platform}/{tool}, its segments decoded as the router
 * decodes path parameters (a malformed escape kept as sent); undefined for any other request.
 * The one routing of a tool call, for the Hono app and the Lambda entry reading the event alike.
 */
export function toolRoute(method: string, path: string): { platform: string; tool: string } | undefined {
  if (method !== 'POST') return undefined;
  const m = TOOL_PATH.exec(path);
  return m ? { platform: tryDecodeURIComponent(m[1]!), tool: tryDecodeURIComponent(m[2]!) } : undefined;
}

/** The first value of a query parameter of a raw query string, decoded by the router's own function ('+' as a space). */
export function queryOf(raw: string): (name: string) => string | undefined {
  // As a URL: the router's function reads the query after the first '?' past the scheme and host.
  const url = `https://query/?${raw}`;
  return (name) => getQueryParam(url, name) as string | undefined;
}

/** The refusal of a body over MAX_BODY_BYTES (reported through execute, after auth and the rate limit). */
export const tooLarge = (): BodyRead => ({
  ok: false,
  refused: new ToolError('INVALID_PARAMETER', `The request body is larger than ${MAX_BODY_BYTES / 1_000_000} MB. Pass large files as https URLs rather than base64 content.`, { parameter: '(body)', expected: `at most ${MAX_BODY_BYTES} bytes` }),
});

/** Empty body = no parameters; anything else is read by shared/core/json-body.ts (depth, JSON, duplicate keys). */
export function bodyOf(text: string): BodyRead {
  if (text.trim() === '') return { ok: true, value: {} };
  return readJson(text);
}

/**
 * One tool call over HTTP, whatever carries it (the Hono route, or the Lambda entry reading the
 * API Gateway event itself): the key, the query options and the body (or why it was refused)
 * into execute. Refused bodies and a bad `format` go through execute, after auth and the rate
 * limit, so their answers carry the RateLimit-* headers like every keyed answer.
 */
export async function answerToolRequest(rt: Runtime, req: ToolRequest): Promise<{ outcome: Outcome; base64: boolean }> {
  const { platform, tool } = req;
  const base64 = req.query('base64') === 'true';
  const auth = bearerKey(req.header('authorization'));
  if (!auth.ok) return { outcome: failure(auth.error, { platform, tool }), base64 };
  const format = parseFormat(req.query('format'));
  const requestId = req.awsRequestId ?? req.header('x-request-id');
  const body = await req.body;
  const refused = format instanceof ToolError ? format : body.ok ? undefined : body.refused;
  const outcome = await execute(rt, {
    ...(requestId ? { requestId: requestId.slice(0, 100) } : {}),
    platform,
    tool,
    key: auth.key,
    caller: rt.identity.resolve({ key: auth.key }),
    connection: req.header('x-connection-id'),
    params: body.ok ? body.value : undefined,
    ...(refused ? { refused } : {}),
    format: format instanceof ToolError ? 'text' : format,
    // The function may run longer than API Gateway waits (shared/http/deadline.ts): the shorter bounds the call.
    ...(req.remainingMs !== undefined ? { deadline: Date.now() + Math.min(req.remainingMs, HTTP_BUDGET_MS) } : {}),
    // Safe writes (shared/core/safe-writes.ts): checked there, for every surface alike.
    idempotencyKey: req.header('idempotency-key'),
    dryRun: req.query('dry_run'),
    maxTokens: req.query('max_tokens'),
    approvalId: req.header('approval-id'),
    surface: 'rest',
  });
  return { outcome, base64 };
}

function parseFormat(raw: string | undefined): Format | ToolError {
  if (raw === undefined || raw === 'text') return 'text';
  if (raw === 'json') return 'json';
  return new ToolError('INVALID_PARAMETER', `Query "format" must be "json" (structured result) or omitted (text); got "${raw}".`, {
    parameter: 'format',
    expected: '"json" or "text"',
  });
}
