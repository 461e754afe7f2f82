import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Twin } from '../../infra/twins/kit';
import { localPlatform } from '../../infra/local/platforms';
import { emfDocument, metricsEnabled } from '../../shared/core/metrics';
import { harness } from '../helpers/harness';

/**
 * The access log line and the EMF metrics of every call (shared/core/execute.ts logCall,
 * shared/core/metrics.ts), and what never leaves in any output: the key, parameter values, file content.
 */

/** Everything written to stdout/stderr (console and direct writes) while `fn` runs. */
async function captured(fn: () => Promise<void>): Promise<string[]> {
  const out: string[] = [];
  const grab = (...args: unknown[]) => void out.push(args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.stack}` : JSON.stringify(a))).join(' '));
  const spies = [
    ...(['log', 'error', 'warn', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(grab)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (grab(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (grab(String(chunk)), true)),
  ];
  try {
    await fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return out;
}

const lines = (out: string[]) => out.flatMap((o) => o.split('\n')).filter((l) => l.trim() !== '');
const callLines = (out: string[]) => lines(out).map((l) => JSON.parse(l) as Record<string, any>).filter((r) => r.message === 'call');

const saved = { METRICS: process.env.METRICS, LOG_LEVEL: process.env.LOG_LEVEL, METRICS_NAMESPACE: process.env.METRICS_NAMESPACE };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('metrics switch', () => {
  it('is on in Lambda, off elsewhere, and METRICS decides explicitly', () => {
    expect(metricsEnabled({})).toBe(false);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'tes-dev-dbapp' })).toBe(true);
    expect(metricsEnabled({ AWS_LAMBDA_FUNCTION_NAME: 'tes-dev-dbapp', METRICS: 'off' })).toBe(false);
    expect(metricsEnabled({ METRICS: 'on' })).toBe(true);
  });
});

describe('the log line and EMF document of a call', () => {
  beforeEach(() => {
    process.env.METRICS = 'on';
    delete process.env.METRICS_NAMESPACE;
  });

  it('a success: one line with the access-log fields, as an EMF document of Calls, Errors, Latency and vendor figures by [platform, tool] and [platform]', async () => {
    const h = await harness();
    const out = await captured(async () => {
      const r = await h.app.request('/v1/tools/dbapp/listWorkspaces', { method: 'POST', headers: { authorization: `Bearer ${localPlatform('dbapp').keys.owner}`, 'x-request-id': 'req-42' }, body: '{}' });
      expect(r.status).toBe(200);
    });
    const [line, ...more] = callLines(out);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: 'info', message: 'call', request_id: 'req-42', platform: 'dbapp', tool: 'listWorkspaces', status: 200, vendor_calls: 1 });
    expect(line).not.toHaveProperty('code');
    expect(typeof line!.duration_ms).toBe('number');
    expect(typeof line!.vendor_ms).toBe('number');
    expect(typeof line!.cold_start).toBe('boolean');
    expect(typeof line!.time).toBe('string');
    expect(line!._aws).toEqual({
      Timestamp: expect.any(Number),
      CloudWatchMetrics: [
        {
          Namespace: 'ToolExecutionService',
          Dimensions: [['platform', 'tool'], ['platform']],
          Metrics: [
            { Name: 'Calls', Unit: 'Count' },
            { Name: 'Errors', Unit: 'Count' },
            { Name: 'Latency', Unit: 'Milliseconds' },
            { Name: 'VendorCalls', Unit: 'Count' },
            { Name: 'VendorTime', Unit: 'Milliseconds' },
          ],
        },
      ],
    });
    // Every declared metric and dimension is a root member of the right type (what CloudWatch requires).
    expect(line).toMatchObject({ Calls: 1, Errors: 0, Latency: line!.duration_ms, VendorCalls: 1, VendorTime: line!.vendor_ms });
  });

  it('a failure adds Errors by [platform, tool, code]; an unknown tool is not minted as a dimension; the namespace is configurable', async () => {
    process.env.METRICS_NAMESPACE = 'TES/test';
    const h = await harness();
    const out = await captured(async () => {
      await h.call('dbapp/createWorkspace', { name: 'x', type: 'nonsense' });
      await h.call('dbapp/noSuchTool', {});
    });
    const [invalid, unknown] = callLines(out);
    expect(invalid).toMatchObject({ platform: 'dbapp', tool: 'createWorkspace', status: 400, code: 'INVALID_PARAMETER', Calls: 1, Errors: 1, vendor_calls: 0 });
    expect(invalid!._aws.CloudWatchMetrics).toHaveLength(2);
    expect(invalid!._aws.CloudWatchMetrics[1]).toEqual({ Namespace: 'TES/test', Dimensions: [['platform', 'tool', 'code']], Metrics: [{ Name: 'Errors', Unit: 'Count' }] });
    expect(unknown).toMatchObject({ platform: 'dbapp', tool: '(unknown)', code: 'NOT_FOUND', Errors: 1 });
  });

  it('metrics off: the plain line with LOG_LEVEL=info, nothing without it', async () => {
    process.env.METRICS = 'off';
    const h = await harness();
    process.env.LOG_LEVEL = 'info';
    const [line] = callLines(await captured(async () => void (await h.call('dbapp/listWorkspaces', {}))));
    expect(line).toMatchObject({ platform: 'dbapp', tool: 'listWorkspaces', status: 200 });
    expect(line).not.toHaveProperty('_aws');
    delete process.env.LOG_LEVEL;
    expect(callLines(await captured(async () => void (await h.call('dbapp/listWorkspaces', {}))))).toEqual([]);
  });

  it('emfDocument keeps the record and puts the dimensions and values at the root', () => {
    const doc = emfDocument({ message: 'call', status: 429 }, { platform: 'crm', tool: 'getDeal', code: 'RATE_LIMITED', latencyMs: 3.5, vendorCalls: 1, vendorMs: 2 }, { now: 1_700_000_000_000 });
    expect(doc).toMatchObject({ _aws: { Timestamp: 1_700_000_000_000 }, message: 'call', status: 429, platform: 'crm', tool: 'getDeal', code: 'RATE_LIMITED', Calls: 1, Errors: 1, Latency: 3.5, VendorCalls: 1, VendorTime: 2 });
  });
});

describe('no key, parameter value or file content in any output', () => {
  const MARK = 'zq7Marker';
  const CONTENT = `FILE-CONTENT-${MARK}-body`;

  it.each([['on'], ['off']])('METRICS=%s, LOG_LEVEL=info: success, validation error, vendor error and unexpected error', async (metrics) => {
    process.env.METRICS = metrics;
    process.env.LOG_LEVEL = 'info';
    const h = await harness();
    const keys = ['dbapp', 'filebox', 'crm'].map((p) => localPlatform(p).keys.owner);
    const results: { status: number; code?: string; message?: string }[] = [];
    const note = (r: Awaited<ReturnType<typeof h.call>>) => results.push({ status: r.status, code: r.body.error?.code, message: r.body.error?.message });
    const out = await captured(async () => {
      // success, with file content and a named file
      note(await h.call('filebox/uploadFile', { folder_id: 'home', files: [{ filename: `name-${MARK}.txt`, content: Buffer.from(CONTENT).toString('base64') }] }));
      // validation error: the value is refused by name
      note(await h.call('dbapp/createWorkspace', { name: `ws-${MARK}`, type: `type-${MARK}` }));
      // vendor error: the vendor echoes the value in its message
      h.twin<Twin>('dbapp').faults.inject({ path: '/v1/workspace', times: 1, fault: { status: 400, body: { error_code: 'validation', error_message: `name "ws-${MARK}" is taken` } } });
      note(await h.call('dbapp/createWorkspace', { name: `ws-${MARK}`, type: 'open' }));
      // a vendor answer that breaks the tool: refused at the client's boundary (shared/vendor/vendor-contract.ts),
      // logged with the endpoint and the field that broke, never with the value
      h.twin<Twin>('crm').faults.inject({ path: /associations\/companies$/, times: 1, fault: { status: 200, body: { results: MARK } as never } });
      note(await h.call('crm/getAssociations', { from_object_type: 'contacts', object_id: '1061', to_object_type: 'companies' }));
    });
    expect(results.map((r) => [r.status, r.code])).toEqual([[200, undefined], [400, 'INVALID_PARAMETER'], [400, 'INVALID_PARAMETER'], [500, 'INTERNAL_ERROR']]);
    expect(results[3]!.message).toMatch(/answered in a shape this service does not recognise/);
    const text = out.join('\n');
    expect(callLines(out)).toHaveLength(4);
    expect(text).toContain('vendor_contract');
    for (const key of keys) expect(text).not.toContain(key);
    expect(text).not.toContain(MARK);
    expect(text).not.toContain(Buffer.from(CONTENT).toString('base64'));
  });
});
