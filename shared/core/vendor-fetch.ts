import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The fetch vendor calls go through (shared/core/execute.ts hands it to every platform client via
 * shared/vendor/upstream.ts): `node:http`/`node:https` with keep-alive agents instead of Node's global
 * fetch. Node's fetch (undici) builds WHATWG request, response and stream objects for every call
 * and parses HTTP in WebAssembly; here the answer is parsed by Node's native parser and read
 * straight off the socket, and the connection stays open for the next call.
 *
 * It is fetch for what the vendor path uses: a string or URL, a method, headers, a body that is a
 * string, bytes, a Blob, URLSearchParams or FormData (sent as multipart/form-data, RFC 7578),
 * an AbortSignal, redirects followed as fetch follows them (the Authorization header dropped on
 * another origin), gzip/br answers decoded. The answer offers status, ok, headers (get, has,
 * iteration), text(), json(), arrayBuffer(), bytes(), blob() and body (a web stream, made only when
 * asked for). Anything else (a Request object, a stream body, `redirect: 'manual'`, …) goes to the
 * global fetch unchanged. Failures reject as fetch rejects: the signal's reason when it aborts, a
 * TypeError "fetch failed" with the cause otherwise.
 */

export interface VendorFetchOptions {
  /** Connections per host at most; more requests queue for a free one (default 64). */
  maxSockets?: number;
  /** An idle kept-alive connection is closed after this long (default 4 s; shorter when the server says so). */
  idleMs?: number;
}

/** Connections per vendor host: above a batch's parallelism (collab 10, dbapp 4 chunks), bounded against a runaway. */
export const MAX_SOCKETS_PER_HOST = 64;
/** Servers commonly close idle connections after 5 s; closing ours first avoids reusing one being closed. */
export const IDLE_SOCKET_MS = 4_000;
/** As fetch: more redirects than this is a loop. */
const MAX_REDIRECTS = 20;
const USER_AGENT = 'tool-execution-service';
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Safe to send again when a reused connection turned out closed before any answer (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Dropped when a redirect leads to another origin, as fetch drops them. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

type Body = { pieces: Buffer[]; length: number; type?: string };

export function createVendorFetch(options: VendorFetchOptions = {}): typeof fetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? MAX_SOCKETS_PER_HOST, maxFreeSockets: options.maxSockets ?? MAX_SOCKETS_PER_HOST, timeout: options.idleMs ?? IDLE_SOCKET_MS, scheduling: 'lifo' as const };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  async function vendorFetch(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
    if (!handled(input, init)) return fetch(input, init);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    let url = new URL(String(input));
    let method = (init?.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init?.headers);
    let body = await encodeBody(init?.body);
    if (body?.type !== undefined && headers['content-type'] === undefined) headers['content-type'] = body.type;
    headers['accept'] ??= '*/*';
    headers['user-agent'] ??= USER_AGENT;
    headers['accept-encoding'] ??= 'gzip, br';
    for (let hops = 0; ; hops++) {
      const res = await exchange(url, method, headers, body, signal, agents);
      const location = REDIRECT_STATUS.has(res.statusCode!) ? res.headers.location : undefined;
      if (location === undefined) return new VendorResponse(res, url, hops > 0, method, signal) as unknown as Response;
      res.resume();
      if (hops >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error(`more than ${MAX_REDIRECTS} redirects`) });
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error(`redirect to ${next.protocol} refused`) });
      // As fetch: a 303, or a 301/302 of a POST, continues as a GET without the body.
      if (res.statusCode === 303 ? method !== 'HEAD' : (res.statusCode === 301 || res.statusCode === 302) && method === 'POST') {
        method = 'GET';
        body = undefined;
        for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) delete headers[name];
      }
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      url = next;
    }
  }
  return vendorFetch as typeof fetch;
}

/** The client every platform's vendor calls share (one pool of connections per container). */
export const vendorFetch = createVendorFetch();

/**
 * A FormData, told by its tag: `instanceof FormData` (or `Headers`) reads a global that makes Node
 * load all of undici (tens of ms in a cold start) in a process that may never need it.
 */
export const isFormData = (v: unknown): v is FormData => Object.prototype.toString.call(v) === '[object FormData]';

const HANDLED_INIT = new Set(['method', 'headers', 'body', 'signal', 'redirect', 'keepalive', 'cache', 'credentials', 'mode', 'referrerPolicy']);

/** What this client sends itself; anything else is the global fetch's. */
function handled(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): boolean {
  if (typeof input !== 'string' && !(input instanceof URL)) return false;
  if (!/^https?:/i.test(String(input))) return false;
  if (!init) return true;
  if (init.redirect !== undefined && init.redirect !== 'follow') return false;
  for (const key of Object.keys(init)) if (!HANDLED_INIT.has(key)) return false;
  const b = init.body;
  return b === undefined || b === null || typeof b === 'string' || b instanceof Uint8Array || b instanceof ArrayBuffer || ArrayBuffer.isView(b) || b instanceof Blob || b instanceof URLSearchParams || isFormData(b);
}

function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  };
  // A Headers object or a list of pairs: both iterate as [name, value].
  if (Symbol.iterator in init) for (const [name, value] of init as Iterable<[string, string]>) add(name, value);
  else for (const [name, value] of Object.entries(init)) add(name, String(value));
  return out;
}

async function encodeBody(body: RequestInit['body']): Promise<Body | undefined> {
  if (body === undefined || body === null) return undefined;
  const one = (b: Buffer, type?: string): Body => ({ pieces: [b], length: b.length, ...(type !== undefined ? { type } : {}) });
  if (typeof body === 'string') return one(Buffer.from(body), 'text/plain;charset=UTF-8');
  if (body instanceof URLSearchParams) return one(Buffer.from(body.toString()), 'application/x-www-form-urlencoded;charset=UTF-8');
  if (body instanceof ArrayBuffer) return one(Buffer.from(body));
  if (ArrayBuffer.isView(body)) return one(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  if (body instanceof Blob) return one(Buffer.from(await body.arrayBuffer()), body.type || undefined);
  if (isFormData(body)) return multipart(body);
  throw new TypeError('unsupported body');
}

/** A name or file name in a part's header, escaped as browsers and fetch escape it. */
const quoted = (s: string) => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');

/** FormData as multipart/form-data (RFC 7578), with its length known up front (no chunked upload). */
async function multipart(form: FormData): Promise<Body> {
  const boundary = `----tes-formdata-${randomBytes(12).toString('hex')}`;
  const pieces: Buffer[] = [];
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value.replace(/\r(?!\n)|(?<!\r)\n/g, '\r\n')}\r\n`));
    } else {
      pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"; filename="${quoted(value.name)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`));
      pieces.push(Buffer.from(await value.arrayBuffer()), Buffer.from('\r\n'));
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { pieces, length: pieces.reduce((n, p) => n + p.length, 0), type: `multipart/form-data; boundary=${boundary}` };
}

const networkError = (cause: unknown) => new TypeError('fetch failed', { cause });

/**
 * One request to its answer's headers. A kept-alive connection the server closed while it sat
 * idle fails before any answer: an idempotent request is then sent once more on a new connection.
 */
async function exchange(url: URL, method: string, headers: Record<string, string>, body: Body | undefined, signal: AbortSignal | undefined, agents: Record<'http:' | 'https:', http.Agent>): Promise<IncomingMessage> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await once(url, method, headers, body, signal, agents);
    } catch (err) {
      const stale = err instanceof StaleSocket;
      if (stale && attempt === 0 && IDEMPOTENT.has(method) && !signal?.aborted) continue;
      throw stale ? networkError(err.cause) : err;
    }
  }
}

class StaleSocket extends Error {}

function once(url: URL, method: string, headers: Record<string, string>, body: Body | undefined, signal: AbortSignal | undefined, agents: Record<'http:' | 'https:', http.Agent>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const sent = { ...headers };
    // fetch sends a length for a body-less write too: no chunked encoding for an empty body.
    if (body) sent['content-length'] = String(body.length);
    else if (method !== 'GET' && method !== 'HEAD') sent['content-length'] = '0';
    const req = (secure ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: sent,
      agent: agents[secure ? 'https:' : 'http:'],
    });
    const onAbort = () => req.destroy(signal!.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (res) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(res);
    });
    // `on`, not `once`: a socket error while the body is read is emitted here too, after the answer.
    req.on('error', (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(signal.reason);
      const closed = err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ECONNABORTED';
      reject(req.reusedSocket && closed ? new StaleSocket('stale connection', { cause: err }) : networkError(err));
    });
    if (body) for (const piece of body.pieces) req.write(piece);
    req.end();
  });
}

/** The answer's headers as fetch's Headers reads them, over Node's parsed (lower-cased) header object. */
class VendorHeaders {
  readonly #raw: IncomingHttpHeaders;
  constructor(raw: IncomingHttpHeaders) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    const v = this.#raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }
  getSetCookie(): string[] {
    return this.#raw['set-cookie'] ?? [];
  }
  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.#raw).sort()) yield [name, this.get(name)!];
  }
  keys(): IterableIterator<string> {
    return Object.keys(this.#raw).sort()[Symbol.iterator]();
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  forEach(fn: (value: string, name: string, headers: this) => void): void {
    for (const [name, v] of this.entries()) fn(v, name, this);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** The answer's body decoded as fetch decodes it (gzip, br, deflate); anything else as sent. */
function decoded(res: IncomingMessage): Readable {
  const coding = res.headers['content-encoding']?.trim().toLowerCase();
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? zlib.createGunzip() : coding === 'br' ? zlib.createBrotliDecompress() : coding === 'deflate' ? zlib.createInflate() : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** What the vendor path reads of a fetch Response, read off Node's answer. */
class VendorResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = 'basic';
  readonly headers: VendorHeaders;
  readonly #res: IncomingMessage;
  readonly #signal: AbortSignal | undefined;
  readonly #empty: boolean;
  #source: Readable | undefined;
  #stream: ReadableStream<Uint8Array> | null | undefined;
  #used = false;

  constructor(res: IncomingMessage, url: URL, redirected: boolean, method: string, signal: AbortSignal | undefined) {
    this.#res = res;
    this.status = res.statusCode!;
    this.statusText = res.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status <= 299;
    this.url = url.href;
    this.redirected = redirected;
    this.headers = new VendorHeaders(res.headers);
    this.#signal = signal;
    this.#empty = method === 'HEAD' || NULL_BODY_STATUS.has(this.status);
    if (this.#empty) res.resume();
    // The answer's body stops when the signal aborts, as fetch's does.
    if (signal && !this.#empty) {
      const onAbort = () => this.#body().destroy(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      res.once('close', () => signal.removeEventListener('abort', onAbort));
    }
  }

  #body(): Readable {
    return (this.#source ??= decoded(this.#res));
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** A web stream of the body, made on first use (a download read piece by piece, or cancelled unread). */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) {
      if (this.#empty) this.#stream = null;
      else if (this.#used) this.#stream = new ReadableStream({ cancel: () => void this.#body().destroy() });
      else this.#stream = Readable.toWeb(this.#body()) as ReadableStream<Uint8Array>;
    }
    return this.#stream;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const b = await this.#bytes();
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async text(): Promise<string> {
    return (await this.#bytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.#bytes()], { type: this.headers.get('content-type') ?? '' });
  }

  /** The whole body, once (a second read fails as fetch's does). */
  async #bytes(): Promise<Buffer> {
    if (this.#used || this.#stream) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    if (this.#empty) return Buffer.alloc(0);
    if (this.#signal?.aborted) throw this.#signal.reason;
    const source = this.#body();
    const signal = this.#signal;
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      source.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        length += chunk.length;
      });
      source.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)));
      source.once('error', (err) => reject(signal?.aborted ? signal.reason : networkError(err)));
      // A connection cut mid-body ends in 'close' without 'end' on some paths: that is a broken body.
      source.once('close', () => {
        if (!source.readableEnded) reject(signal?.aborted ? signal.reason : networkError(new Error('the connection closed before the whole body arrived')));
      });
    });
  }
}
