import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dbapp } from '../../functions/dbapp';
import type { Twin } from '../../infra/twins/kit';
import { lambdaHandler } from '../../shared/lambda/handler';
import { tasksSettled } from '../../shared/mcp/tasks';
import type { localServer } from '../identity/helpers';
import { heldWritesServer } from '../approvals/helpers';
import { lambdaContext, viaLambda } from '../../infra/lambda-events';

const ADMIN = 'adm_test_credential';
const TASKS = 'io.modelcontextprotocol/tasks';
const DEALS = 902;

/**
 * A held write (`approval: writes`) that runs as a task of the Tasks extension asks its approval
 * through the task: the task moves to input_required with the form elicitation of the dry-run
 * preview, and tasks/update carries the person's answer. Raw JSON-RPC over HTTP against the local
 * server: the official 2.x client sends tasks/get but has no API for a task's inputRequests or
 * tasks/update. The twin counts what reached the vendor.
 */
describe('approval asked inside a task (Tasks extension, MCP 2026-07-28)', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let twin: Twin;
  let key: string;
  let connection: string;
  const twinWrites = () => twin.requests.entries.filter((e) => e.method !== 'GET').length;
  const inputs = (tag: string) => [1, 2].map((i) => ({ fields: { deal_name: `${tag} ${i}`, stage: ['Discovery'], amount: i } }));

  beforeAll(async () => {
    ({ s, twin, key, connection } = await heldWritesServer('acme-task-approval', 'user-t'));
  });
  afterAll(async () => {
    await tasksSettled();
    vi.unstubAllEnvs();
    await s.close();
  });

  /** One JSON-RPC request of a 2026-07-28 client that declared the Tasks extension (and form elicitation unless told). */
  async function rpc(method: string, params: Record<string, unknown>, name: string, elicitation: object | null = { form: {} }) {
    const capabilities = { extensions: { [TASKS]: {} }, ...(elicitation ? { elicitation } : {}) };
    const res = await fetch(`${s.base}/v1/mcp/dbapp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities } } }),
    });
    const body = (await res.json()) as any;
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    return body.result;
  }
  /** A held batch as a task, settled in input_required: its id and what tasks/get shows. */
  async function heldTask(tag: string) {
    const created = await rpc('tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs(tag) } }, 'batchCreateRecords');
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    await tasksSettled();
    const polled = await rpc('tasks/get', { taskId: created.taskId }, created.taskId);
    return { taskId: created.taskId as string, polled };
  }
  const get = (taskId: string) => rpc('tasks/get', { taskId }, taskId);
  const update = (taskId: string, inputResponses: Record<string, unknown>) => rpc('tasks/update', { taskId, inputResponses }, taskId);
  const approval = async (id: string) => (await s.api('GET', `/v1/admin/approvals/${id}`, { key: ADMIN })).body.data;
  const newestApproval = async () => (await s.api('GET', '/v1/admin/approvals?tenant=acme-task-approval&limit=1', { key: ADMIN })).body.data.approvals[0];
  const created = (tag: string) => [...(twin as any).state.records.values()].filter((r: unknown) => JSON.stringify(r).includes(`"${tag} `)).length;

  it('accept: the task waits in input_required with the preview, nothing reaches the vendor; after tasks/update the write runs exactly once', async () => {
    const before = twinWrites();
    const { taskId, polled } = await heldTask('Task approved');
    expect(polled).toMatchObject({ status: 'input_required', inputRequests: { approval: { method: 'elicitation/create', params: { mode: 'form', requestedSchema: { type: 'object', properties: {} } } } } });
    const message = polled.inputRequests.approval.params.message as string;
    expect(message).toMatch(/^Approve this write\? dbapp\/batchCreateRecords/);
    expect(message).toContain('Task approved 1');
    expect(twinWrites() - before).toBe(0);
    const pending = await newestApproval();
    expect(pending).toMatchObject({ status: 'pending', tool: 'batchCreateRecords' });

    // Polled again before the answer: the same request, still nothing sent.
    expect((await get(taskId)).inputRequests).toEqual(polled.inputRequests);
    // An answer under an unknown key is ignored: the task still waits.
    expect(await update(taskId, { other: { action: 'accept', content: {} } })).toMatchObject({ resultType: 'complete' });
    expect(await get(taskId)).toMatchObject({ status: 'input_required' });
    expect(twinWrites() - before).toBe(0);

    expect(await update(taskId, { approval: { action: 'accept', content: {} } })).toMatchObject({ resultType: 'complete' });
    await tasksSettled();
    const done = await get(taskId);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text' }] } });
    expect(done.result.isError).toBeFalsy();
    expect(created('Task approved')).toBe(2);
    expect(twinWrites() - before).toBe(1);
    expect(await approval(pending.id)).toMatchObject({ status: 'executed', decided_by: 'elicitation' });

    // The same answer again: the task has ended, nothing more runs.
    await update(taskId, { approval: { action: 'accept', content: {} } });
    await tasksSettled();
    expect(twinWrites() - before).toBe(1);
    expect(created('Task approved')).toBe(2);
  });

  it('decline and cancel: the approval is rejected, the task ends cancelled saying why, nothing reaches the vendor', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const tag = `Task ${action}d`;
      const before = twinWrites();
      const { taskId, polled } = await heldTask(tag);
      expect(polled.status).toBe('input_required');
      const pending = await newestApproval();
      await update(taskId, { approval: { action } });
      await tasksSettled();
      const ended = await get(taskId);
      expect(ended).toMatchObject({ status: 'cancelled', statusMessage: expect.stringContaining(action === 'decline' ? 'declined' : 'cancelled') });
      expect(ended.statusMessage).toContain('nothing was sent to the vendor');
      expect(ended.result).toBeUndefined();
      expect(await approval(pending.id)).toMatchObject({ status: 'rejected', decided_by: 'elicitation' });
      // An accept sent after the decline changes nothing.
      await update(taskId, { approval: { action: 'accept', content: {} } });
      await tasksSettled();
      expect((await get(taskId)).status).toBe('cancelled');
      expect(twinWrites() - before).toBe(0);
      expect(created(tag)).toBe(0);
    }
  });

  it('tasks/cancel while the task waits: it ends cancelled and nothing runs', async () => {
    const before = twinWrites();
    const { taskId } = await heldTask('Task withdrawn');
    await rpc('tasks/cancel', { taskId }, taskId);
    expect((await get(taskId)).status).toBe('cancelled');
    await update(taskId, { approval: { action: 'accept', content: {} } });
    await tasksSettled();
    expect((await get(taskId)).status).toBe('cancelled');
    expect(twinWrites() - before).toBe(0);
  });

  it('a client that declared no form elicitation keeps today\'s answer: the task completes with approval_required and the link', async () => {
    const before = twinWrites();
    const made = await rpc('tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs('Task link') } }, 'batchCreateRecords', null);
    await tasksSettled();
    const done = await rpc('tasks/get', { taskId: made.taskId }, made.taskId, null);
    expect(done).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(JSON.parse(done.result.content[0].text).error.details).toMatchObject({ reason: 'approval_required', approval_url: expect.stringContaining('/v1/approve/') });
    expect(twinWrites() - before).toBe(0);
  });

  it('the admin listing shows each task\'s tool, never its arguments', async () => {
    const tasks = (await s.api('GET', '/v1/admin/tasks?tenant=acme-task-approval', { key: ADMIN })).body.data.tasks;
    expect(tasks.length).toBeGreaterThanOrEqual(5);
    for (const t of tasks) expect(t).toMatchObject({ platform: 'dbapp', tool: 'batchCreateRecords' });
    expect(tasks.map((t: any) => t.status)).toEqual(expect.arrayContaining(['completed', 'cancelled']));
    expect(JSON.stringify(tasks)).not.toMatch(/Task approved|Task declined|inputs/);
  });
});

/**
 * The same in AWS Lambda: the task runs in a worker invocation, which ends when the task asks; the
 * tasks/update that answers starts the next worker invocation, which resumes with the answer kept
 * in the Store. The Lambda Invoke API is a local HTTP server that records each asynchronous event;
 * the test delivers them to the handler as Lambda's event queue would. Key, connection and store are
 * the local server's (made through its admin API and connect page).
 */
describe('approval asked inside a task, in AWS Lambda (a worker invocation per round)', () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  let twin: Twin;
  let key: string;
  let connection: string;
  let invokeApi: Server;
  const events: string[] = [];
  let handler: ReturnType<typeof lambdaHandler>;
  const twinWrites = () => twin.requests.entries.filter((e) => e.method !== 'GET').length;

  beforeAll(async () => {
    invokeApi = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        events.push(body);
        res.writeHead(202);
        res.end();
      });
    });
    await new Promise<void>((r) => invokeApi.listen(0, '127.0.0.1', () => r()));
    ({ s, twin, key, connection } = await heldWritesServer('acme-lambda-approval', 'user-l'));
    for (const [k, v] of Object.entries({ AWS_LAMBDA_FUNCTION_NAME: 'tes-test-dbapp', AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'AKIDTASKAPPROVAL', AWS_SECRET_ACCESS_KEY: 'test-secret', AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(invokeApi.address() as AddressInfo).port}` })) vi.stubEnv(k, v);
    handler = lambdaHandler(dbapp, { store: s.rt.store, fetchFor: { dbapp: twin.fetch }, config: s.config });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await s.close();
    await new Promise<void>((r) => invokeApi.close(() => r()));
  });

  async function rpc(method: string, params: Record<string, unknown>, name: string) {
    const res = await viaLambda(handler as never)('https://a1b2c3d4e5.execute-api.eu-central-1.amazonaws.com/v1/mcp/dbapp', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-connection-id': connection, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} }, elicitation: { form: {} } } } } }),
    });
    const body = (await res.json()) as any;
    expect(body.error, JSON.stringify(body)).toBeUndefined();
    return body.result;
  }
  /** Lambda delivers the next recorded asynchronous event: a fresh worker invocation. */
  const deliver = async () => {
    const event = events.shift();
    expect(event, 'an asynchronous invocation').toBeDefined();
    return (await handler(JSON.parse(event!), lambdaContext(900_000))) as { task: string; ran: boolean };
  };

  it('accept runs the write once, in the worker the answer started; decline ends the task cancelled and sends nothing', async () => {
    const inputs = (tag: string) => [{ fields: { deal_name: `${tag} 1`, stage: ['Discovery'], amount: 1 } }];
    const before = twinWrites();
    const made = await rpc('tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs('Lambda approved') } }, 'batchCreateRecords');
    expect(made).toMatchObject({ resultType: 'task', status: 'working' });
    expect(await deliver()).toEqual({ task: made.taskId, ran: true });
    const waiting = await rpc('tasks/get', { taskId: made.taskId }, made.taskId);
    expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { approval: { method: 'elicitation/create', params: { mode: 'form' } } } });
    expect(twinWrites() - before).toBe(0);
    expect(events).toHaveLength(0);
    await rpc('tasks/update', { taskId: made.taskId, inputResponses: { approval: { action: 'accept', content: {} } } }, made.taskId);
    expect(twinWrites() - before).toBe(0);
    expect(await deliver()).toEqual({ task: made.taskId, ran: true });
    expect(await rpc('tasks/get', { taskId: made.taskId }, made.taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: expect.stringMatching(/^created 1 of 1 records/) }] } });
    expect(twinWrites() - before).toBe(1);

    const declined = await rpc('tools/call', { name: 'batchCreateRecords', arguments: { app_id: DEALS, inputs: inputs('Lambda declined') } }, 'batchCreateRecords');
    await deliver();
    await rpc('tasks/update', { taskId: declined.taskId, inputResponses: { approval: { action: 'decline' } } }, declined.taskId);
    expect(await deliver()).toEqual({ task: declined.taskId, ran: true });
    expect(await rpc('tasks/get', { taskId: declined.taskId }, declined.taskId)).toMatchObject({ status: 'cancelled', statusMessage: expect.stringContaining('declined') });
    expect(twinWrites() - before).toBe(1);
    const listed = (await s.api('GET', '/v1/admin/tasks?tenant=acme-lambda-approval', { key: ADMIN })).body.data.tasks;
    expect(listed.map((t: any) => `${t.tool} ${t.status}`).sort()).toEqual(['batchCreateRecords cancelled', 'batchCreateRecords completed']);
  });
});
