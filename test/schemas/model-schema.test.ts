import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { platforms } from '../../infra/local/platforms';
import { catalog } from '../../shared/catalog/catalog';
import { modelInputSchema } from '../../shared/catalog/model-schema';
import { mcpTool } from '../../shared/catalog/providers';
import { numericId } from '../../shared/core/ids';
import { createRegistry } from '../../shared/core/registry';
import { validArb, type Schema } from '../fuzz/schema-arb';

/**
 * The input schema as tools/list shows it to a model (shared/catalog/model-schema.ts): fewer
 * tokens, never a refusal of an input the tool takes.
 */
describe('the model\'s view of an input schema', () => {
  it('says the same parameters, limits and descriptions without what guides no model', () => {
    const input = z.strictObject({
      item_id: numericId('The item.'),
      limit: z.number().int().min(1).max(500).default(30).describe('Page size (default 30).'),
      sort: z.enum(['asc', 'desc']).default('desc').describe('Order.'),
      name: z.string().min(1).max(200).describe('Its name.'),
    });
    const { $schema: _, ...schema } = z.toJSONSchema(input, { io: 'input' }) as Record<string, unknown>;
    expect(modelInputSchema(schema)).toEqual({
      type: 'object',
      properties: {
        item_id: { description: 'The item.', type: ['integer', 'string'] },
        limit: { type: 'integer', minimum: 1, maximum: 500, description: 'Page size (default 30).' },
        sort: { enum: ['asc', 'desc'], default: 'desc', description: 'Order.' },
        name: { type: 'string', maxLength: 200, description: 'Its name.' },
      },
      required: ['item_id', 'name'],
    });
  });

  it('accepts every input the catalog\'s schema accepts, for every tool', async () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    const registry = createRegistry(platforms);
    for (const e of await catalog(registry)) {
      const validate = ajv.compile(mcpTool(e).inputSchema);
      const examples = [...(e.inputExamples ?? []), ...fc.sample(validArb(e.inputSchema as Schema), { seed: 11, numRuns: 10 })];
      for (const x of examples) expect(validate(x), `${e.platform}/${e.name}: ${JSON.stringify(x)} — ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});
