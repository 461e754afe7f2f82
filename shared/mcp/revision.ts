/**
 * Which MCP revision a request speaks, decided here and nowhere else (docs/mcp.md#negotiation).
 *
 * Revision 2026-07-28 ("modern", https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning)
 * has no initialize and no session: every request carries its protocol version and the client's
 * capabilities in `params._meta`, and on HTTP mirrors the version, the method and the tool's name
 * in headers the server checks against the body. Revisions up to 2025-11-25 ("legacy") open with
 * initialize and are served as before. One endpoint serves both, chosen per request: a request
 * with the modern `_meta`, a `server/discover`, or an `MCP-Protocol-Version` header naming no
 * legacy revision is modern; anything else is legacy.
 */
import type { RpcAnswer, RpcId } from './rpc';

export const LATEST_PROTOCOL_VERSION = '2025-11-25';
/** The legacy revisions (initialize first), newest first: the SDK 1.x's list (test/mcp/protocol.test.ts compares them). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** Every revision an endpoint serves, newest first: what server/discover and -32022 list. */
export const SERVED_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** The reserved `_meta` keys of the revision. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
} as const;

/** Error codes of the revision (https://modelcontextprotocol.io/specification/2026-07-28/basic/index#error-codes). */
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

/** The capabilities a modern client declared on this request. */
export type ClientCapabilities = Record<string, unknown> & {
  elicitation?: { form?: object; url?: object };
  sampling?: object;
  roots?: object;
  extensions?: Record<string, unknown>;
};

/**
 * This server's own extension (a vendor prefix, as the revision has third-party extensions name
 * theirs): a client that declares it in a request's `clientCapabilities.extensions` gets typed
 * output on that request — `outputSchema` in tools/list, `structuredContent` in tool results — as
 * `?format=json` on the endpoint gives every request (docs/mcp-output.md). The revision itself
 * has no capability for it.
 */
export const TYPED_OUTPUT_EXTENSION = 'tool-execution-service/typed-output';

/** Whether a request's client capabilities declare the typed-output extension. */
export function declaresTypedOutput(capabilities: unknown): boolean {
  const ext = isObject(capabilities) ? capabilities.extensions : undefined;
  return isObject(ext) && isObject(ext[TYPED_OUTPUT_EXTENSION]);
}

/** A modern request's client: what it declared in `_meta`. */
export interface ModernClient {
  version: string;
  capabilities: ClientCapabilities;
}

/** An answer of the protocol core: the JSON-RPC message (or none: 202) and its HTTP status. */
export interface McpReply {
  status: number;
  body?: RpcAnswer | RpcAnswer[];
}

export type Negotiated = { era: 'legacy' } | { era: 'modern'; client: ModernClient } | { era: 'refused'; reply: McpReply };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const idOf = (m: Record<string, unknown>): RpcId | null => (typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id)) ? m.id : null);

/** A modern error: HTTP 400 with the request's id. */
const refuse = (id: RpcId | null, code: number, message: string, data?: unknown): Negotiated => ({
  era: 'refused',
  reply: { status: 400, body: { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } } },
});

/**
 * The revision of one POST body, given its headers (`header(name)`, case-insensitive). Batches,
 * notifications and responses are legacy messages (the modern revision has no batches; its
 * notifications need no answer). A modern request is checked as the revision prescribes, in this
 * order: `_meta` (-32602), the version header against `_meta` (-32020), the version (-32022), the
 * `Mcp-Method` and `Mcp-Name` headers against the body (-32020); each refusal is HTTP 400.
 */
export function negotiate(body: unknown, header: (name: string) => string | undefined): Negotiated {
  if (!isObject(body) || typeof body.method !== 'string' || !('id' in body)) return { era: 'legacy' };
  const id = idOf(body);
  const params = isObject(body.params) ? body.params : undefined;
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  const headerVersion = header('mcp-protocol-version')?.trim();
  const metaVersion = meta?.[META.protocolVersion];
  // A legacy revision named in _meta or the header (or none at all) keeps the legacy behaviour.
  if (typeof metaVersion === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(metaVersion)) return { era: 'legacy' };
  // An initialize without the modern _meta opens a legacy session, whatever header a client sends with it.
  if (metaVersion === undefined && body.method === 'initialize') return { era: 'legacy' };
  const modern = metaVersion !== undefined || body.method === 'server/discover' || (headerVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(headerVersion));
  if (!modern) return { era: 'legacy' };
  if (id === null) return refuse(null, -32600, 'Invalid request: "id" must be a string or an integer.');
  const example = `e.g. "_meta": {"${META.protocolVersion}": "${MODERN_PROTOCOL_VERSION}", "${META.clientCapabilities}": {}}`;
  if (metaVersion === undefined && headerVersion !== undefined && headerVersion !== MODERN_PROTOCOL_VERSION && !meta) {
    return unsupported(id, headerVersion);
  }
  if (!meta) return refuse(id, INVALID_PARAMS, `Invalid params: a ${MODERN_PROTOCOL_VERSION} request carries "params._meta" with its protocol version and client capabilities, ${example}. Clients of 2025-11-25 and older send initialize first.`);
  if (typeof metaVersion !== 'string') return refuse(id, INVALID_PARAMS, `Invalid params: "params._meta" must name "${META.protocolVersion}" as a string, ${example}.`);
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) return refuse(id, INVALID_PARAMS, `Invalid params: "params._meta" must carry "${META.clientCapabilities}" as an object (empty when the client declares none), ${example}.`);
  if (headerVersion !== metaVersion) {
    return refuse(id, HEADER_MISMATCH, headerVersion === undefined
      ? `Header mismatch: the MCP-Protocol-Version header is missing; send it with the value of _meta "${META.protocolVersion}" ("${metaVersion.slice(0, 40)}").`
      : `Header mismatch: MCP-Protocol-Version header value '${headerVersion.slice(0, 40)}' does not match body value '${metaVersion.slice(0, 40)}'.`);
  }
  if (metaVersion !== MODERN_PROTOCOL_VERSION) return unsupported(id, metaVersion);
  const mismatch = headerMismatch(body.method, params, header);
  if (mismatch) return refuse(id, HEADER_MISMATCH, mismatch);
  return { era: 'modern', client: { version: metaVersion, capabilities } };
}

function unsupported(id: RpcId, requested: string): Negotiated {
  return refuse(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${requested.slice(0, 40)}. Supported versions: ${SERVED_PROTOCOL_VERSIONS.join(', ')}.`, {
    supported: SERVED_PROTOCOL_VERSIONS,
    requested,
  });
}

/** Methods whose `Mcp-Name` header mirrors `params.name` (`params.uri`, or a task's `params.taskId`: the Tasks extension). */
const NAMED: Record<string, 'name' | 'uri' | 'taskId'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };
/** A header value of visible ASCII, spaces and tabs only (RFC 9110 field values). */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * What is wrong with the standard request headers (Streamable HTTP, "Server Validation"):
 * `Mcp-Method` must equal the method and `Mcp-Name` the named method's name or URI (decoded from
 * the Base64 sentinel form); values are case-sensitive, surrounding whitespace is not part of them.
 */
function headerMismatch(method: string, params: Record<string, unknown> | undefined, header: (name: string) => string | undefined): string | undefined {
  const sent = header('mcp-method');
  if (sent === undefined) return `Header mismatch: the Mcp-Method header is missing; send it with the request's method ("${method.slice(0, 60)}").`;
  if (!FIELD_VALUE.test(sent)) return 'Header mismatch: the Mcp-Method header holds characters a header value may not carry.';
  if (sent.trim() !== method) return `Header mismatch: Mcp-Method header value '${sent.trim().slice(0, 60)}' does not match body value '${method.slice(0, 60)}'.`;
  const field = NAMED[method];
  if (!field) return undefined;
  const value = params?.[field];
  if (typeof value !== 'string') return undefined; // the method's own validation names the missing field
  const raw = header('mcp-name');
  if (raw === undefined) return `Header mismatch: the Mcp-Name header is missing; send it with params.${field} ("${value.slice(0, 60)}").`;
  if (!FIELD_VALUE.test(raw)) return 'Header mismatch: the Mcp-Name header holds characters a header value may not carry; encode the value as =?base64?…?=.';
  const trimmed = raw.trim();
  const encoded = SENTINEL.exec(trimmed);
  const name = encoded ? Buffer.from(encoded[1]!, 'base64').toString('utf8') : trimmed;
  if (name !== value) return `Header mismatch: Mcp-Name header value '${trimmed.slice(0, 60)}' does not match body value '${value.slice(0, 60)}'.`;
  return undefined;
}

/** The HTTP status of a modern JSON-RPC answer: 404 for an unknown method, 400 for a missing capability, else 200. */
export function modernStatus(answer: RpcAnswer): number {
  const code = answer.error?.code;
  if (code === METHOD_NOT_FOUND) return 404;
  if (code === MISSING_CLIENT_CAPABILITY || code === HEADER_MISMATCH || code === UNSUPPORTED_PROTOCOL_VERSION) return 400;
  return 200;
}
