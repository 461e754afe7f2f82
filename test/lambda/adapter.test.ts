import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { describe, expect, it } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { lambdaHandler } from '../../shared/lambda/handler';
import { httpAdapter } from '../../shared/lambda/http-event';
import { textResponse } from '../../shared/http/text-body';
import { MAX_BODY_BYTES } from '../../shared/http/tool-request';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext, restApiV1Event, type HttpRequest } from '../../infra/lambda-events';

/** Bytes that are no UTF-8 text: a PNG signature and a few high bytes. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);

/** JSON with a leading byte-order mark, a malformed sequence and characters of 2, 3 and 4 bytes. */
const TEXT = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é€😀'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);

/** A small app exercising what API Gateway and the adapter must carry both ways. */
function probeApp() {
  const app = new Hono();
  app.get('/bin', () => new Response(PNG, { headers: { 'content-type': 'image/png' } }));
  app.get('/text', () => new Response(TEXT, { headers: { 'content-type': 'application/json' } }));
  app.get('/gzip', () => new Response(PNG, { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }));
  app.get('/cookies', (c) => {
    setCookie(c, 'a', '1', { path: '/' });
    setCookie(c, 'b', '2', { path: '/', httpOnly: true });
    return c.json({ ok: true });
  });
  app.get('/query', (c) => c.json({ all: c.req.queries(), first: c.req.query('x') }));
  app.post('/echo', async (c) => {
    const bytes = Buffer.from(await c.req.arrayBuffer());
    return c.json({ base64: bytes.toString('base64'), length: c.req.header('content-length'), cookie: c.req.header('cookie') ?? null, multi: c.req.header('x-multi') ?? null });
  });
  return httpAdapter(app);
}

describe('API Gateway adapter (shared/lambda/http-event.ts)', () => {
  const handler = probeApp();
  const v2 = (r: HttpRequest, extra: Partial<APIGatewayProxyEventV2> = {}) => handler({ ...httpApiV2Event(r), ...extra }, lambdaContext()) as Promise<APIGatewayProxyStructuredResultV2>;
  const v1 = (r: HttpRequest, extra: Partial<APIGatewayProxyEvent> = {}) => handler({ ...restApiV1Event(r), ...extra }, lambdaContext()) as unknown as Promise<APIGatewayProxyResult>;

  it('answers a binary body in base64, flagged isBase64Encoded (v2 and v1)', async () => {
    const a = await v2({ method: 'GET', path: '/bin' });
    expect(a.isBase64Encoded).toBe(true);
    expect(Buffer.from(a.body!, 'base64')).toEqual(PNG);
    expect(a.headers?.['content-type']).toBe('image/png');
    const b = await v1({ method: 'GET', path: '/bin' });
    expect(b.isBase64Encoded).toBe(true);
    expect(Buffer.from(b.body, 'base64')).toEqual(PNG);
    expect(b.multiValueHeaders?.['content-type']).toEqual(['image/png']);
  });

  it('answers a text body decoded as Response.text() decodes it: the byte-order mark dropped, a malformed sequence as U+FFFD', async () => {
    const a = await v2({ method: 'GET', path: '/text' });
    expect(a.isBase64Encoded).toBe(false);
    expect(a.body).toBe(await new Response(TEXT).text());
    expect(a.body).toBe('{"a":"é€😀\ufffd("}');
  });

  it('answers an encoded (compressed) body in base64 whatever its type', async () => {
    const a = await v2({ method: 'GET', path: '/gzip' });
    expect(a.isBase64Encoded).toBe(true);
    expect(Buffer.from(a.body!, 'base64')).toEqual(PNG);
  });

  it('gives each Set-Cookie on its own: `cookies` in v2, multiValueHeaders in v1', async () => {
    const a = await v2({ method: 'GET', path: '/cookies' });
    expect(a.cookies).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(a.headers?.['set-cookie']).toBeUndefined();
    expect(a.isBase64Encoded).toBe(false);
    expect(JSON.parse(a.body!)).toEqual({ ok: true });
    const b = await v1({ method: 'GET', path: '/cookies' });
    expect(b.multiValueHeaders?.['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
  });

  it('passes v2 cookies in as one Cookie header, and joins a v1 multi-value header', async () => {
    const a = await v2({ method: 'POST', path: '/echo', body: '{}' }, { cookies: ['s=1', 't=2'] });
    expect(JSON.parse(a.body!).cookie).toBe('s=1; t=2');
    const e = restApiV1Event({ method: 'POST', path: '/echo', body: '{}' });
    const b = await handler({ ...e, multiValueHeaders: { ...e.multiValueHeaders, 'X-Multi': ['one', 'two'] } }, lambdaContext()) as unknown as APIGatewayProxyResult;
    expect(JSON.parse(b.body).multi).toBe('one, two');
  });

  it('keeps every value of a repeated query key (v2 raw string, v1 multi-value map)', async () => {
    const a = await v2({ method: 'GET', path: '/query' }, { rawQueryString: 'x=1&x=2&y=a+b' });
    expect(JSON.parse(a.body!)).toEqual({ all: { x: ['1', '2'], y: ['a b'] }, first: '1' });
    const b = await v1({ method: 'GET', path: '/query' }, { queryStringParameters: { x: '2', y: 'a b' }, multiValueQueryStringParameters: { x: ['1', '2'], y: ['a b'] } });
    expect(JSON.parse(b.body)).toEqual({ all: { x: ['1', '2'], y: ['a b'] }, first: '1' });
  });

  it('decodes a base64 request body to its bytes (binary media types), with its real length', async () => {
    const a = await v2({ method: 'POST', path: '/echo' }, { body: PNG.toString('base64'), isBase64Encoded: true });
    expect(JSON.parse(a.body!)).toMatchObject({ base64: PNG.toString('base64'), length: String(PNG.length) });
    const b = await v1({ method: 'POST', path: '/echo' }, { body: PNG.toString('base64'), isBase64Encoded: true });
    expect(JSON.parse(b.body)).toMatchObject({ base64: PNG.toString('base64'), length: String(PNG.length) });
  });
});

describe('tool calls answered from the event match the Hono route', () => {
  const twin = createTapeTwin();
  const options = { fetchFor: { dbapp: twin.fetch }, store: new MemoryStore(), config: loadConfig({}) };
  const lambda = lambdaHandler(dbapp, options);
  const viaApp = createRuntime({ ...options, platforms: [dbapp] }).then((rt) => httpAdapter(createApp(rt)));
  const call = (o: Partial<HttpRequest> = {}): HttpRequest => ({
    method: 'POST',
    path: '/v1/tools/dbapp/getWorkspace',
    headers: { Authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ workspace_id: 1 }),
    ...o,
  });
  /** Both answers of one event, without the rate-limit counter's headers (each handler counts apart). */
  const both = async (event: APIGatewayProxyEvent | APIGatewayProxyEventV2) => {
    const strip = (r: APIGatewayProxyStructuredResultV2 | APIGatewayProxyResult) => {
      const drop = <T extends Record<string, unknown> | undefined>(h: T) => (h ? Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith('ratelimit-'))) : h);
      return { ...r, headers: drop(r.headers as Record<string, string> | undefined), multiValueHeaders: drop((r as APIGatewayProxyResult).multiValueHeaders) };
    };
    const fast = (await lambda(event, lambdaContext())) as APIGatewayProxyStructuredResultV2;
    const routed = await (await viaApp)(event, lambdaContext());
    return { fast: strip(fast), routed: strip(routed as APIGatewayProxyStructuredResultV2) };
  };

  it.each([
    ['text (v2)', httpApiV2Event(call())],
    ['json (v1, multi-value headers)', restApiV1Event(call({ query: { format: 'json' } }))],
    ['base64 envelope', httpApiV2Event(call({ query: { base64: 'true' } }))],
    ['base64 request body', httpApiV2Event(call({ base64Body: true, query: { format: 'json' } }))],
    ['no key', httpApiV2Event(call({ headers: {} }))],
    ['bad format', httpApiV2Event(call({ query: { format: 'xml' } }))],
    ['not JSON', httpApiV2Event(call({ body: '{"workspace_id": ' }))],
    ['unknown tool', httpApiV2Event(call({ path: '/v1/tools/dbapp/noSuchTool' }))],
    ['empty body', httpApiV2Event(call({ body: '' }))],
  ])('%s: the same status, headers and body', async (_name, event) => {
    const { fast, routed } = await both(event);
    expect(fast).toEqual(routed);
  });

  it('takes the first of repeated query values, as the router does (v2 and v1)', async () => {
    const e2 = { ...httpApiV2Event(call()), rawQueryString: 'format=json&format=xml' };
    const { fast, routed } = await both(e2);
    expect(fast).toEqual(routed);
    expect(JSON.parse(String(fast.body)).data).toMatchObject({ workspace_id: 1 });
    const e1 = { ...restApiV1Event(call()), queryStringParameters: { format: 'xml' }, multiValueQueryStringParameters: { format: ['json', 'xml'] } };
    const r1 = await both(e1);
    expect(r1.fast).toEqual(r1.routed);
    expect(JSON.parse(String(r1.fast.body)).success).toBe(true);
  });

  it('refuses a body over the limit as INVALID_PARAMETER (body), counted like any keyed answer', async () => {
    const body = JSON.stringify({ workspace_id: 1, pad: 'x'.repeat(MAX_BODY_BYTES) });
    const res = (await lambda(httpApiV2Event(call({ body })), lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body!).error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)' } });
    expect(res.headers?.['ratelimit-limit']).toBeDefined();
    const { fast, routed } = await both(httpApiV2Event(call({ body })));
    expect(fast).toEqual(routed);
  });

  it('a percent-encoded tool name is decoded as the router decodes it', async () => {
    const res = (await lambda(httpApiV2Event(call({ path: '/v1/tools/dbapp/get%57orkspace' })), lambdaContext())) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!).success).toBe(true);
  });
});

describe('a body our code made as text (shared/http/text-body.ts)', () => {
  it('goes out as that text, not read back from the Response; a binary type still goes out in base64, and a Response made anew is read as usual', async () => {
    const text = `{"list":"${'é'.repeat(100_000)}"}`;
    const app = new Hono();
    app.get('/text', () => textResponse(text, { status: 200, headers: { 'content-type': 'application/json' } }));
    app.get('/bytes', () => textResponse('plain bytes', { status: 200, headers: { 'content-type': 'application/octet-stream' } }));
    app.get('/wrapped', async () => {
      const made = textResponse(text, { status: 201, headers: { 'content-type': 'application/json' } });
      return new Response(made.body, made);
    });
    const adapter = httpAdapter(app);
    const answer = (path: string) => adapter(httpApiV2Event({ method: 'GET', path }) as never, lambdaContext()) as Promise<APIGatewayProxyStructuredResultV2>;
    const made = await answer('/text');
    expect(made).toMatchObject({ statusCode: 200, isBase64Encoded: false });
    expect(made.body).toBe(text);
    expect(await answer('/bytes')).toMatchObject({ isBase64Encoded: true, body: Buffer.from('plain bytes').toString('base64') });
    expect(await answer('/wrapped')).toMatchObject({ statusCode: 201, isBase64Encoded: false, body: text });
  });
});
