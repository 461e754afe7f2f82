import { loadConfig, type Config } from '../../shared/config';
import { createApp } from '../../shared/http/app';
import { createRuntime } from '../../shared/runtime';
import { MemoryStore } from '../../shared/store/memory';
import type { Store } from '../../shared/store';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwinOptions } from '../../infra/twins/tape';
import { platforms } from '../../infra/local/platforms';

export { SANDBOX_KEYS };

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
  return { app, rt, tape, store, call };
}
