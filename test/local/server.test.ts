import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '../../infra/local/server';

describe('local server (the embedded default)', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  it('binds to loopback by default and serves the tools over a real socket with the sandbox key', async () => {
    expect(local.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${local.base}/v1/tools/dbapp/listWorkspaces?format=json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, data: { total: 2 } });
  });

  it('mounts the Tape twin for a look at the vendor side, sharing the tools\' state', async () => {
    await fetch(`${local.base}/v1/tools/dbapp/createWorkspace`, {
      method: 'POST',
      headers: { authorization: `Bearer ${local.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Local check', type: 'open' }),
    });
    const res = await fetch(`${local.base}/twins/tape/v1/workspace/org`, { headers: { authorization: `Bearer ${local.key}` } });
    const body = (await res.json()) as { workspaces: { name: string }[] };
    expect(body.workspaces.map((w) => w.name)).toContain('Local check');
  });
});
