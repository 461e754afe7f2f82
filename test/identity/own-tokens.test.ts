import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localServer } from './helpers';

/** Bearers of the service's own formats are answered here, never passed to a vendor as if they were its key. */
describe("the service's own tokens never reach a vendor", () => {
  let s: Awaited<ReturnType<typeof localServer>>;
  const seen: string[] = [];
  beforeAll(async () => {
    s = await localServer();
    const inner = s.rt.fetchFor!.dbapp!;
    s.rt.fetchFor!.dbapp = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      seen.push(new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('authorization') ?? '');
      return inner(input, init);
    }) as typeof fetch;
  });
  afterAll(() => s.close());

  const token = (prefix: string) => `${prefix}${'A'.repeat(43)}`;
  it.each([
    ['trt_', 'refresh token'],
    ['tra_', 'registration access token'],
    ['tat_', 'access token'],
    ['tes_', 'service key'],
  ])('%s…: 401 naming the %s, on REST and MCP', async (prefix, kind) => {
    const rest = await s.call(token(prefix), undefined, 'dbapp/listWorkspaces');
    expect(rest.status).toBe(401);
    expect(rest.body.error.message).toContain(kind);
    const mcp = await fetch(`${s.base}/v1/mcp/dbapp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token(prefix)}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    expect(await mcp.text()).toContain(kind);
    expect(seen.filter((h) => h.includes(prefix))).toEqual([]);
  });
});
