import { loadConfig, type Config } from '../../shared/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/runtime';
import { MemoryStore } from '../../shared/store/memory';
import type { Store } from '../../shared/store';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwinOptions } from '../../infra/twins/tape';
import { platforms } from '../../infra/local/platforms';

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
  twin?: TapeTwinOptions;
}

/** The HTTP app wired in-process to a fresh Tape twin and a memory store. */
export async function harness(opts: HarnessOptions = {}) {
  const tape = createTapeTwin(opts.twin);
  const config: Config = loadConfig({ ...opts.env });
  const store = opts.store ?? new MemoryStore();
  const rt = await createRuntime({ platforms, config, store, fetchFor: { dbapp: tape.fetch } });
  const app = createApp(rt);

  /** POSTs a tool call; returns status, headers and the parsed envelope. */
  async function call(platformTool: string, params: unknown = {}, o: { key?: string | null; query?: string; raw?: string } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = o.key === undefined ? SANDBOX_KEYS.owner : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const res = await app.request(`/v1/tools/${platformTool}${o.query ? `?${o.query}` : ''}`, {
      method: 'POST',
      headers,
      body: o.raw ?? JSON.stringify(params),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(o.query?.includes('base64=true') ? Buffer.from(text, 'base64').toString('utf8') : text) };
  }
  /** Records every request the tools send to Tape from now on, in a live array. */
  function recordRequests(): SentRequest[] {
    const sent: SentRequest[] = [];
    const inner = rt.fetchFor!.dbapp!;
    rt.fetchFor!.dbapp = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const url = new URL(String(input));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      sent.push({ method: init?.method ?? 'GET', path: url.pathname, query: url.searchParams, body });
      return inner(input, init);
    }) as typeof fetch;
    return sent;
  }
  return { app, rt, tape, store, call, recordRequests };
}
