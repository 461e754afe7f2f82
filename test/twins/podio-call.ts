import { expect } from 'vitest';
import { createClock } from '../../infra/twins/kit';
import { createPodioTwin, SANDBOX_KEYS, type PodioTwinOptions } from '../../infra/twins/podio';

/** Where the tests' twin clock starts: after every seeded date, so new items are the newest. */
export const TEST_NOW = Date.parse('2026-01-15T10:00:00Z');

/** A Podio twin on a still clock, with `call(method, path, body?, token?)` as a client sends it. */
export function podioTwin(opts: PodioTwinOptions = {}) {
  const t = createPodioTwin({ clock: createClock(TEST_NOW), ...opts });
  const call = async (method: string, path: string, body?: unknown, token: string | null = SANDBOX_KEYS.owner) => {
    const res = await t.fetch(`https://api.podio.com${path}`, {
      method,
      headers: { ...(token !== null ? { authorization: `OAuth2 ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text === '' ? null : JSON.parse(text)) as any };
  };
  return { ...t, call };
}

/** The error body Podio sends (docs/vendors/podio.md#conventions), for a request. */
export function podioError(error: string, method: string, path: string, query = '') {
  return {
    error,
    error_description: expect.any(String),
    error_detail: null,
    error_parameters: {},
    error_propagate: false,
    request: { url: `https://api.podio.com${path}`, query_string: query, method },
  };
}
