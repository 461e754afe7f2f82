import { GetParameterCommand } from '@aws-sdk/client-ssm';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler, type DirectEvent } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { MemoryBlobStore } from '../../shared/blob';
import { createRegistry } from '../../shared/core/registry';
import { httpApiV2Event, lambdaContext } from '../../infra/lambda-events';
import { mockSsm } from '../helpers/ssm-mock';
import { platformCases } from '../helpers/platforms';

/**
 * One set of inputs through the three surfaces of one Lambda (REST through API Gateway, MCP
 * through API Gateway, direct invocation): the same answer, since each only maps its request to
 * a call of the one core and the outcome back.
 */
const ssm = mockSsm();
let c = platformCases[0]!;
const KEY_PARAMETER = '/tes/test/api-key';
const handlerOf = (pc: typeof c) => lambdaHandler(pc.platform, { fetchFor: { [pc.name]: pc.twin().fetch }, store: new MemoryStore(), config: loadConfig({}) });
let handler = handlerOf(c);

type Json = Record<string, any>;

async function rest(tool: string, body: string, query: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = (await handler(
    httpApiV2Event({ method: 'POST', path: `/v1/tools/${c.name}/${tool}`, query, headers: { authorization: `Bearer ${c.keys.owner}`, 'content-type': 'application/json' }, body }),
    lambdaContext(),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode!, body: JSON.parse(res.body!) as Json };
}

async function direct(event: Partial<DirectEvent> & Record<string, unknown>): Promise<Json> {
  ssm.on(GetParameterCommand).resolves({ Parameter: { Name: KEY_PARAMETER, Type: 'SecureString', Value: c.keys.owner, Version: 1, DataType: 'text' } });
  return (await handler({ tool: c.probe.tool, key_parameter: KEY_PARAMETER, ...event } as DirectEvent, lambdaContext())) as Json;
}

async function mcpRaw(body: string, query = ''): Promise<{ status: number; body: Json }> {
  const res = (await handler(
    httpApiV2Event({
      method: 'POST',
      path: `/v1/mcp/${c.name}`,
      query: query ? Object.fromEntries(new URLSearchParams(query)) : {},
      headers: { authorization: `Bearer ${c.keys.owner}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    }),
    lambdaContext(),
  )) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode!, body: JSON.parse(res.body!) as Json };
}
let nextId = 1;
const mcpCall = (params: unknown, query = '') => mcpRaw(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', ...(params === undefined ? {} : { params }) }), query);
/** An MCP tool error carries the envelope as its text. */
const mcpEnvelope = (r: { body: Json }) => JSON.parse(r.body.result.content[0].text) as Json;

describe(`the same input on REST, MCP and direct invocation (${c.name})`, () => {
  it('a valid call: the same text, and with format json the same structured result', async () => {
    const r = await rest(c.probe.tool, JSON.stringify(c.probe.params));
    const d = await direct({ params: c.probe.params });
    const m = await mcpCall({ name: c.probe.tool, arguments: c.probe.params });
    expect(r.body.success).toBe(true);
    expect(d).toEqual(r.body);
    expect(m.body.result.content[0].text).toBe(r.body.data);

    const rj = await rest(c.probe.tool, JSON.stringify(c.probe.params), { format: 'json' });
    const dj = await direct({ params: c.probe.params, format: 'json' });
    const mj = await mcpCall({ name: c.probe.tool, arguments: c.probe.params }, 'format=json');
    expect(dj).toEqual(rj.body);
    const structured = mj.body.result.structuredContent;
    expect(structured.result ?? structured).toEqual(rj.body.data);
    expect(mj.body.result.content[0].text).toBe(r.body.data);
  });

  it('nulls for omitted optionals are dropped on every surface alike (direct invocation too)', async () => {
    // The first platform whose probe leaves out an optional parameter that does not take null.
    let chosen: { pc: typeof c; optional: string } | undefined;
    for (const pc of platformCases) {
      const found = await createRegistry([pc.platform]).find(pc.name, pc.probe.tool);
      const shape = (found!.tool.input as unknown as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
      const optional = Object.keys(shape).find((k) => !(k in (pc.probe.params as object)) && shape[k]!.safeParse(undefined).success && !shape[k]!.safeParse(null).success);
      if (optional) {
        chosen = { pc, optional };
        break;
      }
    }
    expect(chosen).toBeDefined();
    const saved = { c, handler };
    c = chosen!.pc;
    handler = handlerOf(c);
    try {
      const withNull = { ...(c.probe.params as object), [chosen!.optional]: null };
      const r = await rest(c.probe.tool, JSON.stringify(c.probe.params));
      expect(r.body.success).toBe(true);
      expect((await rest(c.probe.tool, JSON.stringify(withNull))).body).toEqual(r.body);
      expect(await direct({ params: withNull })).toEqual(r.body);
      expect((await mcpCall({ name: c.probe.tool, arguments: withNull })).body.result.content[0].text).toBe(r.body.data);
    } finally {
      ({ c, handler } = saved);
    }
  });

  it('an invalid parameter: INVALID_PARAMETER naming it on every surface', async () => {
    const bad = { ...c.probe.params, no_such_parameter: 1 };
    const r = await rest(c.probe.tool, JSON.stringify(bad));
    const d = await direct({ params: bad });
    const m = mcpEnvelope(await mcpCall({ name: c.probe.tool, arguments: bad }));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'no_such_parameter' } });
    expect(d).toEqual(r.body);
    expect(m).toEqual(r.body);
  });

  it('an unknown tool: NOT_FOUND on REST and direct invocation, a protocol error naming it on MCP', async () => {
    const r = await rest('noSuchTool', '{}');
    const d = await direct({ tool: 'noSuchTool', params: {} });
    const m = await mcpCall({ name: 'noSuchTool', arguments: {} });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('NOT_FOUND');
    expect(d).toEqual(r.body);
    expect(m.body.error).toMatchObject({ code: -32602 });
    expect(m.body.error.message).toContain('"noSuchTool"');
  });

  it('a body that is not JSON: refused naming the body, with the called tool\'s own example', async () => {
    const r = await rest(c.probe.tool, '{"a": ');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)' } });
    const found = await createRegistry([c.platform]).find(c.name, c.probe.tool);
    expect(r.body.error.message).toContain(JSON.stringify(found!.tool.example.input));
    // Direct invocation gets parsed events: parameters as a string are the same refusal of the body.
    const d = await direct({ params: '{"a": ' });
    expect(d.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)' } });
    const m = await mcpRaw('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", ');
    expect(m.status).toBe(400);
    expect(m.body.error.code).toBe(-32700);
    expect(m.body.error.message).toMatch(/not valid JSON/);
  });

  it('a dry run of a read tool is the plain answer on every surface', async () => {
    const r = await rest(c.probe.tool, JSON.stringify(c.probe.params), { dry_run: 'true' });
    const d = await direct({ params: c.probe.params, dry_run: true });
    const m = await mcpCall({ name: c.probe.tool, arguments: c.probe.params, _meta: { dry_run: true } });
    expect(d).toEqual(r.body);
    expect(m.body.result.content[0].text).toBe(r.body.data);
  });

  it('parameters nested 10,000 deep: INVALID_PARAMETER naming the path on REST and MCP, before parsing', async () => {
    const deep = `{"deep": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const r = await rest(c.probe.tool, deep);
    expect(r.status).toBe(400);
    expect(r.body.error.details).toMatchObject({ parameter: expect.stringMatching(/^deep\.0\.0/), expected: 'at most 64 levels of nested arrays and objects' });
    const m = await mcpRaw(`{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "${c.probe.tool}", "arguments": ${deep}}}`);
    expect(m.body.error.code).toBe(-32602);
    expect(m.body.error.data).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: r.body.error.details.parameter } });
    const spy = vi.spyOn(JSON, 'parse');
    await rest(c.probe.tool, deep);
    expect(spy.mock.calls.some(([text]) => typeof text === 'string' && text.length > 10_000)).toBe(false);
    spy.mockRestore();
  });
});

describe('MCP tools/call as strict as REST', () => {
  it('a key given twice in the arguments is refused by name, as REST refuses it', async () => {
    const first = Object.entries(c.probe.params as Record<string, unknown>)[0];
    const [k, v] = first ?? ['limit', 1];
    const args = `{${JSON.stringify(k)}: ${JSON.stringify(v)}, ${JSON.stringify(k)}: ${JSON.stringify(v)}}`;
    const r = await rest(c.probe.tool, args);
    const m = await mcpRaw(`{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "${c.probe.tool}", "arguments": ${args}}}`);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: k } });
    expect(m.body.result.isError).toBe(true);
    expect(mcpEnvelope(m)).toEqual(r.body);
  });

  it.each([
    ['arguments null', { name: c.probe.tool, arguments: null }, /"params\.arguments".*null/],
    ['arguments an array', { name: c.probe.tool, arguments: [1] }, /"params\.arguments".*an array/],
    ['arguments a string', { name: c.probe.tool, arguments: 'x' }, /"params\.arguments".*a string/],
    ['name a number', { name: 42, arguments: {} }, /"params\.name".*a number/],
    ['params missing', undefined, /"params" is missing/],
    ['params an array', [], /"params" must be an object/],
  ])('%s → -32602 with a sentence naming it', async (_what, params, said) => {
    const m = await mcpCall(params);
    expect(m.body.error.code).toBe(-32602);
    expect(m.body.error.message).toMatch(said);
    expect(m.body.error.message).not.toMatch(/invalid_type|"code":/);
  });

});

describe('signed blob links', () => {
  it('a path that is not valid percent-encoding is a 400 envelope, not a plain-text 500', async () => {
    const blob = new MemoryBlobStore({ secret: 's' });
    const res = blob.serve(new Request('http://127.0.0.1:8787/v1/blobs/%E0%A4%A?expires=1&sig=x'));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER' } });
    const forged = blob.serve(new Request('http://127.0.0.1:8787/v1/blobs/a/b?expires=1&sig=x'));
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
  });
});

describe('the access log', () => {
  it('logs tool names the registry does not know bounded (64 characters) and escaped', async () => {
    process.env.LOG_LEVEL = 'info';
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((l: unknown) => void lines.push(String(l)));
    try {
      await rest('__proto__', '{}');
      await rest(`${'x'.repeat(16_000)}"\n`, '{}');
    } finally {
      spy.mockRestore();
      delete process.env.LOG_LEVEL;
    }
    const calls = lines.map((l) => JSON.parse(l) as Json).filter((l) => l.message === 'call');
    expect(calls).toHaveLength(2);
    for (const l of calls) {
      expect(l.tool).toBe('(unknown)');
      expect(l.requested_tool.length).toBeLessThanOrEqual(64);
      expect(l.requested_tool).toMatch(/^[A-Za-z0-9_.%-]*$/);
    }
    expect(calls[0]!.requested_tool).toBe('__proto__');
    expect(lines.every((l) => l.length < 1_000)).toBe(true);
  });
});
