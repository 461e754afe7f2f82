import { describe, expect, it } from 'vitest';
import { createBatchDataTwin, SANDBOX_KEYS } from '../../infra/twins/batchdata';
import { datasetBuilt } from '../../infra/twins/batchdata/dataset';

// Its own file: a fresh module graph, where no test has built the dataset yet.
describe('BatchData twin: construction', () => {
  it('builds no data when made — the dataset is built on the first request that needs it, once for all twins', async () => {
    const twins = Array.from({ length: 20 }, () => createBatchDataTwin());
    expect(datasetBuilt()).toBe(false);
    // Auth and validation need no data either.
    const refused = await twins[0]!.fetch('https://api.batchdata.com/api/v1/property/search', { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(datasetBuilt()).toBe(false);
    const res = await twins[1]!.fetch('https://api.batchdata.com/api/v1/property/search', {
      method: 'POST',
      headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}`, 'content-type': 'application/json' },
      body: JSON.stringify({ searchCriteria: { query: '85021' }, options: { take: 1 } }),
    });
    expect(res.status).toBe(200);
    expect(datasetBuilt()).toBe(true);
    expect(twins[2]!.data).toBe(twins[3]!.data);
  });
});
