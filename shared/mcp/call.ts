/**
 * One MCP tools/call of a tool, through the one execute path, its Outcome as an MCP tool result:
 * answered in the request (shared/mcp/server.ts) or by a task's worker
 * (shared/mcp/task-worker.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolError } from '../core/errors';
import type { Resolved } from '../core/call';
import { execute } from '../core/execute';
import type { Runtime } from '../core/runtime';
import type { CatalogEntry } from '../catalog/catalog';
import { structuredOf } from '../catalog/providers';
import type { Surface } from '../core/call';

/** Our error envelope as the text of an isError result: code, message and details (parameter, expected…). */
export const errorResult = (body: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] });

/** The caller's side of one call: who, through which connection, for which endpoint, until when. */
export interface ToolCaller {
  /** The bearer as presented (sealed for a task's worker). */
  key: string;
  /** Who presents it, resolved once at the edge (the MCP route; a task's worker for its own invocation). */
  caller: Resolved | Promise<Resolved>;
  connection?: string | undefined;
  resource?: string | undefined;
  /**
   * `?format=json` on the endpoint: the result carries the typed JSON result as structuredContent
   * (under the tool's listed output schema); otherwise the compact text alone (docs/mcp-output.md).
   */
  structured: boolean;
  deadline?: number | undefined;
  requestId?: string | undefined;
  /** The arguments the HTTP edge refused (a key given twice): the call answers that error. */
  refused?: ToolError | undefined;
  /** `mcp`, or `mcp-task` for a task's run: the audit trail's surface. */
  surface?: Surface | undefined;
}

/** The _meta of a tools/call the service reads: a connection per call and safe writes (shared/core/safe-writes.ts). */
export interface CallMeta {
  connection_id?: unknown;
  idempotency_key?: unknown;
  dry_run?: unknown;
  max_tokens?: unknown;
  /** The approval a person gave for this exact call (shared/identity/approvals.ts), as REST's Approval-Id header. */
  approval_id?: unknown;
}

/** Only what the service reads of a call's _meta: what a task keeps for its worker. */
export const callMetaOf = (meta: Record<string, unknown>): CallMeta => {
  const { connection_id, idempotency_key, dry_run, max_tokens, approval_id } = meta;
  return Object.fromEntries(Object.entries({ connection_id, idempotency_key, dry_run, max_tokens, approval_id }).filter(([, v]) => v !== undefined));
};

/** A tool as a tools/call reaches it: a catalog entry, or a service tool (search_tools: no output schema, rendered by `render`). */
export type CallTarget = Pick<CatalogEntry, 'platform' | 'name' | 'outputSchema'>;

/**
 * Renders a tool's data (its JSON result) as the tools/call result an endpoint gives, where it
 * differs from the catalog's text (search_tools: its hits named as they are called there).
 */
export type Render = (data: unknown) => CallToolResult | Promise<CallToolResult>;

/**
 * Every MCP tools/call of a tool goes through here, whoever runs it (the request, a task's worker,
 * a round of multi round-trip input), and through here only to `execute`: the call's Outcome as
 * an MCP tool result, with the error of a failed call as the envelope has it (its code and
 * details: a connect link, an approval's id).
 */
export async function callTool(
  rt: Runtime,
  target: CallTarget,
  who: ToolCaller,
  args: Record<string, unknown>,
  meta: CallMeta,
  render?: Render,
): Promise<{ result: CallToolResult; error?: { code: string; details?: unknown } }> {
  const outcome = await execute(rt, {
    platform: target.platform,
    tool: target.name,
    key: who.key,
    caller: who.caller,
    connection: typeof meta.connection_id === 'string' ? meta.connection_id : who.connection,
    params: args,
    ...(who.refused ? { refused: who.refused } : {}),
    format: render ? 'json' : who.structured ? 'structured' : 'text',
    ...(who.deadline !== undefined ? { deadline: who.deadline } : {}),
    ...(who.requestId ? { requestId: who.requestId } : {}),
    idempotencyKey: meta.idempotency_key,
    dryRun: meta.dry_run,
    maxTokens: meta.max_tokens,
    approvalId: meta.approval_id,
    surface: who.surface ?? 'mcp',
  });
  // Tool errors (bad parameters, the vendor's refusal, rate limit) are results the model can act on.
  if (!outcome.body.success) return { result: errorResult(outcome.body), error: outcome.body.error };
  if (render) return { result: await render(outcome.body.data) };
  // As HTTP's Idempotent-Replayed and Dry-Run headers say it.
  const said = {
    ...(outcome.headers['Idempotent-Replayed'] === 'true' ? { idempotent_replayed: true } : {}),
    ...(outcome.headers['Dry-Run'] === 'true' ? { dry_run: true } : {}),
  };
  // structuredContent only for an endpoint that asked for the typed result: Claude Code and VS Code
  // hand their model JSON.stringify(structuredContent) instead of the text whenever there is one
  // (docs/mcp-output.md), so by default every host's model reads the compact text.
  const data = who.structured ? outcome.structured : undefined;
  return {
    result: {
      content: [{ type: 'text', text: String(outcome.body.data) }],
      ...(data !== undefined ? { structuredContent: structuredOf(target.outputSchema, data, { plan: said.dry_run === true }) } : {}),
      ...(Object.keys(said).length ? { _meta: said } : {}),
    },
  };
}
