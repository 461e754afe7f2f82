/**
 * The bench's minimal tools server on this service's own MCP core (shared/mcp: negotiation in
 * revision.ts, the protocol in server.ts), one tool served as the conformance fixture serves its
 * tools (McpScope.source), JSON answers: bundled like a function by test/bench/mcp-core.ts and
 * timed cold, beside the same server on the official SDK (sdk-server.ts).
 */
import type { Caller } from '../../../shared/core/call';
import type { Runtime } from '../../../shared/core/runtime';
import type { McpToolSource } from '../../../shared/mcp/list';
import { negotiate } from '../../../shared/mcp/revision';
import { serveMcp } from '../../../shared/mcp/server';

const source: McpToolSource = {
  tools: () => [{ name: 'echo', description: 'Echoes its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }],
  call: (name, args) => (name === 'echo' ? Promise.resolve({ content: [{ type: 'text', text: String(args.text) }] }) : undefined),
};

/** The caller the HTTP edge would have resolved: a bearer passed through, acting nowhere (the fixture's tools reach no vendor). */
const caller: Caller = { key: 'bench', owner: 'bench', act: () => Promise.reject(new Error('no vendor here')) };

/** One HTTP request's answer: its status and JSON body (the HTTP edge's translation, in short). */
export async function answer(_url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: unknown }> {
  const message = JSON.parse(body) as unknown;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const revision = negotiate(message, (name) => lower[name]);
  if (revision.era === 'refused') return { status: revision.reply.status, body: revision.reply.body };
  // A tools/list of a fixture source reads nothing of the runtime.
  const reply = await serveMcp({} as Runtime, message, { filter: { readOnly: false }, structured: false, source }, { key: 'bench', caller, ...(revision.era === 'modern' ? { modern: revision.client } : {}) });
  return { status: reply.status, body: reply.body };
}
