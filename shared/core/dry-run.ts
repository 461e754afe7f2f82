/**
 * Dry runs (`?dry_run=true`): a write tool runs up to its vendor writes, which are
 * captured instead of sent; the answer is the plan. Reads go through (validation often needs
 * them): GET and HEAD, and requests the client marks as reads (`read: true` in shared/upstream,
 * for searches sent as POST). Any other request is a write: when in doubt, nothing is sent.
 *
 * A captured write is answered with a synthetic failure (HTTP 599, never retried), so a tool
 * stops where its next step would need the write's answer (an id the vendor assigns, an uploaded
 * file's reference): the plan then holds the first write and says the rest depend on it. Writes
 * that do not depend on each other (the items of a batch) are each captured, so a batch's plan
 * holds every write, chunk by chunk.
 */

/** Set on a RequestInit by shared/upstream when the request only reads (a symbol: never sent). */
export const VENDOR_READ: unique symbol = Symbol.for('tes.vendor-read');

export function markRead<T extends object>(init: T): T {
  (init as Record<symbol, unknown>)[VENDOR_READ] = true;
  return init;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isRead(init: RequestInit | undefined): boolean {
  if (READ_METHODS.has((init?.method ?? 'GET').toUpperCase())) return true;
  return (init as Record<symbol, unknown> | undefined)?.[VENDOR_READ] === true;
}

/** The status a captured write is answered with: outside what vendors send, and not retried. */
export const CAPTURED_STATUS = 599;

export interface PlannedWrite {
  method: string;
  /** Path and query on the vendor's API. */
  path: string;
  /** The JSON body; uploads as {file, size, type}; long strings shortened. */
  body?: unknown;
}

export interface DryRunPlan {
  dry_run: true;
  /** `platform/tool` */
  tool: string;
  writes: PlannedWrite[];
  /** Writes grouped by method and path: a batch's chunk plan. */
  groups: { method: string; path: string; count: number }[];
  /** True when the tool stopped at a write whose answer its next step needed. */
  stopped: boolean;
  note: string;
}

const MAX_STRING = 200;

/** Long strings (base64 content, documents) shortened to their start and length. */
function shorten(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, 60)}… (${value.length.toLocaleString('en-US')} characters)` : value;
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => shorten(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v, depth + 1)]));
}

const fileSummary = (f: Blob) => ({ file: f instanceof File ? f.name : '(bytes)', size: f.size, ...(f.type ? { type: f.type } : {}) });

function summariseBody(body: RequestInit['body']): unknown {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    try {
      return shorten(JSON.parse(body));
    } catch {
      return shorten(body);
    }
  }
  if (body instanceof FormData) {
    const parts: Record<string, unknown> = {};
    for (const [name, value] of body.entries()) parts[name] = typeof value === 'string' ? shorten(value) : fileSummary(value);
    return { multipart: parts };
  }
  if (body instanceof Blob) return fileSummary(body);
  if (body instanceof ArrayBuffer) return { file: '(bytes)', size: body.byteLength };
  if (ArrayBuffer.isView(body)) return { file: '(bytes)', size: body.byteLength };
  if (body instanceof URLSearchParams) return shorten(body.toString());
  return { stream: true };
}

/** A fetch that lets reads through to `inner` and captures writes into `writes`. */
export function capturingFetch(inner: typeof fetch, writes: PlannedWrite[]): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    if (isRead(init ? { ...init, method } : { method })) return inner(input, init);
    const url = new URL(request ? request.url : String(input));
    const body = summariseBody(init?.body ?? undefined);
    writes.push({ method, path: url.pathname + url.search, ...(body !== undefined ? { body } : {}) });
    return new Response(JSON.stringify({ dry_run: true, message: 'Not sent: dry run.' }), { status: CAPTURED_STATUS, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

/** The plan of one dry run, from the captured writes and how the tool ended. */
export function planOf(tool: string, writes: PlannedWrite[], toolFailed: boolean): DryRunPlan {
  const groups = new Map<string, { method: string; path: string; count: number }>();
  for (const w of writes) {
    const path = w.path.split('?')[0]!;
    const g = groups.get(`${w.method} ${path}`) ?? { method: w.method, path, count: 0 };
    g.count += 1;
    groups.set(`${w.method} ${path}`, g);
  }
  const stopped = toolFailed && writes.length > 0;
  const note =
    writes.length === 0
      ? 'Nothing would be written: the call needs no vendor write with these parameters.'
      : stopped
        ? 'Nothing was sent. The call stops at its first write here: any later write needs that write’s answer (an id the vendor assigns, an uploaded file’s reference) and follows from it when the call runs for real.'
        : 'Nothing was sent. These are all the writes the call would make, in order.';
  return { dry_run: true, tool, writes, groups: [...groups.values()], stopped, note };
}

/** The plan as text: one line per write, batches counted per endpoint. */
export function planText(plan: DryRunPlan): string {
  const lines = [`dry run of ${plan.tool}: ${plan.writes.length} write${plan.writes.length === 1 ? '' : 's'} planned, nothing sent`];
  const many = plan.groups.some((g) => g.count > 3);
  if (many) for (const g of plan.groups) lines.push(`${g.count} × ${g.method} ${g.path}`);
  const shown = many ? plan.writes.slice(0, 3) : plan.writes;
  for (const w of shown) lines.push(`${w.method} ${w.path}${w.body !== undefined ? ` ${JSON.stringify(w.body)}` : ''}`);
  if (shown.length < plan.writes.length) lines.push(`… and ${plan.writes.length - shown.length} more writes (format=json lists each)`);
  lines.push(plan.note);
  return lines.join('\n');
}
