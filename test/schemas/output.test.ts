import { describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { createRegistry } from '../../shared/registry';
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

  for (const { platform, tool } of reads) {
    it(`${platform}/${tool.name}`, async () => {
      const res = await h.call(`${platform}/${tool.name}`, tool.example.input, { query: 'format=json' });
      if (!res.body.success) {
        // The example's input names data the fresh twin does not hold (an id from another account):
        // nothing to validate; counted below.
        uncovered.push(`${platform}/${tool.name}: ${res.body.error.code}`);
        expect(res.body.error.code).toMatch(/^(NOT_FOUND|INVALID_PARAMETER|PERMISSION_DENIED|CONFLICT)$/);
        return;
      }
      covered.push(`${platform}/${tool.name}`);
      expect(validate(platform, tool.name, res.body.data)).toBeUndefined();
    });
  }

  it('covers most read tools', () => {
    expect(covered.length + uncovered.length).toBe(reads.length);
    console.log(`output schemas, live: ${covered.length} of ${reads.length} read tools answered and validated; not covered: ${uncovered.join('; ') || 'none'}`);
    expect(covered.length / reads.length).toBeGreaterThan(0.8);
  });
});
