/**
 * The bench's minimal tools server on the official server SDK's new generation
 * (@modelcontextprotocol/server 2.x, createMcpHandler: 2026-07-28 and the stateless 2025 fallback),
 * one tool, JSON answers: bundled like a function by test/bench/mcp-core.ts and timed cold.
 */
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes its text.', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    return server;
  },
  { responseMode: 'json' },
);

/** One HTTP request's answer: its status and JSON body. */
export async function answer(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: unknown }> {
  const res = await handler.fetch(new Request(url, { method: 'POST', headers, body }));
  return { status: res.status, body: await res.json() };
}
