/**
 * MCP tasks for long tools, one store for both eras: the experimental tasks of revision 2025-11-25
 * (a task-augmented tools/call answers a task at once; tasks/get, tasks/result, tasks/list and
 * tasks/cancel: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks)
 * and the Tasks extension of 2026-07-28 (the server makes the task; tasks/get, tasks/update,
 * tasks/cancel: docs/mcp.md#tasks). State is kept in the Store, so any instance of the function
 * can answer.
 *
 * State is scoped to the task's owner (Caller.owner, resolved in shared/identity/index.ts: a sign-in's grant,
 * or the hash of the bearer key), so a task id learnt by another caller finds nothing, and a host
 * whose access token rotates on refresh still finds its tasks. Where the work runs: locally in the
 * background of the process that took the call; in a Lambda function in a worker invocation of the
 * same function (shared/mcp/task-worker.ts), so neither the function's timeout nor API
 * Gateway's 30 s cuts it. A batch's progress is kept beside the task as its statusMessage.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { batchProgress, type BatchProgress } from '../core/batch';
import { log } from '../core/log';
import type { CatalogEntry } from '../catalog/catalog';
import type { Store } from '../store';
import { InputRequired, type InputRequest, type InputRound } from './input';
import { RpcError } from './rpc';
import { INVALID_PARAMS } from './revision';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The task as the protocol shows it. */
export interface McpTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Milliseconds from creation the task and its result are kept. */
  ttl: number;
  pollInterval: number;
}

/** A JSON-RPC error as the protocol answers it. */
export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** Which tool a task runs: kept beside its status from its creation, for the admin listing (never its arguments or result). */
export interface TaskCall {
  platform: string;
  tool: string;
}

/**
 * What a task waits for (status input_required, Tasks extension): the requests by the keys the
 * client answers, what it answered so far, the work's state, and the work's own key of each
 * request where the task's key differs (a key is never reused within a task: see `park`).
 */
export interface TaskInput {
  requests: Record<string, InputRequest>;
  responses: Record<string, unknown>;
  state?: unknown;
  workKeys?: Record<string, string>;
}

/** What the Store keeps per task: the task and its tool, once terminal its result or its JSON-RPC error, while it waits its input requests. */
export interface Kept {
  task: McpTask;
  call?: TaskCall;
  result?: CallToolResult;
  error?: RpcErrorBody;
  input?: TaskInput;
  /** Every inputRequests key this task asked so far. */
  asked?: string[];
}

/**
 * Thrown by a task's work to end its task `cancelled` with `reason` (its statusMessage): the
 * person the task asked withdrew the request (a declined approval). Not `failed`: the Tasks
 * extension keeps that status for JSON-RPC errors.
 */
export class TaskWithdrawn extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** A task as the admin API lists it: its status and tool, never its arguments or result. */
export interface ListedTask {
  task_id: string;
  status: TaskStatus;
  status_message?: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  platform?: string;
  tool?: string;
}

/** Kept once a worker took the task: the instant its invocation is stopped at the latest. */
interface Started {
  runBy: number;
}

/** What a worker needs to find a task: never the call's key or parameters (those stay in the Store). */
export interface TaskRef {
  id: string;
  owner: string;
}

/** How a task's work runs: in this process, or in a worker the `dispatch` starts (which reads `job`). */
export type TaskRun =
  | { kind: 'here'; work: (round?: InputRound) => Promise<CallToolResult>; background: boolean }
  | { kind: 'worker'; job: (ref: TaskRef) => Promise<unknown>; dispatch: (ref: TaskRef) => Promise<void> };


/**
 * Which tools run as tasks: those whose definition says so (Tool.task in shared/core/tool.ts: batch
 * tools and file conversion, the calls that run past a host's timeout); tools/list says it as
 * `execution.taskSupport`.
 */
export const taskSupportOf = (entry: Pick<CatalogEntry, 'task'>): 'optional' | undefined => entry.task;

/** The Tasks extension's identifier (revision 2026-07-28: https://modelcontextprotocol.io/extensions/tasks/overview). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The server's tasks capability, in the initialize answer of a client that announced its own. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } } as const;

export const TASK_TTL = { defaultMs: 3_600_000, minMs: 1_000, maxMs: 86_400_000 } as const;
const POLL = { defaultMs: 1_000, minMs: 100, maxMs: 60_000 } as const;
const LIST_PAGE = 50;
/** Tasks the admin listing reads per owner at most. */
const LISTING_MAX = 200;
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const terminal = (s: TaskStatus) => s === 'completed' || s === 'failed' || s === 'cancelled';
const clamp = (v: unknown, range: { defaultMs: number; minMs: number; maxMs: number }) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(range.maxMs, Math.max(range.minMs, Math.round(v))) : range.defaultMs;

const notFound = (taskId: string) =>
  new RpcError(INVALID_PARAMS, `Task "${taskId.slice(0, 100)}" not found: it is not one of this key's tasks, or its ttl has passed. Use a taskId a tools/call answered (2025-11-25: tasks/list names them).`);

/** Tasks this process runs, by store key: tasks/result here waits on the work itself. */
const running = new Map<string, Promise<void>>();
/** The work of tasks this process runs, by store key: run again with the client's answers once a task's input is complete (tasks/update). */
const resumable = new Map<string, (round?: InputRound) => Promise<CallToolResult>>();

/** Resolves once every task this process runs has ended (a server's orderly stop; tests). */
export async function tasksSettled(): Promise<void> {
  while (running.size) await Promise.all(running.values());
}

/** Milliseconds between two reads of a task another instance runs, while tasks/result waits for it. */
const WAIT_STEP_MS = 250;

export class McpTasks {
  private readonly owner: string;

  /** `owner`: the opaque id of whose tasks these are (Caller.owner: shared/identity/index.ts). */
  constructor(
    private readonly store: Store,
    owner: string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.owner = owner;
  }

  private keyOf(taskId: string) {
    return `mcptask#${this.owner}#${taskId}`;
  }

  /** Beside the task: the call a worker runs (params and sealed credential), its start, its progress. */
  private jobKey = (taskId: string) => `${this.keyOf(taskId)}#job`;
  private startedKey = (taskId: string) => `${this.keyOf(taskId)}#started`;
  private progressKey = (taskId: string) => `${this.keyOf(taskId)}#progress`;
  /** The answered round a worker resumes a task with (tasks/update in Lambda). */
  private roundKey = (taskId: string) => `${this.keyOf(taskId)}#round`;

  private get seqKey() {
    return `mcptasks#${this.owner}`;
  }

  /** Seconds the Store keeps a task created at `createdAt` with `ttl`: none left is 0. */
  private secondsLeft(task: McpTask): number {
    return Math.max(0, Math.ceil((Date.parse(task.createdAt) + task.ttl - this.now()) / 1000));
  }

  /**
   * Seconds the Store keeps a working task: its ttl and one poll interval more, so a host polling
   * a task that never ended sees it fail (view) before it is gone.
   */
  private workingSeconds(task: McpTask): number {
    return Math.max(1, Math.ceil((Date.parse(task.createdAt) + task.ttl + task.pollInterval - this.now()) / 1000));
  }

  private async read(taskId: string): Promise<Kept | undefined> {
    if (taskId.length > 100) return undefined;
    const [kept, started, progress] = await this.many<unknown>([this.keyOf(taskId), this.startedKey(taskId), this.progressKey(taskId)]);
    return this.view(kept as Kept | undefined, started as Started | undefined, progress as string | undefined);
  }

  /**
   * The task as a host sees it. A terminal task is gone once its ttl has passed. A working one
   * reads as failed once it cannot end any more: its worker's invocation was stopped (past
   * `runBy`), or its ttl passed (then it is gone a poll interval later); else it shows its progress.
   */
  private view(kept: Kept | undefined, started: Started | undefined, progress: string | undefined): Kept | undefined {
    if (!kept) return undefined;
    const { task } = kept;
    const end = Date.parse(task.createdAt) + task.ttl;
    const now = this.now();
    if (terminal(task.status)) return now < end ? kept : undefined;
    if (now >= end + task.pollInterval) return undefined;
    const stopped = (why: string): Kept => {
      const message = `The task ${why}. Vendor calls it made stand (a batch's records written so far stay written): check them, then run the rest again, as a task with a longer ttl or in smaller batches.`;
      return { ...keptOf(kept), task: { ...task, status: 'failed', statusMessage: message, lastUpdatedAt: new Date(Math.min(now, end)).toISOString() }, error: { code: -32603, message } };
    };
    if (now >= end) return stopped(`did not finish within its ttl (${task.ttl} ms)`);
    if (started && now > started.runBy) return stopped('was stopped before it finished: its worker ran out of time');
    return typeof progress === 'string' && task.status === 'working' ? { ...kept, task: { ...task, statusMessage: progress } } : kept;
  }

  /**
   * Creates a task and starts its work. Here in the background (locally) the task is answered at
   * once, status "working"; here in the foreground the work is awaited first and the task answered
   * as it ended. With a worker, the call is kept for it and the worker started; the task is
   * answered at once, or failed when the worker cannot be started. `call` (which tool) is kept
   * with the task from the start, whichever way it runs.
   */
  async create(params: { ttl?: unknown; pollInterval?: unknown }, run: TaskRun, call: TaskCall): Promise<{ task: McpTask }> {
    const at = new Date(this.now()).toISOString();
    const task: McpTask = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      ttl: clamp(params.ttl, TASK_TTL),
      pollInterval: clamp(params.pollInterval, POLL),
    };
    const ttlSeconds = this.secondsLeft(task);
    // The call before the task: a worker that finds the task finds its call.
    if (run.kind === 'worker') {
      const job = await run.job({ id: task.taskId, owner: this.owner });
      await this.store.put(this.jobKey(task.taskId), job, this.workingSeconds(task)).catch((err: unknown) => {
        // Arguments larger than a Store item (DynamoDB: 400 KB) cannot wait for a worker.
        throw new RpcError(-32603, `The call could not be kept for its task (${err instanceof Error ? err.name : 'store error'}); send it in smaller batches, or without a task.`);
      });
    }
    // Kept before the work starts: tasks/get from any instance finds it at once.
    await this.store.put(this.keyOf(task.taskId), { task, call: { platform: call.platform, tool: call.tool } } satisfies Kept, this.workingSeconds(task));
    await this.index(task.taskId, ttlSeconds);
    if (run.kind === 'worker') {
      try {
        await run.dispatch({ id: task.taskId, owner: this.owner });
      } catch (err) {
        log('error', 'mcp task worker not started', { error: err instanceof Error ? err.name : 'unknown' });
        const message = `The task could not be started: its worker was not invoked (${err instanceof Error ? err.name : 'unknown error'}). Nothing was sent to the vendor; run the call again.`;
        await this.finish(task.taskId, 'failed', { error: { code: -32603, message } });
        return { task: (await this.read(task.taskId))?.task ?? task };
      }
      return { task };
    }
    const key = this.keyOf(task.taskId);
    resumable.set(key, run.work);
    const done = this.track(key, this.execute(task, run.work));
    if (!run.background) {
      await done;
      return { task: (await this.read(task.taskId))?.task ?? task };
    }
    return { task };
  }

  private track(key: string, done: Promise<void>): Promise<void> {
    const tracked = done.finally(() => {
      if (running.get(key) === tracked) running.delete(key);
    });
    running.set(key, tracked);
    return tracked;
  }

  /**
   * A worker takes the task: only a task still working, and only once (an asynchronous invocation
   * may be delivered twice); `runBy` is when its invocation is stopped at the latest. Answers the
   * call kept for it, or undefined when there is nothing to run (cancelled, ended, gone, taken).
   */
  async claim(taskId: string, runBy: number): Promise<{ job: unknown; task: McpTask; round?: InputRound } | undefined> {
    const kept = await this.read(taskId);
    if (!kept || kept.task.status !== 'working') return undefined;
    const seconds = this.workingSeconds(kept.task);
    const won = this.store.putIfAbsent ? await this.store.putIfAbsent(this.startedKey(taskId), { runBy } satisfies Started, seconds) : true;
    if (!won) return undefined;
    if (!this.store.putIfAbsent) await this.store.put(this.startedKey(taskId), { runBy } satisfies Started, seconds);
    const [job, round] = await this.many<unknown>([this.jobKey(taskId), this.roundKey(taskId)]);
    return job === undefined ? undefined : { job, task: kept.task, ...(round !== undefined ? { round: round as InputRound } : {}) };
  }

  /**
   * Runs a task's work and keeps its end. A batch inside reports each chunk it ends
   * (shared/core/batch.ts): one Store write per chunk, beside the task, so a cancel is never undone.
   */
  execute(task: McpTask, work: (round?: InputRound) => Promise<CallToolResult>, round?: InputRound): Promise<void> {
    const taskId = task.taskId;
    let writes: Promise<void> = Promise.resolve();
    const report = (p: BatchProgress) => {
      const message = `chunk ${count(p.chunk)} of ${count(p.chunks)}: ${count(p.done)} of ${count(p.total)} items done`;
      writes = writes
        .then(() => this.store.put(this.progressKey(taskId), message, this.workingSeconds(task)))
        .catch((err: unknown) => log('warn', 'mcp task progress not kept', { error: err instanceof Error ? err.name : 'unknown' }));
    };
    return batchProgress
      .run(report, () => work(round))
      .then(
        (result) => writes.then(() => this.finish(taskId, 'completed', { result })),
        (err: unknown) =>
          writes.then(() =>
            err instanceof InputRequired ? this.park(taskId, err, round) : err instanceof TaskWithdrawn ? this.withdraw(taskId, err.reason) : this.finish(taskId, 'failed', { error: errorBody(err) }),
          ),
      )
      .catch((err: unknown) => {
        // The Store failed to keep the end: the task reads "working" until its ttl, then failed; logged, never thrown.
        log('warn', 'mcp task end not kept', { error: err instanceof Error ? err.name : 'unknown' });
      });
  }

  /** A slot per task in a sequence (the Store's atomic add), so tasks/list needs no scan. */
  private async index(taskId: string, ttlSeconds: number): Promise<void> {
    const seq = this.store.add
      ? await this.store.add(this.seqKey, 1, TASK_TTL.maxMs / 1000)
      : ((await this.store.get<number>(this.seqKey)) ?? 0) + 1;
    if (!this.store.add) await this.store.put(this.seqKey, seq, TASK_TTL.maxMs / 1000);
    await this.store.put(`${this.seqKey}#${seq}`, taskId, ttlSeconds);
  }

  /**
   * The work asked for input (Tasks extension): the task waits in input_required until tasks/update
   * answers every request. A key is unique over the task's lifetime (the extension's rule): a work
   * that asks again under a key it used before (a sign-in still not done) is asked under `key.2`,
   * `key.3`…, and its answer handed back to the work under its own key.
   */
  private async park(taskId: string, asked: InputRequired, round: InputRound | undefined): Promise<void> {
    const kept = await this.read(taskId);
    if (!kept || terminal(kept.task.status)) return;
    const used = new Set(kept.asked ?? []);
    const requests: Record<string, InputRequest> = {};
    const workKeys: Record<string, string> = {};
    for (const [key, request] of Object.entries(asked.inputRequests)) {
      let taskKey = key;
      for (let n = 2; used.has(taskKey); n++) taskKey = `${key}.${n}`;
      used.add(taskKey);
      requests[taskKey] = request;
      if (taskKey !== key) workKeys[taskKey] = key;
    }
    const task: McpTask = { ...kept.task, status: 'input_required', statusMessage: 'Waiting for the client to answer inputRequests (tasks/update).', lastUpdatedAt: new Date(this.now()).toISOString() };
    const input: TaskInput = { requests, responses: { ...round?.responses }, ...(asked.state !== undefined ? { state: asked.state } : {}), ...(Object.keys(workKeys).length ? { workKeys } : {}) };
    await this.store.put(this.keyOf(taskId), { ...keptOf(kept), task, input, asked: [...used] } satisfies Kept, this.workingSeconds(task));
    // No worker runs a waiting task: the one that asked has ended, the answer starts the next (update).
    await this.store.delete?.(this.startedKey(taskId));
  }

  /** The work withdrew its request (TaskWithdrawn): the task ends cancelled, saying why. */
  private async withdraw(taskId: string, reason: string): Promise<void> {
    resumable.delete(this.keyOf(taskId));
    const kept = await this.read(taskId);
    if (!kept || terminal(kept.task.status)) return;
    const task: McpTask = { ...kept.task, status: 'cancelled', statusMessage: reason, lastUpdatedAt: new Date(this.now()).toISOString() };
    await this.store.put(this.keyOf(taskId), { ...keptOf(kept), task } satisfies Kept, Math.max(1, this.secondsLeft(task)));
    await this.forget(taskId);
  }

  /** An ended task's call (with its sealed credential) and the round a worker would resume it with. */
  private async forget(taskId: string): Promise<void> {
    await this.store.delete?.(this.jobKey(taskId));
    await this.store.delete?.(this.roundKey(taskId));
  }

  /**
   * tasks/update: the client's answers to a waiting task's input requests (others ignored). Once
   * every request is answered, the work runs again with them, here (the process that ran it keeps
   * its work); where that process is gone, the task fails saying so.
   */
  async update(taskId: string, responses: Record<string, unknown>, capabilities: InputRound['capabilities'], resume?: (ref: TaskRef) => Promise<void>): Promise<void> {
    const kept = await this.read(taskId);
    if (!kept) throw notFound(taskId);
    if (kept.task.status !== 'input_required' || !kept.input) return;
    const { requests, state, workKeys = {} } = kept.input;
    const answered = { ...kept.input.responses, ...Object.fromEntries(Object.entries(responses).filter(([k]) => Object.hasOwn(requests, k))) };
    const at = new Date(this.now()).toISOString();
    if (Object.keys(requests).some((k) => answered[k] === undefined)) {
      await this.store.put(this.keyOf(taskId), { ...kept, task: { ...kept.task, lastUpdatedAt: at }, input: { ...kept.input, responses: answered } } satisfies Kept, this.workingSeconds(kept.task));
      return;
    }
    const key = this.keyOf(taskId);
    const work = resumable.get(key);
    // The work reads its answers under the keys it asked with.
    const round: InputRound = { responses: Object.fromEntries(Object.entries(answered).map(([k, v]) => [workKeys[k] ?? k, v])), state, capabilities };
    // A worker's task (its call kept in the Store): the next worker invocation runs the round.
    const job = work || !resume ? undefined : await this.store.get<unknown>(this.jobKey(taskId));
    if (job !== undefined) await this.store.put(this.roundKey(taskId), round, this.workingSeconds(kept.task));
    const task: McpTask = { ...kept.task, status: 'working', lastUpdatedAt: at };
    delete task.statusMessage;
    await this.store.put(key, { ...keptOf(kept), task } satisfies Kept, this.workingSeconds(task));
    if (job !== undefined && resume) {
      try {
        await resume({ id: taskId, owner: this.owner });
      } catch (err) {
        log('error', 'mcp task worker not started', { error: err instanceof Error ? err.name : 'unknown' });
        await this.finish(taskId, 'failed', { error: { code: -32603, message: `The task could not resume: its worker was not invoked (${err instanceof Error ? err.name : 'unknown error'}). Nothing more was sent to the vendor; run the call again.` } });
      }
      return;
    }
    if (!work) {
      await this.finish(taskId, 'failed', { error: { code: -32603, message: 'The task cannot resume: the instance that ran it is gone. Run the call again.' } });
      return;
    }
    void this.track(key, this.execute(task, work, round));
  }

  private async finish(taskId: string, status: 'completed' | 'failed', end: { result?: CallToolResult; error?: RpcErrorBody }): Promise<void> {
    resumable.delete(this.keyOf(taskId));
    const kept = await this.read(taskId);
    // Cancelled meanwhile, or expired: the result is not kept.
    if (!kept || terminal(kept.task.status)) return;
    const task: McpTask = { ...kept.task, status, lastUpdatedAt: new Date(this.now()).toISOString() };
    if (status === 'failed') task.statusMessage = end.error?.message ?? 'The call failed.';
    else delete task.statusMessage;
    try {
      await this.store.put(this.keyOf(taskId), { ...keptOf(kept), task, ...end } satisfies Kept, Math.max(1, this.secondsLeft(task)));
    } catch (err) {
      // A result the Store cannot keep (too large for an item): the task fails with a reason.
      const error = { code: -32603, message: `The result could not be kept (${err instanceof Error ? err.name : 'store error'}); run the call without a task.` };
      await this.store.put(this.keyOf(taskId), { ...keptOf(kept), task: { ...task, status: 'failed', statusMessage: error.message }, error } satisfies Kept, Math.max(1, this.secondsLeft(task)));
    }
    // The call, its sealed credential and its answers are of no use once the task ended.
    await this.forget(taskId);
  }

  /** The task with its end (result or error) or its pending input, as kept: tasks/get of the Tasks extension. */
  async detail(taskId: string): Promise<Kept> {
    const kept = await this.read(taskId);
    if (!kept) throw notFound(taskId);
    return kept;
  }

  async get(taskId: string): Promise<McpTask> {
    const kept = await this.read(taskId);
    if (!kept) throw notFound(taskId);
    return kept.task;
  }

  /**
   * The call's own answer once the task ended: its result (with the related-task _meta), or the
   * JSON-RPC error it failed with. Waits while the task is working, up to `deadline`.
   */
  async result(taskId: string, deadline: number): Promise<CallToolResult> {
    let kept = await this.read(taskId);
    if (!kept) throw notFound(taskId);
    while (!terminal(kept.task.status)) {
      const here = running.get(this.keyOf(taskId));
      if (here) await here;
      else if (this.now() + WAIT_STEP_MS < deadline) await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
      else throw new RpcError(INVALID_PARAMS, `Task "${taskId}" is still working; ask tasks/get until its status is "completed", then tasks/result again.`);
      kept = await this.read(taskId);
      if (!kept) throw notFound(taskId);
    }
    if (kept.task.status === 'cancelled') throw new RpcError(INVALID_PARAMS, `Task "${taskId}" was cancelled before it finished: it has no result.`);
    if (kept.error || !kept.result) {
      const e = kept.error ?? { code: -32603, message: 'The task failed.' };
      throw new RpcError(e.code, e.message, e.data);
    }
    return { ...kept.result, _meta: { ...kept.result._meta, [RELATED_TASK]: { taskId } } };
  }

  /** The sequence's top: the newest task's slot (a counter kept by `add` is not a value `get` reads in DynamoDB: `count` reads it). */
  private top(): Promise<number> {
    return this.store.count ? this.store.count(this.seqKey) : this.store.get<number>(this.seqKey).then((n) => n ?? 0);
  }

  /** The live tasks in the `count` slots from `top` down, newest first, as `view` shows them. */
  private async slots(top: number, count: number): Promise<Kept[]> {
    const ids = await this.many<string>(Array.from({ length: Math.min(count, top) }, (_, i) => `${this.seqKey}#${top - i}`));
    const found = ids.filter((id): id is string => typeof id === 'string');
    const kept = await this.many<unknown>(found.flatMap((id) => [this.keyOf(id), this.startedKey(id), this.progressKey(id)]));
    return found
      .map((_, i) => this.view(kept[3 * i] as Kept | undefined, kept[3 * i + 1] as Started | undefined, kept[3 * i + 2] as string | undefined))
      .filter((k): k is Kept => k !== undefined);
  }

  /** This caller's live tasks, newest first, in pages; the cursor is the slot to continue below. */
  async list(cursor: string | undefined): Promise<{ tasks: McpTask[]; nextCursor?: string }> {
    if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) throw new RpcError(INVALID_PARAMS, 'Invalid cursor: pass the nextCursor of the previous tasks/list answer unchanged.');
    const top = cursor === undefined ? await this.top() : Number(cursor);
    const tasks = (await this.slots(top, LIST_PAGE)).map((k) => k.task);
    const rest = top - Math.min(LIST_PAGE, top);
    return { tasks, ...(rest > 0 ? { nextCursor: String(rest) } : {}) };
  }

  /**
   * The owner's live tasks for the admin API, newest first, the newest LISTING_MAX at most: status
   * as a host reads it, and the tool each runs; never its arguments, result or input.
   */
  async listing(): Promise<ListedTask[]> {
    return (await this.slots(await this.top(), LISTING_MAX)).map(({ task: t, call }) => ({
      task_id: t.taskId,
      status: t.status,
      ...(t.statusMessage ? { status_message: t.statusMessage.slice(0, 300) } : {}),
      created_at: t.createdAt,
      updated_at: t.lastUpdatedAt,
      expires_at: new Date(Date.parse(t.createdAt) + t.ttl).toISOString(),
      ...(call ? { platform: call.platform, tool: call.tool } : {}),
    }));
  }

  private many<T>(keys: string[]): Promise<(T | undefined)[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.store.getMany ? this.store.getMany<T>(keys) : Promise.all(keys.map((k) => this.store.get<T>(k)));
  }

  /**
   * Cancels a working task: its result, when the work ends, is not kept. Calls the work already
   * made to the vendor stand (a batch's records written so far stay written).
   */
  async cancel(taskId: string, opts: { terminalIsError: boolean } = { terminalIsError: true }): Promise<McpTask> {
    const kept = await this.read(taskId);
    if (!kept) throw notFound(taskId);
    if (terminal(kept.task.status)) {
      // The Tasks extension acknowledges a cancel of an ended task; 2025-11-25 refuses it.
      if (!opts.terminalIsError) return kept.task;
      throw new RpcError(INVALID_PARAMS, `Cannot cancel task in terminal status: ${kept.task.status}.`);
    }
    resumable.delete(this.keyOf(taskId));
    const task: McpTask = { ...kept.task, status: 'cancelled', statusMessage: 'Cancelled by the client; vendor calls already made stand.', lastUpdatedAt: new Date(this.now()).toISOString() };
    await this.store.put(this.keyOf(taskId), { ...keptOf(kept), task } satisfies Kept, Math.max(1, this.secondsLeft(task)));
    await this.forget(taskId);
    return task;
  }
}

const count = (n: number) => n.toLocaleString('en-US');

/** What a Kept carries beyond its task's state, for a rewrite of it: its tool and the input keys it asked. */
const keptOf = (k: Kept): Pick<Kept, 'call' | 'asked'> => ({ ...(k.call ? { call: k.call } : {}), ...(k.asked ? { asked: k.asked } : {}) });

function errorBody(err: unknown): RpcErrorBody {
  if (err instanceof RpcError) return { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  return { code: -32603, message: 'Internal error: the call failed unexpectedly.' };
}
