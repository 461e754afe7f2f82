import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/core/config';
import { startLocal, startupMessage } from '../../infra/local/server';
import { platformCases } from '../helpers/platforms';

describe('local server (the embedded default)', () => {
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  it('binds to loopback by default', () => {
    expect(local.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  describe.each(platformCases)('$name', (c) => {
    it('serves the tools over a real socket with the sandbox key, against the twin', async () => {
      const res = await fetch(`${local.base}/v1/tools/${c.name}/${c.probe.tool}?format=json`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.keys.owner}`, 'content-type': 'application/json' },
        body: JSON.stringify(c.probe.params),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, data: c.answer.json });
    });

    it('mounts the twin at its path: the same twin the tools talk to answers there', async () => {
      const headers = { authorization: `${c.scheme} ${c.keys.owner}` };
      const res = await fetch(`${local.base}${c.mount}${c.look}`, { headers });
      expect(res.status).toBe(200);
      const direct = await local.twins[c.name]!.fetch(`http://twin.local${c.look}`, { headers });
      expect(await res.json()).toEqual(await direct.json());
    });

    it('prints how to call it: its vendor and a curl of its probe with the sandbox key', () => {
      const message = startupMessage('http://127.0.0.1:8787', loadConfig({}));
      expect(message).toContain(`sandbox key: ${c.keys.owner}`);
      expect(message).toContain(`${c.name} (${c.platform.vendor}: sandbox twin at http://127.0.0.1:8787${c.mount})`);
      expect(message).toContain(`curl -s -X POST http://127.0.0.1:8787/v1/tools/${c.name}/${c.probe.tool} -H "Authorization: Bearer ${c.keys.owner}"`);
      expect(message).toContain(`curl -s http://127.0.0.1:8787${c.mount}${c.look} -H "Authorization: ${c.scheme} ${c.keys.owner}"`);
    });
  });

  it.each([
    ['GET on a tool path', 'GET', '/v1/tools/dbapp/listWorkspaces'],
    ['extra path segments', 'POST', '/v1/tools/dbapp/listWorkspaces/extra'],
    ['an unknown top-level path', 'GET', '/nothing-here'],
  ])('answers an envelope for unmatched routes: %s', async (_name, method, path) => {
    const res = await fetch(`${local.base}${path}`, { method, headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: expect.stringContaining(`No route ${method} ${path}`) } });
  });

  it('names the base URL instead of the twin for a platform whose <PLATFORM>_BASE_URL is set', () => {
    const c = platformCases[0]!;
    const message = startupMessage('http://127.0.0.1:8787', loadConfig({ [`${c.name.toUpperCase()}_BASE_URL`]: 'https://vendor.example' }));
    expect(message).toContain(`${c.name} (${c.platform.vendor}: https://vendor.example)`);
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

describe('local server: TWIN_LATENCY_MS and TWIN_CREDITS', () => {
  const LATENCY_MS = 150;
  const BUDGET = 25;
  let local: Awaited<ReturnType<typeof startLocal>>;
  beforeAll(async () => {
    local = await startLocal({ PORT: '0', TWIN_LATENCY_MS: String(LATENCY_MS), TWIN_CREDITS: String(BUDGET), RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => new Promise<void>((resolve) => local.server.close(() => resolve())));

  describe.each(platformCases)('$name', (c) => {
    it('its twin holds every answer for TWIN_LATENCY_MS, at its mount and through the in-process fetch the tools use', async () => {
      // A lower bound the twin guarantees (kit/latency.ts), not a speed figure.
      let started = performance.now();
      const res = await fetch(`${local.base}${c.mount}${c.look}`, { headers: { authorization: `${c.scheme} ${c.keys.owner}` } });
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 1);
      started = performance.now();
      const tool = await local.twins[c.name]!.fetch(`http://twin.local${c.look}`, { headers: { authorization: `${c.scheme} ${c.keys.owner}` } });
      expect(tool.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 1);
    });

    it('its twin refuses calls past the TWIN_CREDITS budget, in its vendor\'s words', async () => {
      const headers = { authorization: `${c.scheme} ${c.keys.owner}` };
      // At most the budget passes (less what the test above spent): Tape's credits are 10 a request, the others count calls.
      const allowed = c.name === 'dbapp' ? Math.floor(BUDGET / 10) : BUDGET;
      const answers = await Promise.all(Array.from({ length: BUDGET + 1 }, () => local.twins[c.name]!.fetch(`http://twin.local${c.look}`, { headers }).then((r) => r.status)));
      expect(answers.filter((s) => s === 200).length).toBeLessThanOrEqual(allowed);
      expect(answers.filter((s) => s === 429 || s === 420).length).toBeGreaterThan(0);
    });
  });

  it('says so at startup', () => {
    const message = startupMessage(local.base, local.config, local.knobs);
    expect(message).toContain(`twins answer after ${LATENCY_MS} ms (TWIN_LATENCY_MS)`);
    expect(message).toContain(`twin budget: ${BUDGET} credits per minute (a request costs 10) (TWIN_CREDITS)`);
    expect(message).toContain(`twin budget: ${BUDGET} calls per hour (TWIN_CREDITS)`);
  });

  it.each([
    ['TWIN_LATENCY_MS', '-5'],
    ['TWIN_LATENCY_MS', 'fast'],
    ['TWIN_CREDITS', '0'],
    ['TWIN_CREDITS', '1.5'],
  ])('refuses %s=%s at startup, naming the variable', async (name, value) => {
    await expect(startLocal({ PORT: '0', [name]: value })).rejects.toThrow(name);
  });
});
