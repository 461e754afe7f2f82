import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SANDBOX_KEYS, createTapeTwin, type TapeTwin } from '../../infra/twins/tape';
import { dbapp } from '../../functions/dbapp';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { lambdaContext, viaLambda } from '../../infra/lambda-events';
import { resultText } from '../helpers/mcp-client';

/**
 * MCP tasks in AWS Lambda: the invocation that takes a task answers at once and invokes its own
 * function asynchronously; the worker invocation runs the call. The Lambda Invoke API is a real
 * HTTP server here (the SDK finds it through AWS_ENDPOINT_URL_LAMBDA): it checks what AWS checks
 * of the request's form (InvocationType Event, a SigV4 signature), answers 202, and delivers the
 * event to the same handler when the test says so, as Lambda's queue of asynchronous events would.
 */
const FUNCTION = 'tool-execution-service-test-dbapp';
const DEALS = 902;
const inputs = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ fields: { deal_name: `${tag} ${i}`, stage: ['Discovery'], amount: i } }));

interface Invocation {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let lambdaApi: Server;
const invocations: Invocation[] = [];
/** What the fake Invoke API answers: accepted (202), or refused as AWS refuses a role without lambda:InvokeFunction. */
let refuse = false;
const saved: Record<string, string | undefined> = {};
const ENV = {
  AWS_LAMBDA_FUNCTION_NAME: FUNCTION,
  AWS_REGION: 'eu-central-1',
  AWS_ACCESS_KEY_ID: 'AKIDTASKWORKERTEST',
  AWS_SECRET_ACCESS_KEY: 'test-secret-access-key',
  VAULT_KEY: randomBytes(32).toString('base64'),
};

beforeAll(async () => {
  lambdaApi = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      invocations.push({ path: req.url ?? '', headers: req.headers, body });
      if (refuse) {
        res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' });
        res.end(JSON.stringify({ Message: `User is not authorized to perform: lambda:InvokeFunction on resource: ${FUNCTION}` }));
        return;
      }
      res.writeHead(202, { 'x-amzn-requestid': 'req-1' });
      res.end();
    });
  });
  await new Promise<void>((r) => lambdaApi.listen(0, '127.0.0.1', () => r()));
  const env = { ...ENV, AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambdaApi.address() as AddressInfo).port}` };
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await new Promise<void>((r) => lambdaApi.close(() => r()));
});

const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  refuse = false;
  invocations.length = 0;
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A platform's function (/v1/mcp/dbapp), or the combined MCP function (/v1/mcp, tools named <platform>_<tool>). */
function setup(combined = false) {
  const tape: TapeTwin = createTapeTwin({ credits: 1e9 });
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let gated = false;
  let reached!: () => void;
  const atGate = new Promise<void>((r) => (reached = r));
  const fetchDbapp = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (gated && new URL(String(input)).pathname.startsWith('/v1/record/app/batch/')) {
      reached();
      await gate;
    }
    return tape.fetch(input, init);
  }) as typeof fetch;
  const store = new MemoryStore();
  const options = { fetchFor: { dbapp: fetchDbapp }, store, config: loadConfig({ RATE_LIMIT_MAX: '100000' }) };
  const handler = lambdaHandler(combined ? { name: 'mcp', platforms: [dbapp] } : dbapp, options);
  async function connect(key = SANDBOX_KEYS.owner): Promise<Client> {
    const client = new Client({ name: 'task-host', version: '1.0.0' }, { capabilities: { tasks: { list: {}, cancel: {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/v1/mcp${combined ? '' : '/dbapp'}`), { requestInit: { headers: { authorization: `Bearer ${key}` } }, fetch: viaLambda(handler as never) }));
    clients.push(client);
    return client;
  }
  /** Lambda delivers an accepted asynchronous event: the handler runs it as a fresh invocation. */
  const deliver = (i: Invocation, budgetMs = 900_000) => handler(JSON.parse(i.body), lambdaContext(budgetMs)) as Promise<{ task: string; ran: boolean }>;
  const records = (tag: string) => [...tape.state.records.values()].filter((r) => JSON.stringify(r).includes(`"${tag} `)).length;
  const createTask = (client: Client, n: number, tag: string) =>
    client.request({ method: 'tools/call', params: { name: combined ? 'dbapp_batchCreateRecords' : 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(n, tag) }, task: { ttl: 600_000 } } }, CreateTaskResultSchema).then((r) => r.task);
  /** One 2026-07-28 request through the function (the Tasks extension declared), as the raw JSON-RPC answer. */
  const modern = async (method: string, params: Record<string, unknown>, name: string) => {
    const res = await viaLambda(handler as never)(`https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/v1/mcp/dbapp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } }),
    });
    return ((await res.json()) as { result: Record<string, any> }).result;
  };
  return { store, connect, deliver, records, createTask, modern, hold: () => (gated = true), atGate, release: () => open() };
}

describe('MCP tasks in AWS Lambda: a worker invocation of the same function', () => {
  it('answers the task at once and invokes itself asynchronously, signed, with only the task\'s id and owner; the worker runs the batch once', async () => {
    const s = setup();
    const client = await s.connect();
    const task = await s.createTask(client, 120, 'Worked');
    expect(task.status).toBe('working');
    expect(invocations).toHaveLength(1);
    const [inv] = invocations;
    expect(inv!.path).toBe(`/2015-03-31/functions/${FUNCTION}/invocations`);
    expect(inv!.headers['x-amz-invocation-type']).toBe('Event');
    expect(inv!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTASKWORKERTEST\/\d{8}\/eu-central-1\/lambda\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/);
    const event = JSON.parse(inv!.body) as { tes_task: { id: string; owner: string } };
    expect(Object.keys(event)).toEqual(['tes_task']);
    expect(Object.keys(event.tes_task).sort()).toEqual(['id', 'owner']);
    expect(event.tes_task.id).toBe(task.taskId);
    // Neither the caller's key nor its parameters travel in the event; the Store holds the key sealed only.
    expect(inv!.body).not.toContain(SANDBOX_KEYS.owner);
    expect(inv!.body).not.toContain('Worked');
    expect(JSON.stringify([...(s.store as any).entries.entries()])).not.toContain(SANDBOX_KEYS.owner);
    // Nothing ran in the invocation that answered.
    expect(s.records('Worked')).toBe(0);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');

    expect(await s.deliver(inv!)).toEqual({ task: task.taskId, ran: true });
    expect(s.records('Worked')).toBe(120);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(resultText(result)).toMatch(/^created 120 of 120 records/);
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId });
    // Lambda may deliver an asynchronous event twice: the second delivery runs nothing.
    expect(await s.deliver(inv!)).toEqual({ task: task.taskId, ran: false });
    expect(s.records('Worked')).toBe(120);
  });

  it('a 2026-07-28 client\'s task (the Tasks extension) runs in the same worker, from the same store', async () => {
    const s = setup();
    const created = await s.modern('tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(5, 'Modern') } }, 'batchCreateRecords');
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(invocations).toHaveLength(1);
    expect(s.records('Modern')).toBe(0);
    expect(await s.deliver(invocations[0]!)).toEqual({ task: created.taskId, ran: true });
    expect(s.records('Modern')).toBe(5);
    const done = await s.modern('tasks/get', { taskId: created.taskId }, created.taskId);
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
    // The default endpoint answers with the compact text only (docs/mcp-output.md).
    expect(done.result.content[0].text).toMatch(/^created 5 of 5 records/);
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
  });

  it('the combined MCP function runs its own tasks\' workers too', async () => {
    const s = setup(true);
    const client = await s.connect();
    const task = await s.createTask(client, 4, 'Combined');
    expect(task.status).toBe('working');
    expect(invocations.map((i) => i.path)).toEqual([`/2015-03-31/functions/${FUNCTION}/invocations`]);
    expect(await s.deliver(invocations[0]!)).toEqual({ task: task.taskId, ran: true });
    expect(s.records('Combined')).toBe(4);
    expect((await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).isError).toBeFalsy();
  });

  it('a task cancelled before its worker starts is not run', async () => {
    const s = setup();
    const client = await s.connect();
    const task = await s.createTask(client, 3, 'Dropped');
    expect((await client.experimental.tasks.cancelTask(task.taskId)).status).toBe('cancelled');
    expect(await s.deliver(invocations[0]!)).toEqual({ task: task.taskId, ran: false });
    expect(s.records('Dropped')).toBe(0);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
  });

  it('a worker that cannot be invoked fails the task at once, saying why; nothing reaches the vendor', async () => {
    const s = setup();
    refuse = true;
    const client = await s.connect();
    const task = await s.createTask(client, 3, 'Unstarted');
    expect(task.status).toBe('failed');
    expect(task.statusMessage).toMatch(/could not be started: its worker was not invoked \(AccessDeniedException\).*run the call again/);
    const err = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).message).toMatch(/could not be started/);
    expect(s.records('Unstarted')).toBe(0);
  });

  it('a worker stopped by its function\'s timeout leaves no task "working" forever: past the worker\'s deadline it reads failed', async () => {
    const s = setup();
    s.hold();
    const client = await s.connect();
    const task = await s.createTask(client, 3, 'Stopped');
    // The worker takes the task and hangs on the vendor; its invocation ends in 60 s.
    const worker = s.deliver(invocations[0]!, 60_000);
    await s.atGate;
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const stopped = await client.experimental.tasks.getTask(task.taskId);
    expect(stopped.status).toBe('failed');
    expect(stopped.statusMessage).toMatch(/stopped before it finished: its worker ran out of time/);
    // The worker, had it run on, keeps no end over what the host was told.
    s.release();
    await worker;
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('failed');
  });
});
