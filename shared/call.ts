import type { ToolError } from './errors';

/** One tool call as every surface (HTTP, direct Lambda invocation, MCP) hands it to `execute`. */

/**
 * How the answer's data is rendered: `text` (compact text within any token budget), `json` (the
 * structured result), `structured` (the text, and beside it the structured result where there is
 * one: MCP's `structuredContent`).
 */
export type Format = 'text' | 'json' | 'structured';

export interface Call {
  platform: string;
  tool: string;
  key: string;
  /** The connected account a service key acts through (X-Connection-Id); shared/identity. */
  connection?: string | undefined;
  /** The MCP endpoint's URL the call came through: the audience an access token must name. */
  resource?: string;
  /** The parameters as sent (nulls for omitted optionals included: execute drops them). */
  params: unknown;
  format: Format;
  /**
   * What the surface refused while reading the request (a body that is not JSON, too large, too
   * deep, a key given twice, a bad `format`): reported by execute after auth, the tool lookup and
   * the rate limit, so the answer carries the RateLimit-* headers like every keyed answer.
   * `not_json`: the body is not JSON (the answer shows the called tool's own example input).
   */
  refused?: ToolError | 'not_json';
  /** Epoch ms by which the call must be done (Lambda remaining time); none = no budget. */
  deadline?: number;
  /** The platform's request id (Lambda's awsRequestId), for the access log. */
  requestId?: string;
  /** `Idempotency-Key`, `dry_run`, `max_tokens` as sent; checked by shared/safe-call.ts. */
  idempotencyKey?: unknown;
  dryRun?: unknown;
  maxTokens?: unknown;
  /** `Approval-Id` as sent (MCP: `_meta.approval_id`; direct invocation: `approval_id`): runs a call a person approved (shared/approvals.ts). */
  approvalId?: unknown;
  /** Which surface took the call, for the audit trail (shared/audit.ts). */
  surface?: Surface;
}

export type Surface = 'rest' | 'mcp' | 'mcp-task' | 'direct';
