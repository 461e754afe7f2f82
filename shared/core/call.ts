import type { ToolError } from './errors';
import type { KeptCredential, Platform, PlatformEnv, Tool } from './tool';

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
  /** The bearer as presented: counted by admission (hashed), never logged. */
  key: string;
  /**
   * Who presents `key`, resolved once at the edge (Callers.resolve): execute reports a refusal
   * where the caller is checked, after admission and the tool lookup. A promise, so resolving runs
   * alongside the rate limit's round trip.
   */
  caller: Resolved | Promise<Resolved>;
  /** The connected account a service key acts through (X-Connection-Id); shared/identity. */
  connection?: string | undefined;
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

/** A tool as a caller's policies see it (catalog entries and tools alike). */
export interface ToolRef {
  platform: string;
  name: string;
  group?: string | undefined;
  annotations: { readOnly: boolean };
}

/**
 * Who presents a bearer: a vendor key passed through, a service key, an access token of the
 * built-in authorization server or an external provider's token — with its tenant, policies and
 * connection. Resolved once per request, at the edge; every step after reads it.
 */
export interface Caller {
  /** The bearer as presented (sealed for a task's worker; never logged or stored in clear). */
  key: string;
  /** The tenant of a service key, sign-in or external token; none for a vendor key. */
  tenant?: string;
  /** The service key it is or was granted with (a sign-in by connecting the account: `csi_<connection>`); none for a vendor key. */
  keyId?: string;
  /** The connection a sign-in was granted for: the only one its calls may act through. */
  connection?: string;
  /** Whose MCP tasks and requestStates these are (shared/mcp/tasks.ts): an opaque id, never the credential. */
  owner: string;
  /** What the caller's policies let it see and call (catalogs, search, tools/list); absent: everything (a vendor key). */
  allows?: (tool: ToolRef) => boolean;
  /** The toolsets a sign-in's grant shares (plain or `platform:toolset`) and its platforms, when the user picked some on the consent page. */
  toolsets?: { shared: readonly string[]; platforms: readonly string[] };
  /** Acting for one tool call: its policy enforced, the key's own limit counted, the connection's credential opened. */
  act(platform: Platform, tool: Tool, connection: string | undefined): Promise<Acting>;
}

/** A caller acting for one tool call: the vendor credential to use, and the scope of its caches and claims. */
export interface Acting {
  vendorKey: string;
  /** Replaces the raw key's hash as the scope of caches and idempotency claims. */
  scope: string;
  /** The platform env for this caller: the account's own API host, and a fetch that refreshes once on a 401. */
  env(env: PlatformEnv): PlatformEnv;
  /** The credential kept for later work on the caller's behalf (ToolContext.keepCredential). */
  keep(bindTo: string): Promise<KeptCredential>;
  /** A service key's (or sign-in's) call: whose, through which connection, and whether its policy holds it for approval. */
  principal?: { tenant: string; keyId: string; connection: string; approval: boolean };
  /**
   * Runs the tool for this caller: when its run fails after the vendor refused the credential and
   * the refresh failed too, the run's failure is that (UNAUTHORIZED with a reconnect link), not
   * the vendor's 401.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/** A bearer resolved: its caller, or why it is refused (UNAUTHORIZED, an unreachable store…). */
export type Resolved = { ok: true; caller: Caller } | { ok: false; error: unknown };

/**
 * Resolves who presents a bearer (shared/identity builds it; the runtime carries it so the core
 * names no layer above it, docs/architecture.md#layers). `resource`: the MCP endpoint's URL the
 * request came through, the audience an access token must name.
 */
export interface Callers {
  resolve(credential: { key: string; resource?: string | undefined }): Promise<Resolved>;
}

/** Who a call is, as far as known when it fails: for the audit trail. */
export interface CallerIds {
  tenant?: string;
  keyId?: string;
  connection?: string;
}

export type Surface = 'rest' | 'mcp' | 'mcp-task' | 'direct';
