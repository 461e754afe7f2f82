import { describe, expect, it } from 'vitest';
import type { Twin } from '../../infra/twins/kit';
import { localPlatforms } from '../../infra/local/platforms';
import { ToolError } from '../../shared/core/errors';
import { execute } from '../../shared/core/execute';
import { createUpstream, DEADLINE_RESERVE_MS } from '../../shared/vendor/upstream';
import { harness } from '../helpers/harness';

/** The Lambda's time budget (Call.deadline): no vendor call outlives it, no retry starts that could not finish. */

interface Attempt {
  signal: AbortSignal;
}

/** A vendor that answers each request with the next reply; `hang` never answers (the request ends when its signal aborts). */
function vendor(replies: ('hang' | number)[], deadline?: number, timeoutMs = 10_000) {
  const attempts: Attempt[] = [];
  const request = createUpstream({
    baseUrl: 'https://vendor.test',
    fetch: ((_: unknown, init?: RequestInit) => {
      const signal = init!.signal!;
      attempts.push({ signal });
      const reply = replies.shift() ?? 'hang';
      if (reply !== 'hang') return Promise.resolve(new Response('{}', { status: reply }));
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    }) as typeof fetch,
    timeoutMs,
    ...(deadline !== undefined ? { deadline } : {}),
    headers: {},
    vendor: 'Vendor',
    retryDelayMs: 1,
    describeError: () => ({}),
  });
  return { request, attempts };
}

async function rejection(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('upstream under a deadline', () => {
  it('sends nothing when the budget is already spent', async () => {
    const { request, attempts } = vendor([200], Date.now() + DEADLINE_RESERVE_MS - 1);
    const err = await rejection(request({ method: 'GET', path: '/x' }));
    expect(err.code).toBe('INTERNAL_ERROR');
    expect(err.details).toMatchObject({ upstream_status: null, reason: 'deadline' });
    expect(attempts).toHaveLength(0);
  });

  it('gives a hanging vendor only the time left, and starts no retry that could not finish', async () => {
    const called = Date.now();
    const deadline = called + 800;
    const { request, attempts } = vendor(['hang', 'hang', 'hang'], deadline);
    const err = await rejection(request({ method: 'GET', path: '/x' }));
    expect(err.details).toMatchObject({ upstream_status: null, reason: 'timeout' });
    // The attempt's timer ends before the deadline (less the reserve for the answer), not after the 10 s timeout.
    const timeoutMs = err.details.timeout_ms as number;
    expect(attempts).toHaveLength(1);
    expect(called + timeoutMs).toBeLessThanOrEqual(deadline - DEADLINE_RESERVE_MS);
    expect(timeoutMs).toBeGreaterThan(0);
    expect(attempts[0]!.signal.aborted).toBe(true);
  });

  it('retries a 503 read while there is time, not when the deadline is near', async () => {
    const free = vendor([503, 503, 200]);
    await free.request({ method: 'GET', path: '/x' });
    expect(free.attempts).toHaveLength(3);
    const tight = vendor([503, 503, 200], Date.now() + DEADLINE_RESERVE_MS + 300);
    expect((await rejection(tight.request({ method: 'GET', path: '/x' }))).details).toMatchObject({ upstream_status: 503 });
    expect(tight.attempts).toHaveLength(1);
  });
});

describe.each(localPlatforms.map((p) => [p.platform.name, p] as const))('deadline on %s', (platform, local) => {
  it('the probe against a vendor that never answers ends inside the call deadline (10 s upstream timeout)', async () => {
    const h = await harness({ env: { UPSTREAM_TIMEOUT_MS: '10000' } });
    const twin = h.twin<Twin>(platform);
    twin.faults.inject({ path: /.*/, fault: { kind: 'timeout' } });
    const started = Date.now();
    const deadline = started + 1_000;
    const outcome = await execute(h.rt, { platform, tool: local.probe.tool, key: local.keys.owner, caller: h.rt.identity.resolve({ key: local.keys.owner }), params: local.probe.params, format: 'json', deadline });
    expect(outcome.body).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR', details: { upstream_status: null, reason: 'timeout' } } });
    const details = (outcome.body as unknown as { error: { details: { timeout_ms: number } } }).error.details;
    expect(started + details.timeout_ms).toBeLessThanOrEqual(deadline - DEADLINE_RESERVE_MS);
    // Every request the twin saw started before the deadline; none was a retry started too late.
    expect(twin.requests.entries.length).toBeGreaterThan(0);
    for (const e of twin.requests.entries) expect(e.status).toBeNull();
  });
});
