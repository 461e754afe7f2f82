import type { MiddlewareHandler } from 'hono';
import type { Clock } from './clock';
import { isReset } from './faults';

/** One request a twin received, as tests read it. Never the key or token itself. */
export interface LoggedRequest {
  method: string;
  /** The path as the twin saw it (`/v1/record/1`). */
  path: string;
  /** Query parameters (the last value of a repeated one); token-like parameters are redacted. */
  query: Record<string, string>;
  /** The parsed JSON body, or null (no body, not JSON, or not parseable). */
  body: unknown;
  /** The Authorization scheme (`Bearer`, `Basic`, `OAuth2`, …), or null when none was sent. */
  auth: string | null;
  /** The twin's clock when the request came in. */
  at: number;
  /** The answer's status; null until it is answered (or when it never was: a timeout or reset fault). */
  status: number | null;
}

/** Query parameters that may carry a credential (e.g. Podio's `oauth_token`): logged as "[redacted]". */
const SECRET_PARAMS = /token|secret|password|api_?key|^key$|^code$/i;

/** The scheme word of an Authorization header; 'unknown' when there is none, so a bare token is never logged. */
function scheme(header: string): string {
  const m = /^([A-Za-z][A-Za-z0-9]{0,9})\s+\S/.exec(header.trim());
  return m ? m[1]! : 'unknown';
}

/** The requests a twin received, oldest first, bounded so a long-running local server does not grow without end. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];

  constructor(readonly size = 1000) {}

  /** Entries matching a method and/or path (exact string or RegExp). */
  find(match: { method?: string; path?: string | RegExp } = {}): LoggedRequest[] {
    return this.entries.filter(
      (e) =>
        (match.method === undefined || e.method === match.method.toUpperCase()) &&
        (match.path === undefined || (typeof match.path === 'string' ? e.path === match.path : match.path.test(e.path))),
    );
  }

  clear(): void {
    this.entries.length = 0;
  }

  push(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size);
  }
}

/** Logs every request into `log`. The body is read only when it is JSON (or untyped), so uploads stay streams. */
export function requestLog(log: RequestLog, clock: Clock): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = SECRET_PARAMS.test(k) ? '[redacted]' : v;
    const type = c.req.header('content-type') ?? '';
    let body: unknown = null;
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && (type === '' || /json/i.test(type))) {
      // c.req.text() caches the text: the route reads the same body afterwards.
      const text = await c.req.text();
      try {
        body = text.trim() === '' ? null : (JSON.parse(text) as unknown);
      } catch {
        body = null;
      }
    }
    const header = c.req.header('authorization');
    const entry: LoggedRequest = {
      method: c.req.method,
      path: c.req.path,
      query,
      body,
      auth: header === undefined ? null : scheme(header),
      at: clock.now(),
      status: null,
    };
    log.push(entry);
    await next();
    entry.status = isReset(c.res) ? null : c.res.status;
  };
}
