/** JSON-RPC answers: the messages the MCP core (shared/mcp/server.ts) returns; the edge (shared/http/mcp.ts) writes them as HTTP responses. */

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
