import type { MiddlewareHandler } from 'hono';
import type { ErrorBody } from './errors';

/**
 * Per-route fault injection for tests: what a client must survive from a vendor.
 * - `{ status, body?, headers? }`: that answer (e.g. 420/429/503 with the vendor's body; `body` may
 *   be built from the request).
 * - `{ kind: 'timeout' }`: never answers; the request ends when its signal aborts (the in-process
 *   fetch then rejects with the signal's reason, as fetch does). A request without a signal hangs.
 *   `{ kind: 'timeout', ms }`: answers normally, `ms` late (real time: a client's timer must fire).
 * - `{ kind: 'reset' }`: the connection drops; the in-process fetch rejects with
 *   TypeError('fetch failed') as undici does (over a socket, the body stream errors).
 * - `{ kind: 'garbage', body?, contentType? }`: 200 with a body that is not JSON (default: an HTML
 *   page sent as application/json, the worst case for a client trusting the header).
 * - `{ kind: 'truncated', keep? }`: the route runs (a write is applied), then its answer is cut after
 *   `keep` of its length (default half) under the full Content-Length: a connection dropped mid-body.
 * - `{ kind: 'slow', chunks?, chunkMs? }`: the route runs, its status and headers leave at once, then
 *   the body trickles in `chunks` pieces (default 20), one every `chunkMs` (default 100 ms), stopping
 *   when the request's signal aborts: a client must time out the body, not only the headers.
 */
export type Fault =
  | { kind?: undefined; status: number; body?: ErrorBody; headers?: Record<string, string> }
  | { kind: 'timeout'; ms?: number }
  | { kind: 'reset' }
  | { kind: 'garbage'; body?: string; contentType?: string }
  | { kind: 'truncated'; keep?: number }
  | { kind: 'slow'; chunks?: number; chunkMs?: number };

export interface FaultRule {
  /** Only this method (default: any). */
  method?: string;
  /** The twin's own path: exact string or RegExp. */
  path: string | RegExp;
  /** How many matching requests fail (default: every one until cleared). */
  times?: number;
  /** Only every n-th matching request fails (the n-th, 2n-th, …): sparse failures in a long run. */
  every?: number;
  fault: Fault;
}

/** An injected rule: how often it fired; `remove()` takes it out. */
export interface InjectedFault {
  readonly rule: FaultRule;
  hits: number;
  /** Matching requests seen, faulted or not (what `every` counts). */
  seen: number;
  remove(): void;
}

/** The fault rules of one twin; the first matching rule with uses left fires. */
export class Faults {
  private rules: InjectedFault[] = [];

  inject(rule: FaultRule): InjectedFault {
    const injected: InjectedFault = { rule, hits: 0, seen: 0, remove: () => void (this.rules = this.rules.filter((r) => r !== injected)) };
    this.rules.push(injected);
    return injected;
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, counting the use; undefined when none matches. */
  take(method: string, path: string): Fault | undefined {
    for (const r of this.rules) {
      if (r.rule.method !== undefined && r.rule.method.toUpperCase() !== method) continue;
      if (typeof r.rule.path === 'string' ? r.rule.path !== path : !r.rule.path.test(path)) continue;
      if (r.rule.times !== undefined && r.hits >= r.rule.times) continue;
      r.seen++;
      if (r.rule.every !== undefined && r.seen % r.rule.every !== 0) continue;
      r.hits++;
      return r.rule.fault;
    }
    return undefined;
  }
}

const resets = new WeakSet<Response>();

/** True for the answer of a reset fault: the in-process fetch turns it into a network error. */
export function isReset(res: Response): boolean {
  return resets.has(res);
}

/** A connection reset as undici reports it. */
export function resetError(): TypeError {
  const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
  return new TypeError('fetch failed', { cause });
}

function resetResponse(): Response {
  // Over a real socket the server starts the answer and the stream fails: the connection drops.
  const body = new ReadableStream({ start: (ctl) => ctl.error(resetError().cause) });
  const res = new Response(body, { status: 502 });
  resets.add(res);
  return res;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A pause that ends early when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The route's answer with its body cut after `keep` of its bytes, Content-Length still the full size. */
async function truncate(res: Response, keep: number): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.set('content-length', String(bytes.length));
  return new Response(bytes.slice(0, Math.floor(bytes.length * keep)), { status: res.status, headers });
}

/** The route's answer with its body sent piece by piece, a pause before each, until the client gives up. */
async function trickle(res: Response, chunks: number, chunkMs: number, signal: AbortSignal): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  const size = Math.max(1, Math.ceil(bytes.length / chunks));
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(ctl) {
      await pause(chunkMs, signal);
      if (signal.aborted) return ctl.error(signal.reason);
      if (at >= bytes.length) return ctl.close();
      ctl.enqueue(bytes.slice(at, (at += size)));
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

/** Answers a request with its injected fault, if any. */
export function faultInjection(faults: Faults): MiddlewareHandler {
  return async (c, next) => {
    const fault = faults.take(c.req.method, c.req.path);
    if (!fault) return next();
    switch (fault.kind) {
      case undefined: {
        const body = typeof fault.body === 'function' ? fault.body(c) : fault.body;
        return c.json((body ?? null) as object, fault.status as 400, fault.headers ?? {});
      }
      case 'timeout':
        if (fault.ms === undefined) {
          await untilAborted(c.req.raw.signal);
          return resetResponse();
        }
        await new Promise((r) => setTimeout(r, fault.ms));
        return next();
      case 'reset':
        return resetResponse();
      case 'garbage':
        return c.body(fault.body ?? '<html><body><h1>502 Bad Gateway</h1></body></html>', 200, { 'content-type': fault.contentType ?? 'application/json' });
      case 'truncated':
        await next();
        c.res = await truncate(c.res, fault.keep ?? 0.5);
        return;
      case 'slow':
        await next();
        c.res = await trickle(c.res, fault.chunks ?? 20, fault.chunkMs ?? 100, c.req.raw.signal);
        return;
    }
  };
}
