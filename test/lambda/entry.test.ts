import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpApiV2Event, lambdaContext, restApiV1Event } from '../../infra/lambda-events';

/**
 * Every function as deployed (functions/<name>/handler.ts, the module serverless.yml names) enters
 * through the one Lambda entry (shared/lambda/handler.ts): whatever event reaches it, the answer
 * is the envelope, never a thrown error or a bare text body.
 */
const functionsDir = join(__dirname, '../../functions');
const names = readdirSync(functionsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

describe('one Lambda entry for every function', () => {
  it('covers the five platforms, mcp and identity', () => {
    expect(names).toEqual(['collab', 'crm', 'dbapp', 'filebox', 'identity', 'mcp', 'realty']);
  });

  describe.each(names)('%s', (name) => {
    const loaded = import(join(functionsDir, name, 'handler.ts')) as Promise<{ handler: (event: unknown, context: unknown) => Promise<unknown> }>;
    const invoke = async (event: unknown) => (await loaded).handler(event, lambdaContext());
    const v2 = httpApiV2Event({ method: 'POST', path: '/v1/mcp', headers: { 'content-type': 'application/json' }, body: '{}' });
    const v1 = restApiV1Event({ method: 'POST', path: '/v1/mcp', headers: { 'content-type': 'application/json' }, body: '{}' });

    it.each([
      ['v2 without requestContext.http', { ...v2, requestContext: {} }],
      ['v2 without rawPath', { ...v2, rawPath: undefined }],
      ['v1 without a path', { ...v1, path: 42 }],
      ['v1 without a method', { ...v1, httpMethod: '' }],
      ['a body flagged base64 that is not', { ...v2, body: '%%% not base64', isBase64Encoded: true }],
    ])('answers a malformed API Gateway event (%s) with the envelope', async (_case, event) => {
      const res = (await invoke(event)) as APIGatewayProxyStructuredResultV2;
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body!)).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER' } });
    });

    it('answers an event that is no object with the envelope', async () => {
      for (const bad of [null, 'text', [1]]) expect(await invoke(bad)).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: '(event)' } } });
    });

    if (name === 'identity') {
      it('refuses a direct invocation: it serves no tools', async () => {
        expect(await invoke({ tool: 'listWorkspaces', key_parameter: '/tes/key' })).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: '(event)' } } });
      });
    }
  });
});
