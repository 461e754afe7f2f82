/** One tool call as every surface (HTTP, direct Lambda invocation, MCP) hands it to `execute`. */

export type Format = 'text' | 'json';

export interface Call {
  platform: string;
  tool: string;
  key: string;
  /** The connected account a service key acts through (X-Connection-Id); shared/identity. */
  connection?: string | undefined;
  params: unknown;
  format: Format;
  /** Epoch ms by which the call must be done (Lambda remaining time); none = no budget. */
  deadline?: number;
  /** The platform's request id (Lambda's awsRequestId), for the access log. */
  requestId?: string;
  /** `Idempotency-Key`, `dry_run`, `max_tokens` as sent; checked by shared/safe-call.ts. */
  idempotencyKey?: unknown;
  dryRun?: unknown;
  maxTokens?: unknown;
}
