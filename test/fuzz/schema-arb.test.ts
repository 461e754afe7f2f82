import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { catalog } from '../../shared/catalog/catalog';
import { createRegistry } from '../../shared/core/registry';
import { invalidArb, validArb, type Schema } from './schema-arb';

/**
 * The fuzz suite's generators judged by an independent JSON Schema validator (Ajv, draft 2020-12):
 * what it calls valid must be valid for the schema the service serves, or the suite would blame
 * the service for the generator's mistakes.
 */
describe('fuzz generators', async () => {
  const registry = createRegistry(platforms);
  const entries = await catalog(registry);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);

  it('covers every tool of every platform', () => {
    expect(entries.length).toBe(platforms.reduce((n, p) => n + Object.keys(p.tools).length, 0));
  });

  it('generates only inputs the served JSON Schema accepts', () => {
    for (const e of entries) {
      const validate = ajv.compile(e.inputSchema);
      for (const value of fc.sample(validArb(e.inputSchema as Schema), { seed: 7, numRuns: 25 })) {
        expect(validate(value), `${e.platform}/${e.name}: ${JSON.stringify(value)} — ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it('breaks a wrong-type, missing, out-of-range or unknown-key case against the served schema too', async () => {
    let checked = 0;
    for (const e of entries) {
      const found = (await registry.find(e.platform, e.name))!;
      const validate = ajv.compile(e.inputSchema);
      const accept = (p: unknown) => found.tool.input.safeParse(p).success;
      for (const c of fc.sample(invalidArb(e.inputSchema as Schema, found.tool.example.input as Record<string, unknown>, accept), { seed: 7, numRuns: 10 })) {
        // The other kinds (reserved keys, control characters, sizes, depth) are faults JSON Schema cannot express.
        if (!['wrong-type', 'missing-required', 'out-of-range', 'unknown-key'].includes(c.kind)) continue;
        expect(validate(c.params), `${e.platform}/${e.name} ${c.kind} at ${c.path}`).toBe(false);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(entries.length);
  });
});
