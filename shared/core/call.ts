import type { ToolError } from './errors';
import type { KeptCredential, PlatformEnv } from './tool';

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
  /** `Idempotency-Key`, `dry_run`, `max_tokens` as sent; checked by shared/core/safe-writes.ts. */
  idempotencyKey?: unknown;
  dryRun?: unknown;
  maxTokens?: unknown;
  /** `Approval-Id` as sent (MCP: `_meta.approval_id`; direct invocation: `approval_id`): runs a call a person approved (shared/identity/approvals.ts). */
  approvalId?: unknown;
  /** Which surface took the call, for the audit trail (shared/core/audit.ts). */
  surface?: Surface;
}

/** Who a call acts as: the vendor credential to use, and the scope of its caches and claims. */
export interface Caller {
  vendorKey: string;
  /** Replaces the raw key's hash as the scope of caches and idempotency claims. */
  scope: string;
  /** The platform env for this caller: the account's own API host, and a fetch that refreshes once on a 401. */
  env(env: PlatformEnv): PlatformEnv;
  /** Set when a refresh after a vendor 401 failed: the call's answer (UNAUTHORIZED with a reconnect link). */
  failure?: unknown;
  /** The credential kept for later work on the caller's behalf (ToolContext.keepCredential). */
  keep(bindTo: string): Promise<KeptCredential>;
  /** A service key's (or sign-in's) call: whose, through which connection, and whether its policy holds it for approval. */
  principal?: { tenant: string; keyId: string; connection: string; approval: boolean };
}

/** Who a call is, as far as known before its credential is checked: for the audit trail when the check fails. */
export interface CallerIds {
  tenant?: string;
  keyId?: string;
  connection?: string;
}

export type Surface = 'rest' | 'mcp' | 'mcp-task' | 'direct';
