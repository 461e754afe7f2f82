import type { Clock } from './clock';
import { isReset, resetError, type Faults } from './faults';
import type { RequestLog } from './request-log';

/** Anything with Hono's `fetch`. */
export interface FetchApp {
  fetch(request: Request, ...rest: any[]): Response | Promise<Response>;
}

/**
 * A `fetch` into the app, no socket: what a client uses in place of the network. Like fetch, it
 * rejects with the signal's reason when the request's signal aborts before the answer, and with
 * TypeError('fetch failed') on a reset fault.
 */
export function inProcessFetch(app: FetchApp): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const request = new Request(input, init);
    // The caller's signal, not request.signal: a Request follows its init signal only through a
    // WeakRef, so once GC collects the request's own controller, request.signal never hears the
    // abort and a request the twin never answers would hang its caller.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : request.signal);
    if (signal.aborted) throw signal.reason;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const res = await Promise.race([Promise.resolve(app.fetch(request)), aborted]);
      if (isReset(res)) throw resetError();
      return res;
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  }) as typeof fetch;
}

/** What every sandbox twin offers the local server and the tests; each twin adds its own (state, deliveries, …). */
export interface Twin {
  /** The twin's HTTP app (Hono), mounted by the local server at `/twins/<vendor>`. */
  app: FetchApp;
  /** In-process fetch into the twin. */
  fetch: typeof fetch;
  /** The twin's clock: tests move it (expiry, windows, timestamps). */
  clock: Clock;
  /** Every request the twin received (never the key). */
  requests: RequestLog;
  /** Per-route fault injection. */
  faults: Faults;
}

/**
 * The twin's in-process fetch, also for links it handed out under a public base (the local
 * server's mount of the twin, e.g. `http://127.0.0.1:8787/twins/sharefile`): what follows the base
 * is the twin's own path, served on `host`. A tool that reads a file behind such a link reaches
 * the twin as a person's browser reaches the server.
 */
export function publicLinkFetch(fetchTwin: typeof fetch, publicBase: () => string | undefined, host: string): typeof fetch {
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const base = publicBase();
    const url = input instanceof Request ? input.url : String(input);
    if (base && url.startsWith(`${base}/`)) return fetchTwin(`${host}${url.slice(base.length)}`, init);
    return fetchTwin(input, init);
  }) as typeof fetch;
}

/** A twin option that may be a value or a getter (the local server knows its port only once it listens), without a trailing slash. */
export const publicBaseOf = (option: string | (() => string | undefined) | undefined) => (): string | undefined =>
  (typeof option === 'function' ? option() : option)?.replace(/\/$/, '');
