/**
 * What each host's model reads, in tokens (gpt-tokenizer), per host rule (docs/mcp-output.md):
 * - content-first (claude.ai): the text content;
 * - structured-first (Claude Code, VS Code): `JSON.stringify(structuredContent)` whenever a result
 *   has one, the text dropped; the text otherwise;
 * - both (ChatGPT's Apps SDK documents the model seeing `structuredContent` and `content`): the
 *   text and the JSON.
 * Measured through the platform's MCP endpoint: by default, and with `?format=json` (the typed
 * result a programmatic client asks for, which every result carried before the compact default).
 */
import { encode } from 'gpt-tokenizer';
import type { harness } from '../helpers/harness';
import type { BenchRow } from './rows';

/** The tokens one rule's model reads of a result, by default and on a typed endpoint (?format=json). */
export interface RuleTokens {
  compact: number;
  typed: number;
}
export type HostTokens = Record<HostRule, RuleTokens>;

type Result = { content?: { type: string; text?: string }[]; structuredContent?: unknown };

/** The text blocks, as a host joins them. */
export const contentFirst = (r: Result) => (r.content ?? []).flatMap((c) => (c.type === 'text' && c.text !== undefined ? [c.text] : [])).join('\n');
/** What a model reads of a result under each host rule. */
export const HOST_RULES = {
  'content-first (claude.ai)': contentFirst,
  'structured-first (Claude Code, VS Code)': (r: Result) => (r.structuredContent !== undefined ? JSON.stringify(r.structuredContent) : contentFirst(r)),
  'both (ChatGPT)': (r: Result) => [contentFirst(r), ...(r.structuredContent !== undefined ? [JSON.stringify(r.structuredContent)] : [])].join('\n'),
} as const;
export type HostRule = keyof typeof HOST_RULES;

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
  const tokens = (rule: HostRule, r: Result) => encode(HOST_RULES[rule](r)).length;
  return Object.fromEntries((Object.keys(HOST_RULES) as HostRule[]).map((rule) => [rule, { compact: tokens(rule, compact), typed: tokens(rule, typed) }])) as HostTokens;
}

/** The goal: in every host rule, at least 3× fewer tokens than the vendor's raw JSON. */
const GOAL = 3;
const fmt = (n: number) => n.toLocaleString('en-US');

/** A token case's row per host rule: the raw JSON's tokens ÷ the tokens that rule's model reads. */
export function hostRows(figure: string, vendor: string, rawTokens: number, t: HostTokens): BenchRow[] {
  const ratio = (n: number) => Math.round((rawTokens / n) * 100) / 100;
  return (Object.keys(HOST_RULES) as HostRule[]).map((rule) => ({
    figure: `${figure}, ${rule} hosts: tokens vs ${vendor} raw JSON`,
    value: ratio(t[rule].compact),
    unit: '×',
    goal: GOAL,
    better: 'higher' as const,
    detail: `${fmt(t[rule].compact)} vs ${fmt(rawTokens)} tokens; the typed result (?format=json) ${fmt(t[rule].typed)} (${ratio(t[rule].typed)}×)`,
  }));
}
