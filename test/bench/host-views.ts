/**
 * What each host's model reads of one tool call, in tokens (gpt-tokenizer), per host rule
 * (docs/mcp-output.md): content-first hosts (claude.ai, ChatGPT) hand the model the text content;
 * structured-first hosts (Claude Code, VS Code) hand it `JSON.stringify(structuredContent)` whenever
 * a result has one, and drop the text. Measured through the platform's MCP endpoint: by default,
 * and with `?format=json` (the typed result a programmatic client asks for, which every result
 * carried before the compact default).
 */
import { encode } from 'gpt-tokenizer';
import type { harness } from '../helpers/harness';
import type { BenchRow } from './rows';

export interface HostTokens {
  /** claude.ai, ChatGPT: the text content. */
  contentFirst: number;
  /** Claude Code, VS Code: JSON.stringify(structuredContent), the text when there is none. */
  structuredFirst: number;
  /** The structured-first rule on the typed result (?format=json). */
  typedStructuredFirst: number;
}

type Result = { content?: { type: string; text?: string }[]; structuredContent?: unknown };

/** The content-first rule: the text blocks, as a host joins them. */
export const contentFirst = (r: Result) => (r.content ?? []).flatMap((c) => (c.type === 'text' && c.text !== undefined ? [c.text] : [])).join('\n');
/** The structured-first rule. */
export const structuredFirst = (r: Result) => (r.structuredContent !== undefined ? JSON.stringify(r.structuredContent) : contentFirst(r));

/**
 * What a host hands its model of a tools/list entry: its name, description and input schema
 * (docs/mcp-output.md#definitions); no host we know of passes the title, annotations, icons or
 * output schema on.
 */
export const definitionView = (t: { name: string; description?: string; inputSchema?: unknown }) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema });

/** One call ("crm/searchDeals") through MCP, default and typed, as each host rule reads it. */
export async function hostTokens(h: Awaited<ReturnType<typeof harness>>, platformTool: string, args: unknown): Promise<HostTokens> {
  const compact = (await h.mcpCall(platformTool, args)) as Result;
  const typed = (await h.mcpCall(platformTool, args, { query: 'format=json' })) as Result;
  return {
    contentFirst: encode(contentFirst(compact)).length,
    structuredFirst: encode(structuredFirst(compact)).length,
    typedStructuredFirst: encode(structuredFirst(typed)).length,
  };
}

/** The goal: in every host rule, at least 3× fewer tokens than the vendor's raw JSON. */
const GOAL = 3;
const fmt = (n: number) => n.toLocaleString('en-US');

/** A token case's rows per host rule: the raw JSON's tokens ÷ the tokens that rule's model reads. */
export function hostRows(figure: string, vendor: string, rawTokens: number, t: HostTokens): BenchRow[] {
  const ratio = (n: number) => Math.round((rawTokens / n) * 100) / 100;
  return [
    { figure: `${figure}, content-first hosts (claude.ai, ChatGPT): tokens vs ${vendor} raw JSON`, value: ratio(t.contentFirst), unit: '×', goal: GOAL, better: 'higher', detail: `${fmt(t.contentFirst)} vs ${fmt(rawTokens)} tokens` },
    {
      figure: `${figure}, structured-first hosts (Claude Code, VS Code): tokens vs ${vendor} raw JSON`,
      value: ratio(t.structuredFirst),
      unit: '×',
      goal: GOAL,
      better: 'higher',
      detail: `${fmt(t.structuredFirst)} vs ${fmt(rawTokens)} tokens; the typed result (?format=json) would be ${fmt(t.typedStructuredFirst)} (${ratio(t.typedStructuredFirst)}×)`,
    },
  ];
}
