import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../shared/core/errors';
import { harness } from '../helpers/harness';
import { platformCases } from '../helpers/platforms';

type Doc = {
  openapi: string;
  paths: Record<string, { post: { operationId: string; requestBody: { content: { 'application/json': { schema: object } } }; responses: Record<string, unknown>; parameters: { $ref: string }[] } }>;
  components: Record<string, Record<string, any>>;
  security: unknown[];
};

let h: Awaited<ReturnType<typeof harness>>;
let doc: Doc;
beforeAll(async () => {
  h = await harness();
  const res = await h.app.request('/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = (await res.json()) as Doc;
});

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (checked with @seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has one operation per tool of every platform, its body the tool\'s JSON Schema from the catalog', async () => {
    for (const c of platformCases) {
      const res = await h.app.request(`/v1/tools/${c.name}`, { headers: { authorization: `Bearer ${c.keys.owner}` } });
      const tools = ((await res.json()) as { data: { tools: { name: string; input_schema: Record<string, unknown> }[] } }).data.tools;
      for (const t of tools) {
        const op = doc.paths[`/v1/tools/${c.name}/${t.name}`]?.post;
        expect(op, `${c.name}/${t.name}`).toBeDefined();
        expect(op!.operationId).toBe(`${c.name}_${t.name}`);
        const { $schema: _, ...schema } = t.input_schema;
        expect(op!.requestBody.content['application/json'].schema).toEqual(schema);
      }
      expect(Object.keys(doc.paths).filter((p) => p.startsWith(`/v1/tools/${c.name}/`))).toHaveLength(tools.length);
    }
    expect(new Set(Object.values(doc.paths).map((p) => p.post.operationId)).size).toBe(Object.keys(doc.paths).length);
  });

  it('declares bearer security, the format/base64 query parameters and every error of the catalogue', () => {
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes!.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.parameters!.format).toMatchObject({ in: 'query', schema: { enum: ['json', 'text'] } });
    expect(doc.components.parameters!.base64).toMatchObject({ in: 'query' });
    const op = Object.values(doc.paths)[0]!.post;
    expect(op.parameters).toEqual([{ $ref: '#/components/parameters/format' }, { $ref: '#/components/parameters/base64' }]);
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      expect(op.responses[String(status)]).toEqual({ $ref: `#/components/responses/${code}` });
      expect(doc.components.responses![code].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(doc.components.schemas!.Error.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  it('describes real answers: a success and an error envelope validate against its response schemas', async () => {
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(doc.components.schemas!)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const ok = await h.call('dbapp/listWorkspaces', {}, { query: 'format=json' });
    expect(ajv.validate('#/components/schemas/Success', ok.body), JSON.stringify(ajv.errors)).toBe(true);
    const bad = await h.call('dbapp/getWorkspace', { workspace_id: 'x' });
    expect(bad.status).toBe(400);
    expect(ajv.validate('#/components/schemas/Error', bad.body), JSON.stringify(ajv.errors)).toBe(true);
    expect(ajv.validate('#/components/schemas/Error', ok.body)).toBe(false);
  });

  it('takes every tool\'s own example input under its request-body schema (JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      const schema = item.post.requestBody.content['application/json'].schema;
      const [, , , platform, tool] = path.split('/');
      const example = exampleOf(platform!, tool!);
      if (!example) continue;
      expect(ajv.validate(schema, example), `${path}: ${JSON.stringify(ajv.errors)}`).toBe(true);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('serves one platform\'s document at /v1/openapi/<platform>.json, and 404 for an unknown one', async () => {
    for (const c of platformCases) {
      const res = await h.app.request(`/v1/openapi/${c.name}.json`);
      const one = (await res.json()) as Doc;
      expect(Object.keys(one.paths).length).toBeGreaterThan(0);
      expect(Object.keys(one.paths).every((p) => p.startsWith(`/v1/tools/${c.name}/`))).toBe(true);
      expect((await new Validator().validate(one as never)).valid).toBe(true);
    }
    const missing = await h.app.request('/v1/openapi/nowhere.json');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});

/** Examples loaded once: the registry has them after the catalog requests above. */
const examples = new Map<string, unknown>();
function exampleOf(platform: string, tool: string): unknown {
  return examples.get(`${platform}/${tool}`);
}
beforeAll(async () => {
  for (const p of h.rt.registry.platforms.values()) for (const t of await h.rt.registry.list(p)) examples.set(`${p.name}/${t.name}`, t.example.input);
});
