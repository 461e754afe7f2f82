/**
 * Tool definitions a host loads up front, per profile (shared/catalog/profiles.ts): tokens
 * (gpt-tokenizer) of what a model sees of the MCP tools/list (every page) — each tool's name,
 * description and input schema, what Claude Code, claude.ai, VS Code and ChatGPT hand their model
 * (docs/mcp-output.md#definitions) — and of the whole list as served (titles, annotations, icons and
 * output schemas too), of each platform's endpoint and of the combined one under the full profile, the deferred one and the max_tools budgets of Cursor (40) and VS Code (128);
 * what Anthropic's and OpenAI's deferred listings put in front of the model; and the search
 * evaluation (test/search/eval-set.ts) with deferred loading: a request counts as reached when its
 * tool is loaded up front or among the first three answers of the tool search. In-process, about
 * ten seconds.
 */
import { encode } from 'gpt-tokenizer';
import { platforms } from '../../infra/local/platforms';
import { SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { combinedName } from '../../shared/mcp/server';
import { createRuntime } from '../../shared/lambda/runtime';
import { catalog, type CatalogEntry } from '../../shared/catalog/catalog';
import { applyProfile, type Profile } from '../../shared/catalog/profiles';
import { anthropicTools, openaiResponsesTools, type AnthropicTool, type OpenAiNamespace } from '../../shared/catalog/providers';
import { registryIndex, searchIndex } from '../../shared/catalog/search';
import { MemoryStore } from '../../shared/store/memory';
import { evaluate } from '../search/evaluate';
import { definitionView } from './host-views';
import type { BenchRow } from './rows';

/** Every tool reachable with at most this many tokens of definitions up front (the deferred profile). */
const DEFERRED_GOAL = 10_000;
/** What a model sees of one platform's full list (docs/mcp-output.md#definitions); the whole of a 128k context for every platform at once (test/bench/surfaces.ts). */
const PLATFORM_GOAL = 25_000;
const COMBINED_GOAL = 128_000;
/** The search evaluation's top-3 goal (test/bench/search.ts). */
const TOP3_GOAL = 95;

const PROFILES: { label: string; profile: Profile }[] = [
  { label: 'full', profile: { kind: 'full' } },
  { label: 'deferred', profile: { kind: 'deferred' } },
  { label: 'max_tools=40', profile: { kind: 'max', maxTools: 40 } },
  { label: 'max_tools=128', profile: { kind: 'max', maxTools: 128 } },
];

const tokens = (v: unknown) => encode(JSON.stringify(v)).length;

/** tools/list of an MCP endpoint as a host gets it (icons under a local origin), every page. */
async function toolsList(app: ReturnType<typeof createApp>, path: string): Promise<{ name: string; description?: string; inputSchema?: unknown }[]> {
  const res = await app.request(path, {
    method: 'POST',
    headers: { host: '127.0.0.1:8787', authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const body = (await res.json()) as { result?: { tools: { name: string; description?: string; inputSchema?: unknown }[] } };
  if (!body.result) throw new Error(`${path}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.result.tools;
}

const query = (p: Profile) => (p.kind === 'full' ? '' : p.kind === 'deferred' ? '?profile=deferred' : `?max_tools=${p.maxTools}`);

export async function measureDefinitions() {
  const rt = await createRuntime({ platforms, config: loadConfig({}), store: new MemoryStore() });
  const entries = await catalog(rt.registry);
  const mainGroups = Object.fromEntries(platforms.map((p) => [p.name, p.mainGroup]));
  const vendors = Object.fromEntries(platforms.map((p) => [p.name, p.vendor]));
  const app = createApp(rt);
  const scopes: { label: string; path: string; entries: CatalogEntry[]; combined: boolean }[] = [
    ...platforms.map((p) => ({ label: p.name, path: `/v1/mcp/${p.name}`, entries: entries.filter((e) => e.platform === p.name), combined: false })),
    { label: 'all (combined)', path: '/v1/mcp', entries, combined: true },
  ];
  const mcp = [];
  for (const s of scopes) {
    for (const { label, profile } of PROFILES) {
      const list = await toolsList(app, `${s.path}${query(profile)}`);
      const listed = new Set(list.map((t) => t.name));
      const deferred = s.entries.filter((e) => !listed.has(s.combined ? combinedName(e) : e.name)).length;
      mcp.push({ scope: s.label, combined: s.combined, profile: label, tools: list.length, tokens: tokens(list.map(definitionView)), listTokens: tokens(list), total: s.entries.length, deferred });
    }
  }

  // What the model sees up front through the providers' own tool search: Anthropic's loaded
  // tools and its search tool; OpenAI's namespaces (name and description) and loaded functions.
  const anthropic = anthropicTools(entries, { profile: { kind: 'deferred' }, mainGroups });
  const anthropicUpFront = anthropic.filter((t) => !('defer_loading' in t && (t as AnthropicTool).defer_loading));
  const openai = openaiResponsesTools(entries, { profile: { kind: 'deferred' }, mainGroups, vendors });
  const openaiUpFront = openai.map((t) => (t.type === 'namespace' ? { ...t, tools: (t as OpenAiNamespace).tools.filter((f) => !f.defer_loading) } : t));

  // The evaluation with deferred loading: the loaded tools are there; the rest must come up in search's top three.
  const index = await registryIndex(rt.registry);
  const reach = async (profile: Profile) => {
    const loaded = new Set(applyProfile(entries, profile, mainGroups).loaded.map((e) => `${e.platform}/${e.name}`));
    let upFront = 0;
    const ev = await evaluate(async (q) => searchIndex(index, q, 3).map((h) => `${h.entry.platform}/${h.entry.name}`));
    const reached = ev.results.filter((r) => r.task.expect.some((t) => loaded.has(t)) || (r.rank !== null && r.rank <= 3));
    for (const r of ev.results) if (r.task.expect.some((t) => loaded.has(t))) upFront += 1;
    return { tasks: ev.results.length, reached: reached.length, upFront, searchTop3: ev.all.top3 };
  };

  return {
    mcp,
    anthropicTokens: tokens(anthropicUpFront),
    anthropicLoaded: anthropicUpFront.length,
    openaiTokens: tokens(openaiUpFront),
    openaiNamespaces: openai.filter((t) => t.type === 'namespace').length,
    total: entries.length,
    deferred: await reach({ kind: 'deferred' }),
    max40: await reach({ kind: 'max', maxTools: 40 }),
  };
}

export async function benchRows(): Promise<BenchRow[]> {
  const m = await measureDefinitions();
  const pct = (n: number, of: number) => Math.round((n / of) * 1000) / 10;
  const rows: BenchRow[] = m.mcp.map((r) => ({
    figure: `MCP tools/list of ${r.scope}, ${r.profile}: tokens a model sees up front (${r.tools} definitions for ${r.total} tools)`,
    value: r.tokens,
    unit: 'tokens',
    goal: r.profile === 'deferred' ? DEFERRED_GOAL : r.combined ? COMBINED_GOAL : PLATFORM_GOAL,
    better: 'lower' as const,
    detail: `name, description, input schema; the whole list as served ${r.listTokens.toLocaleString('en-US')}${r.deferred ? `; ${r.deferred} tools reached through search_tools` : '; every tool listed'}`,
  }));
  rows.push(
    { figure: `Anthropic tools, deferred, all ${m.total} tools: tokens up front`, value: m.anthropicTokens, unit: 'tokens', goal: DEFERRED_GOAL, better: 'lower', detail: `${m.anthropicLoaded} definitions (the tool search tool and the core); the rest defer_loading` },
    { figure: `OpenAI Responses tools, deferred, all ${m.total} tools: tokens up front`, value: m.openaiTokens, unit: 'tokens', goal: DEFERRED_GOAL, better: 'lower', detail: `tool_search, ${m.openaiNamespaces} namespaces (name, description) and the core functions` },
    {
      figure: `search evaluation with deferred loading: tool loaded or in search top-3 (${m.deferred.tasks} requests)`,
      value: pct(m.deferred.reached, m.deferred.tasks),
      unit: '%',
      goal: TOP3_GOAL,
      better: 'higher',
      detail: `${m.deferred.reached} reached: ${m.deferred.upFront} loaded up front; search alone top-3 ${(m.deferred.searchTop3 * 100).toFixed(1)} %`,
    },
    {
      figure: `search evaluation with max_tools=40: tool loaded or in search top-3 (${m.max40.tasks} requests)`,
      value: pct(m.max40.reached, m.max40.tasks),
      unit: '%',
      goal: TOP3_GOAL,
      better: 'higher',
      detail: `${m.max40.reached} reached: ${m.max40.upFront} loaded up front`,
    },
  );
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) for (const r of await benchRows()) console.log(`${r.figure}: ${r.value} ${r.unit} (goal ${r.better === 'lower' ? '≤' : '≥'} ${r.goal})${r.detail ? ` — ${r.detail}` : ''}`);
