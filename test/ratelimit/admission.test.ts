import { afterAll, describe, expect, it, vi } from 'vitest';
import { DynamoStore } from '../../shared/store/dynamodb';
import { MemoryStore } from '../../shared/store/memory';
import type { CounterResult, Store } from '../../shared/core/store';
import { startDynamoDbLocal, type DynamoDbLocal } from '../helpers/dynamodb-local';
import { harness } from '../helpers/harness';

/**
 * When the rate-limit counter decides, as seen from the vendor: a read-only tool runs alongside
 * the counter and its answer waits for it; a write (or its dry run) sends nothing before it.
 */

/** A memory store whose counter answers only once the test opens the gate. */
function gatedStore() {
  const inner = new MemoryStore();
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  let asked = 0;
  const store: Store = {
    get: (k) => inner.get(k),
    put: (k, v, t) => inner.put(k, v, t),
    putIfAbsent: (k, v, t) => inner.putIfAbsent(k, v, t),
    delete: (k) => inner.delete(k),
    increment: async (k, w, l): Promise<CounterResult> => {
      asked += 1;
      await gate;
      return inner.increment(k, w, l);
    },
  };
  return {
    store,
    get asked() {
      return asked;
    },
    open: () => open(),
    close: () => {
      gate = new Promise<void>((r) => (open = r));
    },
  };
}

/** Lets every pending promise and I/O callback of the in-process twin run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

/** A call's promise with a flag telling whether it has answered. */
function pending<T>(p: Promise<T>) {
  const state = { answered: false, result: p };
  void p.then(() => (state.answered = true));
  return state;
}

describe('read-only tools: the counter off the critical path', () => {
  it('a read reaches the vendor while the counter decides, and its answer waits for admission', async () => {
    const gated = gatedStore();
    const h = await harness({ store: gated.store, env: { DBAPP_RATE_LIMIT_MAX: '1' } });
    const seen = h.recordRequests('dbapp');
    const call = pending(h.call('dbapp/listWorkspaces', {}, { query: 'format=json' }));
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    await settle();
    expect(gated.asked).toBe(1);
    expect(call.answered).toBe(false);
    gated.open();
    const r = await call.result;
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(2);
    expect(r.headers.get('ratelimit-limit')).toBe('1');
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('over the limit a read answers 429 RATE_LIMITED and nothing of its result', async () => {
    const h = await harness({ env: { DBAPP_RATE_LIMIT_MAX: '1' } });
    const first = await h.call('dbapp/listWorkspaces');
    expect(first.status).toBe(200);
    expect(first.text).toContain('Task management');
    const over = await h.call('dbapp/listWorkspaces');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.any(String), details: expect.objectContaining({ retry_after: 60 }) } });
    expect(over.text).not.toContain('Task management');
    expect(over.headers.get('retry-after')).toBe('60');
    // Refused even where the tool itself would have failed: the refusal is the answer.
    const invalid = await h.call('dbapp/getWorkspace', { workspace_id: 'not a number' });
    expect(invalid.body.error.code).toBe('RATE_LIMITED');
  });

  it('a refused read answers as soon as the counter refuses, without waiting for the vendor', async () => {
    const h = await harness({ env: { DBAPP_RATE_LIMIT_MAX: '1' } });
    expect((await h.call('dbapp/listWorkspaces')).status).toBe(200);
    // A vendor that never answers: only the counter's refusal can end this call.
    let asked = 0;
    h.rt.fetchFor!.dbapp = (() => {
      asked += 1;
      return new Promise<Response>(() => {});
    }) as typeof fetch;
    const over = await h.call('dbapp/listWorkspaces');
    expect(over.status).toBe(429);
    expect(asked).toBeLessThanOrEqual(1);
  });
});

describe('writes: admission before anything is sent', () => {
  it('a write sends nothing until the counter admits it', async () => {
    const gated = gatedStore();
    const h = await harness({ store: gated.store, env: { DBAPP_RATE_LIMIT_MAX: '1' } });
    const seen = h.recordRequests('dbapp');
    const call = pending(h.call('dbapp/createWorkspace', { name: 'Gated', type: 'open' }));
    await vi.waitFor(() => expect(gated.asked).toBe(1));
    await settle();
    expect(seen).toEqual([]);
    expect(call.answered).toBe(false);
    gated.open();
    expect((await call.result).status).toBe(200);
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('over the limit a write, or its dry run, answers 429 and sends nothing to the vendor', async () => {
    const h = await harness({ env: { DBAPP_RATE_LIMIT_MAX: '1' } });
    expect((await h.call('dbapp/listWorkspaces')).status).toBe(200);
    const seen = h.recordRequests('dbapp');
    const write = await h.call('dbapp/createWorkspace', { name: 'Refused', type: 'open' });
    expect(write.status).toBe(429);
    expect(write.body.error.code).toBe('RATE_LIMITED');
    const dry = await h.call('dbapp/createWorkspace', { name: 'Refused', type: 'open' }, { query: 'dry_run=true' });
    expect(dry.status).toBe(429);
    expect(seen).toEqual([]);
  });
});

describe('store outage, for writes', () => {
  const down: Store = {
    get: () => Promise.reject(new Error('ECONNREFUSED')),
    put: () => Promise.reject(new Error('ECONNREFUSED')),
    increment: () => Promise.reject(Object.assign(new Error('ECONNREFUSED'), { name: 'NetworkingError' })),
  };

  it('open (default): the write goes through uncounted, without RateLimit headers', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const h = await harness({ store: down });
      const seen = h.recordRequests('dbapp');
      const r = await h.call('dbapp/createWorkspace', { name: 'Uncounted', type: 'open' });
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBeNull();
      expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1);
      expect(errors.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/rate-limit store unavailable.*"policy":"open"/);
    } finally {
      errors.mockRestore();
    }
  });

  it('closed: the write answers INTERNAL_ERROR and nothing reaches the vendor', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const h = await harness({ store: down, env: { RATE_LIMIT_ON_STORE_ERROR: 'closed' } });
      const seen = h.recordRequests('dbapp');
      const r = await h.call('dbapp/createWorkspace', { name: 'Unguarded', type: 'open' });
      expect(r.status).toBe(500);
      expect(r.body.error.message).toMatch(/RATE_LIMIT_ON_STORE_ERROR=closed/);
      expect(seen).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('Retry-After and RateLimit-Reset tell the true wait', () => {
  it('retrying after Retry-After is admitted; a second earlier is not', async () => {
    let now = Date.UTC(2026, 0, 1, 12, 0, 30, 250);
    const h = await harness({ store: new MemoryStore(() => now), env: { DBAPP_RATE_LIMIT_MAX: '2', DBAPP_RATE_LIMIT_WINDOW_SECONDS: '60' } });
    expect((await h.call('dbapp/listWorkspaces')).status).toBe(200);
    now += 10_000;
    expect((await h.call('dbapp/listWorkspaces')).status).toBe(200);
    now += 10_000;
    const refused = await h.call('dbapp/listWorkspaces');
    expect(refused.status).toBe(429);
    // The first call leaves the window 40 s from now, whatever the clock's minute.
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(refused.headers.get('ratelimit-reset')).toBe('40');
    expect(refused.body.error.details.retry_after).toBe(40);
    now += 39_000;
    expect((await h.call('dbapp/listWorkspaces')).headers.get('retry-after')).toBe('1');
    now += 1_000;
    expect((await h.call('dbapp/listWorkspaces')).status).toBe(200);
  });
});

describe.each(['memory', 'dynamodb'] as const)('200 concurrent writes against a limit of 100 (%s store)', (kind) => {
  let local: DynamoDbLocal | undefined;
  afterAll(async () => {
    await local?.stop();
  });

  it('admits exactly 100, and the vendor receives exactly those 100 writes', async () => {
    let store: Store = new MemoryStore();
    if (kind === 'dynamodb') {
      local = await startDynamoDbLocal({ table: 'ratelimit-test' });
      store = new DynamoStore(local.client, local.table);
    }
    const h = await harness({ store, env: { DBAPP_RATE_LIMIT_MAX: '100' } });
    const seen = h.recordRequests('dbapp');
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => h.call('dbapp/createWorkspace', { name: `Load ${i}`, type: 'open' })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    expect(seen.filter((r) => r.method === 'POST')).toHaveLength(100);
  }, 120_000);
});
