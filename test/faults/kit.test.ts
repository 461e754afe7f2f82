import { describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS } from '../../infra/twins/tape';

/** The kit's fault kinds the matrix adds: a truncated body, a slow body, sparse faults (every n-th). */
describe('twin kit: truncated and slow bodies, every n-th request', () => {
  const PATH = '/v1/workspace/org';
  const get = (twin: ReturnType<typeof createTapeTwin>, signal?: AbortSignal) =>
    twin.fetch(`https://tape.test${PATH}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` }, ...(signal ? { signal } : {}) });

  it('truncated: the route runs, its answer is cut after half of its bytes under the full Content-Length', async () => {
    const twin = createTapeTwin();
    const whole = await (await get(twin)).text();
    twin.faults.inject({ path: PATH, times: 1, fault: { kind: 'truncated' } });
    const res = await get(twin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(whole)));
    const cut = await res.text();
    expect(whole.startsWith(cut)).toBe(true);
    expect(cut.length).toBeLessThan(whole.length);
    expect(() => JSON.parse(cut)).toThrow();
  });

  it('slow: status and headers at once, then the whole body piece by piece; it stops when the client aborts', async () => {
    const twin = createTapeTwin();
    const whole = await (await get(twin)).text();
    twin.faults.inject({ path: PATH, fault: { kind: 'slow', chunks: 4, chunkMs: 1 } });
    const res = await get(twin);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const pieces: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(Buffer.from(r.value).toString());
    expect(pieces.length).toBe(4);
    expect(pieces.join('')).toBe(whole);

    const ctl = new AbortController();
    const aborted = await get(twin, ctl.signal);
    ctl.abort(new Error('client gave up'));
    await expect(aborted.text()).rejects.toThrow('client gave up');
  });

  it('every: only the n-th, 2n-th … matching request fails', async () => {
    const twin = createTapeTwin();
    const rule = twin.faults.inject({ path: PATH, every: 3, fault: { status: 503 } });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(twin)).status);
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503, 200]);
    expect({ hits: rule.hits, seen: rule.seen }).toEqual({ hits: 2, seen: 7 });
  });
});
