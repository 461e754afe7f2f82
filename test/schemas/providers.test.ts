import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { createRegistry } from '../../shared/core/registry';
import { catalog, type CatalogEntry } from '../../shared/catalog/catalog';
import { applyProfile, byUse, coreOf, parseProfile, type Profile } from '../../shared/catalog/profiles';
import { ANTHROPIC_TOOL_SEARCH, anthropicTools, mcpListedTool, mcpToolsList, openaiResponsesTools, providerTools, structuredOf, type AnthropicTool, type OpenAiNamespace } from '../../shared/catalog/providers';
import { ToolError } from '../../shared/core/errors';
import { parseInput } from '../../shared/core/validate';

const registry = createRegistry(platforms);
const mainGroups = Object.fromEntries(platforms.map((p) => [p.name, p.mainGroup]));
const vendors = Object.fromEntries(platforms.map((p) => [p.name, p.vendor]));
let entries: CatalogEntry[];
beforeAll(async () => {
  entries = await catalog(registry);
});
const key = (e: Pick<CatalogEntry, 'platform' | 'name'>) => `${e.platform}/${e.name}`;

/** The core set the rule gives: the find of each platform's main object. */
const CORE = ['dbapp/filterRecords', 'collab/filterItems', 'filebox/searchItems', 'crm/searchDeals', 'realty/searchProperties'];

describe('profiles: the core set and the budget order', () => {
  it("every platform names a main group it has, and the core is that group's find", () => {
    for (const p of platforms) {
      const own = entries.filter((e) => e.platform === p.name);
      expect(own.some((e) => e.group === p.mainGroup), p.name).toBe(true);
      const core = coreOf(own, p.mainGroup);
      expect(core.length, p.name).toBe(1);
      expect(core.every((e) => e.annotations.readOnly && e.group === p.mainGroup)).toBe(true);
    }
    expect(applyProfile(entries, { kind: 'deferred' }, mainGroups).loaded.map(key).sort()).toEqual([...CORE].sort());
  });

  it('orders every tool once: the cores first, then the platforms interleaved', () => {
    const ranked = byUse(entries, mainGroups);
    expect(ranked.length).toBe(entries.length);
    expect(new Set(ranked).size).toBe(entries.length);
    expect(new Set(ranked.slice(0, CORE.length).map(key))).toEqual(new Set(CORE));
    // The next five tools are one of each platform: a budget shares out evenly.
    expect(new Set(ranked.slice(CORE.length, CORE.length + 5).map((e) => e.platform)).size).toBe(5);
  });

  it('max_tools keeps N - 1 tools beside the search tool, the core among them, in catalog order', () => {
    for (const n of [40, 128]) {
      const { loaded, deferred } = applyProfile(entries, { kind: 'max', maxTools: n }, mainGroups);
      expect(loaded.length).toBe(n - 1);
      expect(loaded.length + deferred.length).toBe(entries.length);
      for (const c of CORE) expect(loaded.map(key)).toContain(c);
      const order = entries.filter((e) => loaded.includes(e));
      expect(loaded).toEqual(order);
    }
    // A budget above the catalog loads everything.
    expect(applyProfile(entries, { kind: 'max', maxTools: 1000 }, mainGroups).deferred).toEqual([]);
  });

  it('parses profile and max_tools, refusing anything else by naming the parameter', () => {
    expect(parseProfile({})).toEqual({ kind: 'full' });
    expect(parseProfile({ profile: 'deferred' })).toEqual({ kind: 'deferred' });
    expect(parseProfile({ max_tools: '40' })).toEqual({ kind: 'max', maxTools: 40 });
    const refused = (q: Record<string, string>) => {
      try {
        parseProfile(q);
      } catch (err) {
        expect(err).toBeInstanceOf(ToolError);
        return (err as ToolError).details.parameter;
      }
      return undefined;
    };
    expect(refused({ profile: 'lazy' })).toBe('profile');
    for (const bad of ['1', '0', '-3', '4.5', 'forty', '1001']) expect(refused({ max_tools: bad })).toBe('max_tools');
    expect(refused({ profile: 'full', max_tools: '40' })).toBe('max_tools');
  });
});

describe('Anthropic: input_examples and defer_loading', () => {
  it("every tool carries its own example's input (and one per other mode), which the tool and its input_schema accept", async () => {
    const ajv = new Ajv2020({ strict: false });
    const tools = anthropicTools(entries) as AnthropicTool[];
    expect(tools.length).toBe(entries.length);
    for (const [i, t] of tools.entries()) {
      const e = entries[i]!;
      expect(t.input_examples?.length, key(e)).toBeGreaterThan(0);
      const tool = (await registry.find(e.platform, e.name))!.tool;
      for (const x of t.input_examples!) {
        expect(() => parseInput(tool.input, x), key(e)).not.toThrow();
        expect(ajv.validate(t.input_schema, x), `${key(e)}: ${ajv.errorsText()}`).toBe(true);
      }
      expect('defer_loading' in t).toBe(false);
    }
    // A tool with distinct modes shows one example of each.
    const modes = tools.filter((t) => t.input_examples!.length > 1).map((t) => t.name);
    expect(modes).toEqual(expect.arrayContaining(['searchProperties', 'searchDeals', 'searchContacts']));
  });

  it('deferred: the tool search tool first, the core loaded, every other tool deferred', () => {
    const tools = anthropicTools(entries, { profile: { kind: 'deferred' }, mainGroups });
    expect(tools[0]).toEqual(ANTHROPIC_TOOL_SEARCH);
    const rest = tools.slice(1) as AnthropicTool[];
    expect(rest.length).toBe(entries.length);
    const loaded = rest.filter((t) => !t.defer_loading);
    expect(loaded.map((t) => `${entries[rest.indexOf(t)]!.platform}/${t.name}`).sort()).toEqual([...CORE].sort());
    // At least one tool must stay loaded (Anthropic refuses a request whose every tool is deferred).
    expect(loaded.length).toBeGreaterThan(0);
  });

  it('providerTools answers the same for ?schema=anthropic with a profile', () => {
    const profile: Profile = { kind: 'max', maxTools: 40 };
    const tools = providerTools('anthropic', entries, { profile, mainGroups }) as AnthropicTool[];
    expect(tools[0]).toEqual(ANTHROPIC_TOOL_SEARCH);
    expect(tools.filter((t) => 'input_schema' in t && !t.defer_loading).length).toBe(39);
  });
});

describe('OpenAI (Responses API): namespaces and tool search', () => {
  it('full: one namespace per platform and group, every tool once, nothing deferred, no tool_search', () => {
    const out = openaiResponsesTools(entries, { vendors });
    expect(out.some((t) => t.type === 'tool_search')).toBe(false);
    const spaces = out as OpenAiNamespace[];
    const names = spaces.flatMap((s) => s.tools.map((t) => `${s.name}.${t.name}`));
    expect(names.length).toBe(entries.length);
    expect(new Set(names).size).toBe(names.length);
    for (const s of spaces) {
      expect(s.name).toMatch(/^[a-z]+_[a-z]+$/);
      expect(s.description).toContain(vendors[s.name.split('_')[0]!]!);
      for (const t of s.tools) expect(s.description).toContain(t.name);
      expect(s.tools.every((t) => t.defer_loading === undefined)).toBe(true);
    }
  });

  it('deferred: tool_search first, the core functions loaded, the rest deferred inside their namespaces', () => {
    const out = providerTools('openai', entries, { profile: { kind: 'deferred' }, mainGroups, vendors }) as ({ type: 'tool_search' } | OpenAiNamespace)[];
    expect(out[0]).toEqual({ type: 'tool_search' });
    const spaces = out.slice(1) as OpenAiNamespace[];
    expect(spaces.every((s) => s.type === 'namespace')).toBe(true);
    const loaded = spaces.flatMap((s) => s.tools.filter((t) => !t.defer_loading).map((t) => `${s.name.split('_')[0]}/${t.name}`));
    expect(loaded.sort()).toEqual([...CORE].sort());
    expect(spaces.flatMap((s) => s.tools).length).toBe(entries.length);
  });
});

describe('MCP: output schemas in tools/list', () => {
  it("every tool's listed outputSchema is an object schema its example result, as structuredContent, satisfies", async () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    for (const e of entries) {
      const listed = mcpListedTool(e, e.name, undefined, { typed: true });
      expect(listed.outputSchema?.type, key(e)).toBe('object');
      const tool = (await registry.find(e.platform, e.name))!.tool;
      const structured = structuredOf(e.outputSchema, JSON.parse(JSON.stringify(tool.example.result)));
      expect(ajv.validate(listed.outputSchema!, structured), `${key(e)}: ${ajv.errorsText()}`).toBe(true);
    }
    // A list result is served as {result: [...]}, and its schema says so.
    const list = entries.find((e) => e.outputSchema?.type === 'array' && e.annotations.readOnly)!;
    expect(mcpListedTool(list, list.name, undefined, { typed: true }).outputSchema).toMatchObject({ type: 'object', required: ['result'], properties: { result: { type: 'array' } } });
  });

  it('a deferring listing puts the search tool first and keeps catalog order; max_tools counts the search tool', () => {
    const search = { tool: { name: 'search_tools' } };
    const deferred = mcpToolsList(entries, { profile: { kind: 'deferred' }, mainGroups, search }) as { name: string }[];
    expect(deferred.map((t) => t.name)).toEqual(['search_tools', ...entries.filter((e) => CORE.includes(key(e))).map((e) => e.name)]);
    expect(mcpToolsList(entries, { profile: { kind: 'max', maxTools: 40 }, mainGroups, search }).length).toBe(40);
    // Nothing deferred, no search tool (unless the endpoint always lists one).
    const realty = entries.filter((e) => e.platform === 'realty');
    expect(mcpToolsList(realty, { profile: { kind: 'max', maxTools: 40 }, mainGroups, search }).length).toBe(realty.length);
    expect(mcpToolsList(realty, { profile: { kind: 'full' }, mainGroups, search: { ...search, always: true } }).length).toBe(realty.length + 1);
  });
});
