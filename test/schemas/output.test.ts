import { describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { createRegistry } from '../../shared/core/registry';
import { harness } from '../helpers/harness';
import { committedOutputSchemas, outputValidator, readToolsOf } from './helpers';

/**
 * Every tool's output schema (generated from its result type by infra/output-schemas.ts) against
 * what the tool really answers with format=json: its own example result, and a live answer of
 * every read tool from its twin, called through HTTP with the example's input. Every object is
 * closed here, so a property the type does not declare fails too.
 */
const registry = createRegistry(platforms);
const schemas = await committedOutputSchemas();
// Objects closed in the test: an answer fits only if its type declares every property it carries
// (the published schemas stay open, so a reader takes a later version's extra properties).
const validate = outputValidator(schemas, { closed: true });
const asJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('output schemas', () => {
  it('every tool of every platform has one, and no schema names a tool that does not exist', async () => {
    for (const p of platforms) {
      const tools = (await registry.list(p)).map((t) => t.name).sort();
      expect(Object.keys(schemas[p.name] ?? {}).sort(), p.name).toEqual(tools);
    }
  });

  it("every tool's example result validates against its schema (as JSON, the way format=json sends it)", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const p of platforms) {
      for (const tool of await registry.list(p)) {
        const problems = validate(p.name, tool.name, asJson(tool.example.result));
        if (problems) failures.push(`${p.name}/${tool.name}: ${problems}`);
        checked += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it('a schema refuses an answer that breaks the type (a missing required property, a wrong type)', async () => {
    const tool = (await registry.find('dbapp', 'getWorkspace'))!.tool;
    const good = asJson(tool.example.result) as Record<string, unknown>;
    expect(validate('dbapp', 'getWorkspace', good)).toBeUndefined();
    const required = (schemas.dbapp!.getWorkspace as { required: string[] }).required[0]!;
    const { [required]: _, ...missing } = good;
    expect(validate('dbapp', 'getWorkspace', missing)).toContain(required);
    expect(validate('dbapp', 'getWorkspace', { ...good, [required]: [] })).toBeDefined();
  });
});

describe('live answers of read tools from their twins validate against their schemas', async () => {
  const reads = await readToolsOf(registry);
  const h = await harness();
  const covered: string[] = [];
  const uncovered: string[] = [];
  /**
   * Per platform, the values each key of an example input (ids, an address's parts) took in the
   * answers so far, in the order met (one record's parts share an index): data the fresh twin holds.
   */
  const inputKeys = new Set(reads.flatMap(({ tool }) => Object.keys(tool.example.input as object)));
  const seen = new Map<string, Map<string, unknown[]>>();
  const remember = (platform: string, value: unknown): void => {
    const ids = seen.get(platform) ?? new Map<string, unknown[]>();
    seen.set(platform, ids);
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.slice(0, 20).forEach(walk);
      if (v === null || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        if (inputKeys.has(k) && (typeof x === 'number' || typeof x === 'string')) {
          const list = ids.get(k) ?? [];
          if (!list.includes(x) && list.length < 5) ids.set(k, [...list, x]);
        } else walk(x);
      }
    };
    walk(value);
  };
  /** The example's input with its ids and names swapped for ones the twin holds (the example's come from another account). */
  function* retargeted(platform: string, input: Record<string, unknown>): Generator<Record<string, unknown>> {
    const ids = seen.get(platform);
    const keys = Object.keys(input).filter((k) => (/_id$/.test(k) || typeof input[k] === 'string') && ids?.has(k));
    if (!keys.length) return;
    for (let i = 0; i < 5; i++) {
      const out = { ...input };
      let changed = false;
      for (const k of keys) {
        const values = ids!.get(k)!;
        if (i < values.length) {
          out[k] = typeof input[k] === 'string' ? String(values[i]) : values[i];
          changed = true;
        }
      }
      if (changed) yield out;
    }
  }

  for (const { platform, tool } of reads) {
    it(`${platform}/${tool.name}`, async () => {
      const example = tool.example.input as Record<string, unknown>;
      let res = await h.call(`${platform}/${tool.name}`, example, { query: 'format=json' });
      for (const input of res.body.success ? [] : retargeted(platform, example)) {
        res = await h.call(`${platform}/${tool.name}`, input, { query: 'format=json' });
        if (res.body.success) break;
      }
      if (!res.body.success) {
        // The example names data the fresh twin does not hold, and no id the twin answered with fits.
        uncovered.push(`${platform}/${tool.name}: ${res.body.error.code}`);
        expect(res.body.error.code).toMatch(/^(NOT_FOUND|INVALID_PARAMETER|PERMISSION_DENIED|CONFLICT)$/);
        return;
      }
      covered.push(`${platform}/${tool.name}`);
      remember(platform, res.body.data);
      expect(validate(platform, tool.name, res.body.data)).toBeUndefined();
      // The tool's other modes answer in the same shape.
      for (const input of tool.moreInputs ?? []) {
        const other = await h.call(`${platform}/${tool.name}`, input, { query: 'format=json' });
        expect(other.body.success, JSON.stringify(other.body.error)).toBe(true);
        expect(validate(platform, tool.name, other.body.data)).toBeUndefined();
      }
    });
  }

  it('covers most read tools', () => {
    expect(covered.length + uncovered.length).toBe(reads.length);
    console.log(`output schemas, live: ${covered.length} of ${reads.length} read tools answered and validated; not covered: ${uncovered.join('; ') || 'none'}`);
    expect(covered.length / reads.length).toBeGreaterThan(0.8);
  });
});
