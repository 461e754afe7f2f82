/**
 * The worker of an MCP task in AWS Lambda. The invocation that takes a task-augmented tools/call
 * keeps the call in the Store (its parameters, and the caller's bearer sealed by the identity
 * vault, shared/identity/vault.ts), then invokes its own function asynchronously (Lambda Invoke,
 * InvocationType "Event": https://docs.aws.amazon.com/lambda/latest/api/API_Invoke.html) with only
 * the task's id and owner, and answers the task at once. The worker invocation (shared/lambda/handler.ts)
 * takes the task once, opens the credential, runs the call and keeps its end: it runs with the
 * function's own timeout, not API Gateway's 30 s nor the host's. A task of the Tasks extension that
 * asks a person (shared/mcp/person.ts) waits in input_required with no invocation running; the
 * tasks/update that answers it starts the next worker invocation, which resumes with the answers
 * McpTasks kept.
 */
import type { Context } from 'aws-lambda';
import { identityOf } from '../identity';
import type { Sealed, SealContext } from '../identity/vault';
import { log } from '../core/log';
import type { Runtime } from '../core/runtime';
import { catalog, type CatalogEntry } from '../catalog/catalog';
import { callTool, type CallMeta, type ToolCaller } from './call';
import type { ClientCapabilities } from './revision';
import type { InputRound } from './input';
import { callAskingPerson } from './person';
import { McpTasks, type TaskRef } from './tasks';
import { RpcError } from './rpc';
import { INVALID_PARAMS } from './revision';

/** The event a worker invocation receives: which task, nothing else. */
export interface TaskEvent {
  tes_task: TaskRef;
}

/** What the Store keeps for the worker of one task. */
interface TaskJob {
  platform: string;
  tool: string;
  args: Record<string, unknown>;
  meta: CallMeta;
  caller: Omit<ToolCaller, 'key' | 'caller' | 'deadline' | 'requestId' | 'refused'>;
  /** The caller's bearer (service key, access token or vendor key), sealed to this task. */
  key: Sealed;
  /** A 2026-07-28 client's task: what the client can answer, so a person is asked through the task. */
  asks?: { capabilities: ClientCapabilities };
}

const isRef = (v: unknown): v is TaskRef => {
  const r = v as Partial<TaskRef> | null;
  return typeof r === 'object' && r !== null && typeof r.id === 'string' && r.id.length <= 100 && typeof r.owner === 'string' && r.owner.length <= 200;
};

/** The vault context of a task's sealed key: it opens for this owner's task only. */
const sealContext = (ref: TaskRef): SealContext => ({ tenant: `mcptask#${ref.owner}`, connection: ref.id });

/** The job of one call, with its key sealed to the task; `capabilities` for a 2026-07-28 client's task. */
export async function taskJob(rt: Runtime, ref: TaskRef, entry: CatalogEntry, caller: ToolCaller, args: Record<string, unknown>, meta: CallMeta, capabilities?: ClientCapabilities): Promise<TaskJob> {
  const vault = await (await identityOf(rt)).vault();
  const { key, caller: _c, deadline: _d, requestId: _r, refused: _f, ...rest } = caller;
  return { platform: entry.platform, tool: entry.name, args, meta, caller: rest, key: await vault.seal(key, sealContext(ref)), ...(capabilities ? { asks: { capabilities } } : {}) };
}

type Invoker = { send(cmd: unknown): Promise<{ StatusCode?: number }>; Command: new (input: unknown) => unknown };
let lambda: Promise<Invoker> | undefined;

/**
 * Starts the worker of a task: an asynchronous invocation of `functionName` (this function) with
 * the task's reference only. The SDK client loads on the first task of a container; it signs with
 * the function's role and honours AWS_ENDPOINT_URL_LAMBDA.
 */
export async function invokeWorker(functionName: string, ref: TaskRef): Promise<void> {
  const c = await (lambda ??= import('@aws-sdk/client-lambda').then((m) => {
    const client = new m.LambdaClient({});
    return { send: (cmd: unknown) => client.send(cmd as never) as Promise<{ StatusCode?: number }>, Command: m.InvokeCommand as never };
  })).catch((err: unknown) => {
    lambda = undefined;
    throw err;
  });
  const event: TaskEvent = { tes_task: ref };
  const out = await c.send(new c.Command({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify(event)) }));
  if (out.StatusCode !== 202) throw new Error(`Lambda answered ${String(out.StatusCode)} to the asynchronous invocation`);
}

/**
 * A worker invocation: takes the task (only while it is working, only once), runs its call until
 * the invocation's deadline and keeps the end. A task cancelled before the worker started is not
 * run. Answers what it did, for the invocation's log; never the call's data.
 */
export async function runTaskEvent(rt: Runtime, event: TaskEvent, context: Context): Promise<{ task: string; ran: boolean }> {
  const ref = event.tes_task;
  if (!isRef(ref)) {
    log('error', 'mcp task event malformed', {});
    return { task: '', ran: false };
  }
  const tasks = new McpTasks(rt.store, ref.owner);
  const deadline = Date.now() + context.getRemainingTimeInMillis();
  const claimed = await tasks.claim(ref.id, deadline);
  if (!claimed) {
    log('info', 'mcp task not run: cancelled, ended, expired or taken by another worker', { task: ref.id });
    return { task: ref.id, ran: false };
  }
  const job = claimed.job as TaskJob;
  await tasks.execute(
    claimed.task,
    async (round?: InputRound) => {
      const entry = (await catalog(rt.registry)).find((e) => e.platform === job.platform && e.name === job.tool);
      if (!entry) throw new RpcError(INVALID_PARAMS, `Tool "${job.tool}" of "${job.platform}" is not served by this function any more; list the tools with tools/list.`);
      const vault = await (await identityOf(rt)).vault();
      const key = await vault.open(job.key, sealContext(ref));
      // This invocation is the call's edge now: the caller is resolved here, once, from the opened key.
      const caller = rt.identity.resolve({ key, resource: job.caller.resource });
      const callerNow = { ...job.caller, key, caller, deadline, requestId: context.awsRequestId };
      if (job.asks) return callAskingPerson(rt, entry, callerNow, job.args, job.meta, round ?? { responses: {}, state: undefined, capabilities: job.asks.capabilities }, true);
      return (await callTool(rt, entry, callerNow, job.args, job.meta)).result;
    },
    claimed.round,
  );
  return { task: ref.id, ran: true };
}
