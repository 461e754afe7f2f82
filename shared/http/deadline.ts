/**
 * API Gateway gives up on an integration after 30 s (HTTP API:
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-quotas.html), whatever the
 * function's own timeout, which is longer for MCP tasks' workers (shared/mcp/task-worker.ts).
 * An HTTP request's work is bounded by the shorter of the two.
 */
export const HTTP_BUDGET_MS = 29_000;

/** The epoch ms by which an HTTP request's answer must be out; undefined outside Lambda. */
export function httpDeadline(lambdaContext: { getRemainingTimeInMillis?(): number } | undefined): number | undefined {
  const remaining = lambdaContext?.getRemainingTimeInMillis?.();
  return remaining === undefined ? undefined : Date.now() + Math.min(remaining, HTTP_BUDGET_MS);
}
