import { describe, expect, it } from 'vitest';
import { harness } from './helpers/harness';

describe('smoke', () => {
  it('lists workspaces through HTTP', async () => {
    const h = await harness();
    const r = await h.call('dbapp/listWorkspaces', {}, { query: 'format=json' });
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(2);
  });
});
