/** JSON-RPC answers: the messages the MCP core (shared/mcp/server.ts) returns, and as HTTP responses for the edge (shared/http/mcp.ts). */

export type RpcId = string | number;

/** A JSON-RPC error thrown by a handler and answered with its code (shared/mcp/server.ts). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}


export interface RpcAnswer {
  jsonrpc: '2.0';
  id: RpcId | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export const errorAnswer = (id: RpcId | null, code: number, message: string, data?: unknown): RpcAnswer => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

/**
 * One error as the whole answer. Without a request's id it is HTTP 400 (or the status given), as
 * the SDK's transport answers what it cannot tie to a request; a request's error is its answer (200).
 */
export const errorResponse = (code: number, message: string, id: RpcId | null, data?: unknown, status?: number) =>
  jsonResponse(errorAnswer(id, code, message, data), status ?? (id === null ? 400 : 200));
