import { describe, expect, it } from 'vitest';
import { dataset, type BatchDataTwin } from '../../infra/twins/batchdata';
import { harness } from '../helpers/harness';

const LOOKUP = '/api/v1/property/lookup/all-attributes';
const envelope = (code: number, text: string, message: string) => ({ status: { code, text, message } });

/** BatchData's status envelope and HTTP statuses, mapped to the catalogue (docs/architecture.md#twins). */
describe('realty: BatchData errors', () => {
  const id = () => dataset().properties[7]!.id;

  async function withFault(fault: Parameters<BatchDataTwin['faults']['inject']>[0]['fault'], times = 1) {
    const h = await harness();
    h.twin<BatchDataTwin>('realty').faults.inject({ path: LOOKUP, times, fault });
    return { h, r: await h.call('realty/lookupProperty', { property_id: id() }) };
  }

  it('400 → INVALID_PARAMETER with BatchData\'s message', async () => {
    const { r } = await withFault({ status: 400, body: envelope(400, 'Bad Request', 'requests[0].propertyId is malformed.') });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { upstream_status: 400, upstream_code: 'Bad Request' } });
    expect(r.body.error.message).toContain('requests[0].propertyId is malformed.');
  });

  it('401 → UNAUTHORIZED for a token BatchData does not know', async () => {
    const h = await harness();
    const r = await h.call('realty/lookupProperty', { property_id: id() }, { key: 'bd_0123456789abcdef0123456789abcdef01234567' });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', details: { upstream_status: 401 } });
    expect(r.body.error.message).toContain('Invalid API token.');
  });

  it('403 → FORBIDDEN, 404 → NOT_FOUND, 500 → INTERNAL_ERROR with the upstream status', async () => {
    expect((await withFault({ status: 403, body: envelope(403, 'Forbidden', 'Provided token does not have permission to access this API.') })).r.body.error).toMatchObject({ code: 'FORBIDDEN', details: { upstream_status: 403 } });
    expect((await withFault({ status: 404, body: envelope(404, 'Not Found', 'Not found.') })).r.body.error).toMatchObject({ code: 'NOT_FOUND', details: { upstream_status: 404 } });
    const failed = (await withFault({ status: 500, body: envelope(500, 'Internal Server Error', 'An unexpected error occurred.') }, 5)).r;
    expect(failed.status).toBe(500);
    expect(failed.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 500 } });
  });

  it('429 → RATE_LIMITED with the delay of Retry-After, past the per-token budget', async () => {
    const h = await harness({ twins: { realty: { rateLimit: { limit: 1, windowMs: 60_000 } } } });
    expect((await h.call('realty/lookupProperty', { property_id: id() })).status).toBe(200);
    const r = await h.call('realty/lookupProperty', { property_id: id() });
    expect(r.status).toBe(429);
    expect(r.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: 60, upstream_status: 429 } });
    expect(r.headers.get('retry-after')).toBe('60');
    expect(r.body.error.message).toContain('Rate limit exceeded');
  });

  it('an HTTP 200 whose status envelope says otherwise is that error all the same', async () => {
    const limited = (await withFault({ status: 200, body: envelope(429, 'Too Many Requests', 'Slow down.') })).r;
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { upstream_status: 429, retry_after: 60 } });
    const failed = (await withFault({ status: 200, body: envelope(500, 'Internal Server Error', 'Try later.') })).r;
    expect(failed.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 500 } });
    expect(failed.body.error.message).toContain('Try later.');
  });

  it('garbage or an answer without the envelope is INTERNAL_ERROR', async () => {
    expect((await withFault({ kind: 'garbage' }, 3)).r.body.error).toMatchObject({ code: 'INTERNAL_ERROR', details: { upstream_status: 200 } });
    const bare = (await withFault({ status: 200, body: { properties: [] } })).r;
    expect(bare.body.error.code).toBe('INTERNAL_ERROR');
    expect(bare.body.error).toMatchObject({ details: { reason: 'vendor_contract', vendor: 'BatchData' } });
  });

  it('retries a gateway failure (the calls only read, so they are safe to repeat)', async () => {
    const { h, r } = await withFault({ status: 503, body: envelope(503, 'Service Unavailable', 'busy') });
    expect(r.status).toBe(200);
    expect(h.twin<BatchDataTwin>('realty').requests.find({ path: LOOKUP }).map((e) => e.status)).toEqual([503, 200]);
  });
});
