import { loadConfig, type Config } from '../../shared/core/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/lambda/runtime';
import { MemoryStore } from '../../shared/store/memory';
import type { Store } from '../../shared/store';
import type { Resolver } from '../../shared/vendor/address-rules';
import { SANDBOX_KEYS, type TapeTwin, type TapeTwinOptions } from '../../infra/twins/tape';
import { localPlatform, localPlatforms, platforms, type Twin } from '../../infra/local/platforms';

export { SANDBOX_KEYS };

export interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  store?: Store;
  /** Options of each platform's twin, by platform name. */
  twins?: Record<string, Record<string, unknown>>;
  /** Options of the Tape twin (dbapp): a shortcut for twins.dbapp. */
  twin?: TapeTwinOptions;
  /** DNS for caller URLs (webhook targets); default: PUBLIC_DNS, so no test asks the real DNS. */
  resolve?: Resolver;
}

/**
 * The rate limit of every platform in a harness, unless a test sets its own: many tests make
 * hundreds of calls with one key, above the vendors' defaults (HubSpot's is 100 per 10 s). A test
 * of the limits sets RATE_LIMIT_MAX or <PLATFORM>_RATE_LIMIT_MAX, or RATE_LIMIT_MAX: '' for the
 * platforms' own defaults.
 */
export const HARNESS_RATE_LIMIT = '1000000';

/** Every name resolves to one public address (93.184.215.14), `localhost` to loopback: tests never depend on the network. */
export const PUBLIC_DNS: Resolver = async (host) => [host === 'localhost' || host.endsWith('.localhost') ? { address: '127.0.0.1', family: 4 } : { address: '93.184.215.14', family: 4 }];

/** The HTTP app wired in-process to a fresh twin of every platform's vendor and a memory store. */
export async function harness(opts: HarnessOptions = {}) {
  // Twins are built on first use: a test pays only for the platforms it calls (each twin seeds its demo data).
  const twins: Record<string, Twin> = {};
  const fetchFor: Record<string, typeof fetch | undefined> = {};
  for (const p of localPlatforms) {
    const name = p.platform.name;
    let built: Twin | undefined;
    const get = () => (built ??= p.twin(name === 'dbapp' && opts.twin ? { ...opts.twins?.[name], ...opts.twin } : opts.twins?.[name]));
    Object.defineProperty(twins, name, { get, enumerable: true });
    fetchFor[name] = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => get().fetch(input, init)) as typeof fetch;
  }
  const config: Config = loadConfig({ RATE_LIMIT_MAX: HARNESS_RATE_LIMIT, ...opts.env });
  const store = opts.store ?? new MemoryStore();
  const rt = await createRuntime({ platforms, config, store, fetchFor });
  rt.resolve = opts.resolve ?? PUBLIC_DNS;
  const app = createApp(rt);

  /**
   * POSTs a tool call ("dbapp/listWorkspaces"); returns status, headers and the parsed envelope.
   * The key defaults to the sandbox owner of the platform's twin; `key: null` sends none.
   */
  async function call(platformTool: string, params: unknown = {}, o: { key?: string | null; query?: string; raw?: string } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const platform = localPlatforms.find((p) => platformTool.startsWith(`${p.platform.name}/`));
    const key = o.key === undefined ? (platform?.keys.owner ?? SANDBOX_KEYS.owner) : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const res = await app.request(`/v1/tools/${platformTool}${o.query ? `?${o.query}` : ''}`, {
      method: 'POST',
      headers,
      body: o.raw ?? JSON.stringify(params),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(o.query?.includes('base64=true') ? Buffer.from(text, 'base64').toString('utf8') : text) };
  }

  /**
   * A tools/call of "dbapp/listWorkspaces" on the platform's MCP endpoint (`query` on its URL, e.g.
   * "format=json"), with the key `call` sends; returns the JSON-RPC result.
   */
  async function mcpCall(platformTool: string, args: unknown = {}, o: { query?: string } = {}): Promise<Record<string, unknown>> {
    const [platform, tool] = platformTool.split('/');
    const key = localPlatforms.find((p) => p.platform.name === platform)?.keys.owner ?? SANDBOX_KEYS.owner;
    const res = await app.request(`/v1/mcp/${platform}${o.query ? `?${o.query}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }),
    });
    const body = (await res.json()) as { result?: Record<string, unknown> };
    if (!body.result) throw new Error(`${platformTool} over MCP: ${JSON.stringify(body).slice(0, 300)}`);
    return body.result;
  }

  /** Records every request the tools of `platform` send to its vendor from now on, in a live array. */
  function recordRequests(platform: string): SentRequest[] {
    localPlatform(platform);
    const sent: SentRequest[] = [];
    const inner = rt.fetchFor![platform]!;
    rt.fetchFor![platform] = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const url = new URL(String(input));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      sent.push({ method: init?.method ?? 'GET', path: url.pathname, query: url.searchParams, body });
      return inner(input, init);
    }) as typeof fetch;
    return sent;
  }

  /** One platform's twin, typed by the caller (e.g. `h.twin<PodioTwin>('collab')`). */
  function twin<T extends Twin = Twin>(platform: string): T {
    const t = twins[platform];
    if (!t) throw new Error(`No twin for platform "${platform}"`);
    return t as T;
  }

  return {
    app, rt, store, call, mcpCall, recordRequests, twins, twin,
    get tape() {
      return twin<TapeTwin>('dbapp');
    },
  };
}
