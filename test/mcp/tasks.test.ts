import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tasksSettled } from '../../shared/mcp/tasks';
import type { Store } from '../../shared/store';
import type { Clock } from '../../shared/core/store';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { harness, SANDBOX_KEYS } from '../helpers/harness';
import { lambdaContext } from '../../infra/lambda-events';
import { resultText } from '../helpers/mcp-client';

/**
 * MCP tasks end to end with the official SDK client's experimental tasks API, against the app
 * in-process (the client's fetch is the app's). The vendor's batch endpoint is held by a gate the
 * test opens, so "working" is seen without timing anything. With each store: the memory store and
 * DynamoDB Local (what a deployment keeps task state in).
 */
const DEALS = 902;
const inputs = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ fields: { deal_name: `${tag} ${i}`, stage: ['Discovery'], amount: i } }));

let ddb: DynamoDbLocal | undefined;
const stores: { name: string; setup(): Promise<void>; make(now: Clock): Store }[] = [
  { name: 'memory', setup: async () => {}, make: (now) => new MemoryStore(now) },
  { name: 'DynamoDB Local', setup: async () => void (ddb ??= await startDynamoDbLocal({ table: 'mcp-tasks-test' })), make: (now) => new DynamoStore(ddb!.client, ddb!.table, now) },
];
afterAll(async () => {
  await ddb?.stop();
});
let makeStore: (now: Clock) => Store;

async function setup(opts: { lambda?: boolean } = {}) {
  let now = Date.now();
  const store = makeStore(() => now);
  const h = await harness({ store, env: { RATE_LIMIT_MAX: '100000' }, twin: { credits: 1e9 } });
  // The gate of the vendor's batch endpoint: open, or closed with requests let through one by one.
  let opened = false;
  let passes = 0;
  const waiting: (() => void)[] = [];
  const inner = h.rt.fetchFor!.dbapp!;
  h.rt.fetchFor!.dbapp = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (!opened && new URL(String(input)).pathname.startsWith('/v1/record/app/batch/')) {
      if (passes > 0) passes--;
      else await new Promise<void>((r) => waiting.push(r));
    }
    return inner(input, init);
  }) as typeof fetch;
  // Each progress the Store keeps, as it is written: the test waits on these, not on time.
  const progress: string[] = [];
  let progressed: () => void = () => undefined;
  const put = store.put.bind(store);
  store.put = async (key, value, ttl) => {
    await put(key, value, ttl);
    if (key.endsWith('#progress')) {
      progress.push(String(value));
      progressed();
    }
  };
  const nextProgress = () => new Promise<void>((r) => (progressed = r));
  const env = opts.lambda ? { lambdaContext: lambdaContext() } : undefined;
  const clients: Client[] = [];
  async function connect(key: string = SANDBOX_KEYS.owner, tasks = true): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/v1/mcp/dbapp'), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: ((url: string | URL, init?: RequestInit) => h.app.request(String(url), init, env)) as typeof fetch,
    });
    const client = new Client({ name: 'task-host', version: '1.0.0' }, tasks ? { capabilities: { tasks: { list: {}, cancel: {} } } } : {});
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  return {
    h,
    connect,
    clients,
    release: () => {
      opened = true;
      for (const go of waiting.splice(0)) go();
    },
    /** Lets one more batch request through the closed gate: one waiting, or the next to come. */
    pass: () => {
      const go = waiting.shift();
      if (go) go();
      else passes++;
    },
    progress,
    nextProgress,
    close: () => (opened = false),
    advance: (ms: number) => (now += ms),
  };
}

/** Records of the twin whose name starts with `tag`: what the vendor holds, whatever the service says. */
const records = (s: Awaited<ReturnType<typeof setup>>, tag: string) => [...s.h.tape.state.records.values()].filter((r) => JSON.stringify(r).includes(`"${tag} `)).length;

let current: Awaited<ReturnType<typeof setup>> | undefined;
afterEach(async () => {
  vi.useRealTimers();
  current?.release();
  await tasksSettled();
  await Promise.all(current?.clients.map((c) => c.close()) ?? []);
  current = undefined;
});

describe.each(stores)('MCP tasks (experimental, 2025-11-25), $name store', (kind) => {
  beforeAll(async () => {
    await kind.setup();
    makeStore = kind.make;
  }, 120_000);

  it('offers tasks to a host that announces them, and marks only long tools; a host that does not sees today\'s answers', async () => {
    const s = (current = await setup());
    const withTasks = await s.connect();
    expect(withTasks.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await withTasks.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support.batchCreateRecords).toBe('optional');
    expect(support.batchUpdateRecords).toBe('optional');
    expect(support.getWorkspace).toBeUndefined();
    expect(support.createRecord).toBeUndefined();
    const plain = await s.connect(SANDBOX_KEYS.owner, false);
    expect(plain.getServerCapabilities()?.tasks).toBeUndefined();
    // Without a task, a long tool answers as it always did.
    s.release();
    const direct = await plain.callTool({ name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(3, 'Direct') } });
    expect(direct.isError).toBeFalsy();
    expect(records(s, 'Direct')).toBe(3);
  });

  it('a batch as a task: created at once ("working"), polled with tasks/get, its result fetched with tasks/result, listed with tasks/list', async () => {
    const s = (current = await setup());
    const client = await s.connect();
    await client.listTools();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(120, 'Tasked') }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000 });
    // The vendor has not answered yet: the task is still working, nothing is written.
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('working');
    expect(records(s, 'Tasked')).toBe(0);
    s.release();
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toMatch(/^created 120 of 120 records/);
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe('completed');
    expect(records(s, 'Tasked')).toBe(120);
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);
  });

  it('the SDK\'s callToolStream runs a long tool as a task by itself and yields its result', async () => {
    const s = (current = await setup());
    s.release();
    const client = await s.connect();
    await client.listTools();
    const seen: string[] = [];
    let final: unknown;
    for await (const m of client.experimental.tasks.callToolStream({ name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(5, 'Streamed') } }, CallToolResultSchema, { task: { ttl: 60_000, pollInterval: 100 } as never })) {
      seen.push(m.type);
      if (m.type === 'result') final = m.result;
      if (m.type === 'error') throw m.error;
    }
    expect(seen[0]).toBe('taskCreated');
    expect(seen.at(-1)).toBe('result');
    expect(resultText(final)).toMatch(/^created 5 of 5 records/);
  });

  it('a batch task reports its progress as statusMessage, one Store write per chunk, visible through tasks/get', async () => {
    const s = (current = await setup());
    const client = await s.connect();
    // 260 records: six chunks of 50 (the last 10), four in flight at once (dbapp's parallelism).
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(260, 'Progress') }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect((await client.experimental.tasks.getTask(task.taskId)).statusMessage).toBeUndefined();
    const first = s.nextProgress();
    s.pass();
    await first;
    const seen = await client.experimental.tasks.getTask(task.taskId);
    expect(seen.status).toBe('working');
    expect(seen.statusMessage).toBe('chunk 1 of 6: 50 of 260 items done');
    const second = s.nextProgress();
    s.pass();
    await second;
    expect((await client.experimental.tasks.getTask(task.taskId)).statusMessage).toBe('chunk 2 of 6: 100 of 260 items done');
    expect((await client.experimental.tasks.listTasks()).tasks.find((t) => t.taskId === task.taskId)?.statusMessage).toBe('chunk 2 of 6: 100 of 260 items done');
    s.release();
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(resultText(result)).toMatch(/^created 260 of 260 records/);
    // One write per chunk, in order; the ended task says nothing of progress.
    expect(s.progress).toEqual([1, 2, 3, 4, 5, 6].map((c) => `chunk ${c} of 6: ${Math.min(260, c * 50)} of 260 items done`));
    const done = await client.experimental.tasks.getTask(task.taskId);
    expect(done.status).toBe('completed');
    expect(done.statusMessage).toBeUndefined();
  });

  it('a task still working once its ttl has passed reads failed, saying so, for one poll interval; then it is gone', async () => {
    const s = (current = await setup());
    const client = await s.connect();
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(2, 'Overdue') }, task: { ttl: 5_000, pollInterval: 2_000 } } },
      CreateTaskResultSchema,
    );
    const start = Date.parse(task.createdAt);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start + 5_500);
    const overdue = await client.experimental.tasks.getTask(task.taskId);
    expect(overdue.status).toBe('failed');
    expect(overdue.statusMessage).toMatch(/did not finish within its ttl \(5000 ms\)/);
    const err = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e);
    expect((err as McpError).message).toMatch(/did not finish within its ttl/);
    vi.setSystemTime(start + 7_500);
    const gone = await client.experimental.tasks.getTask(task.taskId).catch((e: unknown) => e);
    expect((gone as McpError).message).toMatch(/not found/);
  });

  it('cancel: the task reads "cancelled", its result is not kept when the work ends, and a second cancel is refused', async () => {
    const s = (current = await setup());
    const client = await s.connect();
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(2, 'Cancelled') }, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe('cancelled');
    s.release();
    await tasksSettled();
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    const noResult = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e);
    expect(noResult).toBeInstanceOf(McpError);
    expect((noResult as McpError).message).toMatch(/was cancelled/);
    const again = await client.experimental.tasks.cancelTask(task.taskId).catch((e: unknown) => e);
    expect((again as McpError).code).toBe(-32602);
    expect((again as McpError).message).toMatch(/terminal status: cancelled/);
  });

  it('another key never sees a task: not by id, not in its list, and cannot cancel it', async () => {
    const s = (current = await setup());
    s.release();
    const owner = await s.connect();
    const { task } = await owner.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(1, 'Mine') } , task: {} } },
      CreateTaskResultSchema,
    );
    const other = await s.connect('another-callers-key');
    for (const attempt of [() => other.experimental.tasks.getTask(task.taskId), () => other.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema), () => other.experimental.tasks.cancelTask(task.taskId)]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(-32602);
      expect((err as McpError).message).toMatch(/not found/);
    }
    expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    expect((await owner.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).isError).toBeFalsy();
  });

  it('a task and its result are gone once its ttl has passed', async () => {
    const s = (current = await setup());
    s.release();
    const client = await s.connect();
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(1, 'Expiring') }, task: { ttl: 5_000 } } },
      CreateTaskResultSchema,
    );
    await tasksSettled();
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
    s.advance(6_000);
    const err = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toMatch(/ttl has passed/);
    expect((await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(task.taskId);
  });

  it('in a Lambda invocation with no function to invoke (AWS_LAMBDA_FUNCTION_NAME unset) the work ends before the answer: the task comes back completed, its result kept for any instance', async () => {
    const s = (current = await setup({ lambda: true }));
    s.release();
    const client = await s.connect();
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(2, 'Lambda') }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(task.status).toBe('completed');
    expect((await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).isError).toBeFalsy();
  });

  it('a task on a tool that does not run as one is refused (-32601), and a malformed task or taskId is -32602 with a sentence', async () => {
    const s = (current = await setup());
    const client = await s.connect();
    const err = await client.request({ method: 'tools/call', params: { name: 'getWorkspace', arguments: { workspace_id: 1 }, task: {} } }, CreateTaskResultSchema).catch((e: unknown) => e);
    expect((err as McpError).code).toBe(-32601);
    expect((err as McpError).message).toMatch(/does not run as a task/);
    const bad = await client.request({ method: 'tools/call', params: { name: 'batchCreateRecords', arguments: {}, task: 'soon' } }, CreateTaskResultSchema).catch((e: unknown) => e);
    expect((bad as McpError).code).toBe(-32602);
    expect((bad as McpError).message).toMatch(/"params.task" must be an object/);
    const noId = await client.request({ method: 'tasks/get', params: {} } as never, CreateTaskResultSchema).catch((e: unknown) => e);
    expect((noId as McpError).code).toBe(-32602);
    expect((noId as McpError).message).toMatch(/"params.taskId"/);
  });
});

describe('MCP Tasks extension (2026-07-28): the same store and worker', () => {
  beforeAll(() => {
    makeStore = stores[0]!.make;
  });
  const meta = (extensions: boolean) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': extensions ? { extensions: { 'io.modelcontextprotocol/tasks': {} } } : {},
  });
  async function rpc(s: Awaited<ReturnType<typeof setup>>, method: string, params: Record<string, unknown>, name?: string, extensions = true) {
    const res = await s.h.app.request('/v1/mcp/dbapp', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta(extensions) } }),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('a batch becomes a task the server decides on; tasks/get shows each chunk, then the result inline; a client without the extension gets the result directly', async () => {
    const s = (current = await setup());
    const created = await rpc(s, 'tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(120, 'Modern') } }, 'batchCreateRecords');
    expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: expect.any(Number), pollIntervalMs: expect.any(Number) });
    const { taskId } = created.body.result;
    const first = s.nextProgress();
    s.pass();
    await first;
    const polled = await rpc(s, 'tasks/get', { taskId }, taskId);
    expect(polled.body.result).toMatchObject({ resultType: 'complete', taskId, status: 'working', statusMessage: expect.stringMatching(/^chunk 1 of \d+: 50 of 120 items done$/) });
    s.release();
    await tasksSettled();
    const done = await rpc(s, 'tasks/get', { taskId }, taskId);
    expect(done.body.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text' }] } });
    expect(records(s, 'Modern')).toBe(120);
    expect((await rpc(s, 'tasks/cancel', { taskId }, taskId)).body.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    // Without the extension: no task, and the task methods are refused (-32021, HTTP 400).
    const direct = await rpc(s, 'tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(2, 'Plain') } }, 'batchCreateRecords', false);
    expect(direct.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });
    const refused = await rpc(s, 'tasks/get', { taskId }, taskId, false);
    expect(refused).toMatchObject({ status: 400, body: { id: 1, error: { code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } } } });
    expect((await rpc(s, 'tasks/list', {})).status).toBe(404);
  });
});
