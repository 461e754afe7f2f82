import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import * as runtime from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import { httpApiV2Event, lambdaContext } from '../../infra/lambda-events';

/**
 * The Lambda init phase: lambdaHandler(...) — run when the bundle is loaded — starts the runtime;
 * the first invocation only awaits it; a failed start is retried by the next invocation.
 */

vi.mock('../../shared/lambda/runtime', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../shared/lambda/runtime')>();
  return { ...original, createRuntime: vi.fn(original.createRuntime) };
});
const createRuntime = vi.mocked(runtime.createRuntime);

const probe = httpApiV2Event({
  method: 'POST',
  path: '/v1/tools/dbapp/listWorkspaces',
  headers: { Authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'Content-Type': 'application/json' },
  body: '{}',
});
const answer = async (handler: ReturnType<typeof lambdaHandler>) => (await handler(probe, lambdaContext())) as APIGatewayProxyStructuredResultV2;
const options = () => ({ fetchFor: { dbapp: createTapeTwin().fetch }, store: new MemoryStore(), config: loadConfig({}) });

describe('lambdaHandler: the runtime starts in the init phase', () => {
  beforeEach(() => {
    createRuntime.mockClear();
  });

  it('starts the runtime when the handler is created; invocations reuse it', async () => {
    const handler = lambdaHandler(dbapp, options());
    // No invocation yet: the start is already under way (module load = Lambda's init phase).
    expect(createRuntime).toHaveBeenCalledTimes(1);
    expect((await answer(handler)).statusCode).toBe(200);
    expect((await answer(handler)).statusCode).toBe(200);
    expect(createRuntime).toHaveBeenCalledTimes(1);
  });

  it('a start that failed before the first invocation is retried by it, and answers', async () => {
    createRuntime.mockRejectedValueOnce(new Error('store unreachable'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = lambdaHandler(dbapp, options());
    await vi.waitFor(() => expect(errors).toHaveBeenCalled());
    errors.mockRestore();
    expect((await answer(handler)).statusCode).toBe(200);
    expect(createRuntime).toHaveBeenCalledTimes(2);
  });

  it('an invocation waiting on a start that fails fails, and the next invocation starts again', async () => {
    let fail!: (err: Error) => void;
    createRuntime.mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handler = lambdaHandler(dbapp, options());
    const first = answer(handler);
    fail(new Error('store unreachable'));
    await expect(first).rejects.toThrow('store unreachable');
    errors.mockRestore();
    expect((await answer(handler)).statusCode).toBe(200);
    expect(createRuntime).toHaveBeenCalledTimes(2);
  });
});

describe('lambdaHandler: the idle turn after the first answer', () => {
  it('warms the MCP route with the tools/list a host sends first, its bearer no key: nothing is stored, logged or sent to the vendor', async () => {
    const store = new MemoryStore();
    const ops: string[] = [];
    for (const op of ['get', 'put', 'add', 'delete', 'increment'] as const) {
      const real = store[op].bind(store) as (...args: unknown[]) => unknown;
      (store as unknown as Record<string, unknown>)[op] = (...args: unknown[]) => (ops.push(op), real(...args));
    }
    const twin = createTapeTwin().fetch;
    const vendor = vi.fn(twin);
    const handler = lambdaHandler(dbapp, { fetchFor: { dbapp: vendor as typeof fetch }, store, config: loadConfig({}) });
    expect((await answer(handler)).statusCode).toBe(200);
    const [opsAfter, vendorAfter] = [ops.length, vendor.mock.calls.length];
    const logs = vi.spyOn(console, 'log');
    const errors = vi.spyOn(console, 'error');
    // The warm-up resolves its bearer as the MCP route does for a host's list: it ran.
    const rt = await createRuntime.mock.results.at(-1)!.value;
    const resolve = vi.spyOn(rt.identity, 'resolve');
    // As from the address the first request came to: the list it makes carries that origin, as the next host's will.
    await vi.waitFor(() => expect(resolve).toHaveBeenCalledWith(expect.objectContaining({ resource: `https://${probe.requestContext.domainName}/v1/mcp/dbapp` })));
    // Let the list it asked for finish (built from source here: no build-time documents).
    await new Promise((done) => setTimeout(done, 200));
    expect(ops.slice(opsAfter)).toEqual([]);
    expect(vendor.mock.calls.length).toBe(vendorAfter);
    expect(logs).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    logs.mockRestore();
    errors.mockRestore();
  });
});

/** A stand-in for DynamoDB's HTTP API that records each operation (x-amz-target) and answers plausibly. */
function fakeDynamoDb() {
  const operations: string[] = [];
  let seen: (() => void) | undefined;
  const server: Server = createServer((req: IncomingMessage, res) => {
    req.resume();
    req.on('end', () => {
      const op = String(req.headers['x-amz-target'] ?? '').replace('DynamoDB_20120810.', '');
      operations.push(op);
      seen?.();
      res.setHeader('content-type', 'application/x-amz-json-1.0');
      res.end(op === 'UpdateItem' ? JSON.stringify({ Attributes: { n: { N: '1' } } }) : '{}');
    });
  });
  return {
    operations,
    server,
    /** Resolves once the next request has arrived. */
    next: () => new Promise<void>((resolve) => (seen = resolve)),
  };
}

describe('lambdaHandler with the DynamoDB store: the connection opens at init', () => {
  const ddb = fakeDynamoDb();
  const saved: Record<string, string | undefined> = {};
  let endpoint = '';

  beforeAll(async () => {
    for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE']) saved[k] = process.env[k];
    process.env.AWS_ACCESS_KEY_ID = 'local';
    process.env.AWS_SECRET_ACCESS_KEY = 'local';
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    await new Promise<void>((resolve) => ddb.server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(ddb.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await new Promise<void>((resolve) => ddb.server.close(() => resolve()));
  });

  it('sends one harmless read before any invocation; the first call then only counts', async () => {
    const arrived = ddb.next();
    const config = loadConfig({ STORE: 'dynamodb', TABLE_NAME: 'tes-test', DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'us-east-1' });
    const handler = lambdaHandler(dbapp, { fetchFor: { dbapp: createTapeTwin().fetch }, config });
    await arrived;
    expect(ddb.operations).toEqual(['GetItem']);
    expect((await answer(handler)).statusCode).toBe(200);
    // The call's own store work: the rate-limit counter's ticket and slot, then its audit record's
    // number in the day's sequence and the record (shared/core/audit.ts); no second warm-up.
    expect(ddb.operations).toEqual(['GetItem', 'UpdateItem', 'PutItem', 'UpdateItem', 'PutItem']);
  });
});
