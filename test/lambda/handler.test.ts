import { GetParameterCommand, ParameterNotFound } from '@aws-sdk/client-ssm';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler, type DirectEvent } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext, restApiV1Event, type HttpRequest } from '../../infra/lambda-events';
import { mockSsm } from '../helpers/ssm-mock';
import { platformCases, type PlatformCase } from '../helpers/platforms';

const ssm = mockSsm();

/** The platform's Lambda entry, wired in-process to a fresh twin of its vendor. */
function makeHandler(c: PlatformCase) {
  const twin = c.twin();
  return lambdaHandler(c.platform, { fetchFor: { [c.name]: twin.fetch }, store: new MemoryStore(), config: loadConfig({}) });
}

/** The platform's read-only probe as an HTTP request. */
const probe = (c: PlatformCase, o: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'POST',
  path: `/v1/tools/${c.name}/${c.probe.tool}`,
  headers: { Authorization: `Bearer ${c.keys.owner}`, 'Content-Type': 'application/json' },
  body: JSON.stringify(c.probe.params),
  ...o,
});


describe.each(platformCases)('$name', (c) => {
  describe('API Gateway HTTP API (payload 2.0)', () => {
    const handler = makeHandler(c);
    const invoke = async (r: HttpRequest) => (await handler(httpApiV2Event(r), lambdaContext())) as APIGatewayProxyStructuredResultV2;

    it('answers the probe as text by default', async () => {
      const res = await invoke(probe(c));
      expect(res.statusCode).toBe(200);
      expect(res.isBase64Encoded).toBe(false);
      expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers?.['cache-control']).toBe('no-store');
      // Each platform's Lambda admits its vendor's published limit by default.
      expect(res.headers?.['ratelimit-limit']).toBe(String(c.platform.rateLimit!.max));
      const body = JSON.parse(res.body!);
      expect(body.success).toBe(true);
      expect(body.data).toMatch(c.answer.text);
    });

    it('answers the structured result with ?format=json', async () => {
      const res = await invoke(probe(c, { query: { format: 'json' } }));
      expect(res.statusCode).toBe(200);
      const body = JSON.parse(res.body!);
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject(c.answer.json);
    });

    it('answers 401 UNAUTHORIZED without an Authorization header', async () => {
      const res = await invoke(probe(c, { headers: { 'Content-Type': 'application/json' } }));
      expect(res.statusCode).toBe(401);
      const body = JSON.parse(res.body!);
      expect(body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: { header: 'Authorization' } } });
    });

    it('encodes the whole envelope with ?base64=true', async () => {
      const res = await invoke(probe(c, { query: { format: 'json', base64: 'true' } }));
      expect(res.statusCode).toBe(200);
      expect(res.headers?.['content-type']).toBe('text/plain; charset=utf-8');
      // The base64 text is the HTTP body itself, not a binary payload API Gateway would decode.
      expect(res.isBase64Encoded).toBe(false);
      expect(res.body).toMatch(/^[A-Za-z0-9+/]+=*$/);
      const body = JSON.parse(Buffer.from(res.body!, 'base64').toString('utf8'));
      expect(body).toMatchObject({ success: true, data: c.answer.json });
    });

    it('takes a base64-encoded request body', async () => {
      const res = await invoke(probe(c, { base64Body: true, query: { format: 'json' } }));
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body!).data).toMatchObject(c.answer.json);
    });

    it('lists the tools on GET /v1/tools/<platform>', async () => {
      const res = await invoke({ method: 'GET', path: `/v1/tools/${c.name}`, headers: { Authorization: `Bearer ${c.keys.owner}` } });
      expect(res.statusCode).toBe(200);
      const body = JSON.parse(res.body!);
      expect(body.data.platform).toBe(c.name);
      expect(body.data.tools.map((t: { name: string }) => t.name)).toContain(c.probe.tool);
    });

    it('answers NOT_FOUND for an unknown tool', async () => {
      const res = await invoke(probe(c, { path: `/v1/tools/${c.name}/noSuchTool` }));
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body!).error.code).toBe('NOT_FOUND');
    });
  });

  describe('API Gateway REST API (payload 1.0)', () => {
    const handler = makeHandler(c);
    // The handler's type is the union of the HTTP result and the direct-invocation envelope.
    const send = async (event: APIGatewayProxyEvent) => (await handler(event, lambdaContext())) as unknown as APIGatewayProxyResult;
    const invoke = (r: HttpRequest) => send(restApiV1Event(r));

    it('answers the probe as text, with multi-value headers', async () => {
      const res = await invoke(probe(c));
      expect(res.statusCode).toBe(200);
      expect(res.multiValueHeaders?.['content-type']).toEqual(['application/json; charset=utf-8']);
      const body = JSON.parse(res.body);
      expect(body.success).toBe(true);
      expect(body.data).toMatch(c.answer.text);
    });

    it('reads ?format=json from queryStringParameters', async () => {
      const res = await invoke(probe(c, { query: { format: 'json' } }));
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body).data).toMatchObject(c.answer.json);
    });

    it('takes a base64-encoded request body (isBase64Encoded: true)', async () => {
      const raw = ` ${JSON.stringify(c.probe.params)} `;
      const event = restApiV1Event(probe(c, { query: { format: 'json' }, body: raw, base64Body: true }));
      expect(event.isBase64Encoded).toBe(true);
      expect(event.body).toBe(Buffer.from(raw).toString('base64'));
      const res = await send(event);
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ success: true, data: c.answer.json });
    });

    it('decodes a base64 body that is not JSON to INVALID_PARAMETER, not a crash', async () => {
      const res = await invoke(probe(c, { body: 'not json', base64Body: true }));
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: '(body)' } });
    });

    it('answers 401 UNAUTHORIZED without an Authorization header', async () => {
      const res = await invoke(probe(c, { headers: {} }));
      expect(res.statusCode).toBe(401);
      expect(JSON.parse(res.body).error.code).toBe('UNAUTHORIZED');
    });
  });

  describe('malformed events still answer an envelope', () => {
    const handler = makeHandler(c);
    const v2 = httpApiV2Event(probe(c));
    const v1 = restApiV1Event(probe(c));
    const answer = async (event: unknown) => {
      const res = (await handler(event as never, lambdaContext())) as APIGatewayProxyStructuredResultV2;
      expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
      return { status: res.statusCode, body: JSON.parse(res.body!) };
    };
    const malformed = (parameter: string, code = 'INVALID_PARAMETER') => ({ success: false, error: { code, details: { parameter } } });

    it('a body flagged base64 that is not base64 → INVALID_PARAMETER (body)', async () => {
      const r = await answer({ ...v2, body: '%%% not base64', isBase64Encoded: true });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject(malformed('(body)'));
    });

    it('a GET that carries a body → the route answer (NOT_FOUND for a tool path), not a bare 400', async () => {
      const r = await answer({ ...v2, requestContext: { ...v2.requestContext, http: { ...v2.requestContext.http, method: 'GET' } } });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(r.body.error.message).toContain('POST /v1/tools/{platform}/{toolName}');
    });

    it.each([
      ['no rawPath', { ...v2, rawPath: undefined }],
      ['no requestContext.http', { ...v2, requestContext: { ...v2.requestContext, http: undefined } }],
      ['requestContext null', { ...v2, requestContext: null }],
      ['v1 without httpMethod', { ...v1, httpMethod: undefined }],
      ['v1 without path', { ...v1, path: undefined }],
    ])('%s → INVALID_PARAMETER (event)', async (_name, event) => {
      const r = await answer(event);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject(malformed('(event)'));
    });
  });

  describe('direct invocation (scheduled jobs)', () => {
    const KEY_PARAMETER = `/tool-execution-service/dev/${c.name}/api-key`;
    const event = (o: Partial<DirectEvent> & Record<string, unknown> = {}): DirectEvent => ({
      tool: c.probe.tool,
      params: c.probe.params,
      format: 'json',
      key_parameter: KEY_PARAMETER,
      ...o,
    });
    const secure = () =>
      ssm.on(GetParameterCommand).resolves({
        Parameter: { Name: KEY_PARAMETER, Type: 'SecureString', Value: c.keys.owner, Version: 1, DataType: 'text' },
      });

    it('reads the key from the SecureString and returns the envelope', async () => {
      secure();
      const handler = makeHandler(c);
      const result = await handler(event(), lambdaContext());
      expect(result).toMatchObject({ success: true, data: c.answer.json });
      const calls = ssm.commandCalls(GetParameterCommand);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.args[0].input).toEqual({ Name: KEY_PARAMETER, WithDecryption: true });
    });

    it('reads SSM once per container: the second invocation uses the cached key', async () => {
      secure();
      const handler = makeHandler(c);
      expect(await handler(event(), lambdaContext())).toMatchObject({ success: true });
      expect(await handler(event({ format: 'text' }), lambdaContext())).toMatchObject({ success: true, data: expect.stringMatching(c.answer.text) });
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
    });

    it('answers text by default', async () => {
      secure();
      const result = await makeHandler(c)({ tool: c.probe.tool, params: c.probe.params, key_parameter: KEY_PARAMETER }, lambdaContext());
      expect(result).toMatchObject({ success: true, data: expect.stringMatching(c.answer.text) });
    });

    it('refuses a String (not SecureString) parameter: UNAUTHORIZED', async () => {
      ssm.on(GetParameterCommand).resolves({ Parameter: { Name: KEY_PARAMETER, Type: 'String', Value: c.keys.owner } });
      const result = await makeHandler(c)(event(), lambdaContext());
      expect(result).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: { parameter: 'key_parameter' } } });
      expect(JSON.stringify(result)).not.toContain(c.keys.owner);
    });

    it('answers UNAUTHORIZED when the parameter does not exist, and does not cache the failure', async () => {
      ssm.on(GetParameterCommand).rejects(new ParameterNotFound({ message: 'Parameter not found', $metadata: { httpStatusCode: 400 } }));
      const handler = makeHandler(c);
      expect(await handler(event(), lambdaContext())).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: { parameter: 'key_parameter' } } });
      // Once the parameter is created, the next invocation reads it.
      ssm.reset();
      secure();
      expect(await handler(event(), lambdaContext())).toMatchObject({ success: true });
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(1);
    });

    it('answers INTERNAL_ERROR when SSM fails otherwise (e.g. access denied)', async () => {
      const denied = Object.assign(new Error('User is not authorized to perform: ssm:GetParameter'), { name: 'AccessDeniedException' });
      ssm.on(GetParameterCommand).rejects(denied);
      expect(await makeHandler(c)(event(), lambdaContext())).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR' } });
    });

    it('refuses a plaintext key in the event: INVALID_PARAMETER, SSM never called', async () => {
      secure();
      const result = await makeHandler(c)(event({ key: c.keys.owner }), lambdaContext());
      expect(result).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'key_parameter' } } });
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(0);
    });

    it('answers UNAUTHORIZED without key_parameter', async () => {
      secure();
      const { key_parameter: _, ...noKey } = event();
      const result = await makeHandler(c)(noKey as DirectEvent, lambdaContext());
      expect(result).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: { parameter: 'key_parameter' } } });
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(0);
    });

    it('answers NOT_FOUND for an unknown tool', async () => {
      secure();
      const result = await makeHandler(c)(event({ tool: 'noSuchTool' }), lambdaContext());
      expect(result).toMatchObject({ success: false, error: { code: 'NOT_FOUND', details: { platform: c.name, tool: 'noSuchTool' } } });
    });

    it('answers INVALID_PARAMETER for a bad format, before reading SSM', async () => {
      secure();
      const result = await makeHandler(c)(event({ format: 'xml' as never }), lambdaContext());
      expect(result).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'format' } } });
      expect(ssm.commandCalls(GetParameterCommand)).toHaveLength(0);
    });

    it('validates params like the HTTP path does', async () => {
      secure();
      const result = await makeHandler(c)(event({ params: { unexpected: 1 } }), lambdaContext());
      expect(result).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER' } });
    });

    it('answers INVALID_PARAMETER for an event that is not an object, instead of throwing', async () => {
      for (const bad of [null, c.probe.tool, [1]]) {
        const result = await makeHandler(c)(bad as never, lambdaContext());
        expect(result).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: '(event)' } } });
      }
    });
  });
});
