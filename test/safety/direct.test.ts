import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { createTapeTwin, SANDBOX_KEYS, type TapeTwin } from '../../infra/twins/tape';
import { dbapp } from '../../functions/dbapp';
import { loadConfig } from '../../shared/core/config';
import { lambdaHandler, type DirectEvent } from '../../shared/lambda/handler';
import { MemoryStore } from '../../shared/store/memory';
import { lambdaContext } from '../../infra/lambda-events';
import { mockSsm } from '../helpers/ssm-mock';

/** Direct Lambda invocation (scheduled jobs): `idempotency_key`, `dry_run`, `max_tokens` as event fields. */

const KEY_PARAMETER = '/tool-execution-service/dev/dbapp/api-key';
mockSsm((m) =>
  m.on(GetParameterCommand).resolves({ Parameter: { Name: KEY_PARAMETER, Type: 'SecureString', Value: SANDBOX_KEYS.owner, Version: 1, DataType: 'text' } }),
);

function setup() {
  const twin: TapeTwin = createTapeTwin();
  const writes: string[] = [];
  const fetchFor = {
    dbapp: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if ((init?.method ?? 'GET') !== 'GET') writes.push(`${init?.method} ${new URL(String(input)).pathname}`);
      return twin.fetch(input, init);
    }) as typeof fetch,
  };
  const handler = lambdaHandler(dbapp, { fetchFor, store: new MemoryStore(), config: loadConfig({}) });
  const invoke = (o: Partial<DirectEvent>) => handler({ tool: 'deleteRecord', params: { record_id: 5300 }, format: 'json', key_parameter: KEY_PARAMETER, ...o } as DirectEvent, lambdaContext());
  return { writes, invoke };
}

describe('direct invocation', () => {
  it('idempotency_key: the repeat answers the stored envelope and sends nothing', async () => {
    const { writes, invoke } = setup();
    const first = await invoke({ idempotency_key: 'nightly-2100-01-01' });
    expect(first).toMatchObject({ success: true });
    const again = await invoke({ idempotency_key: 'nightly-2100-01-01' });
    expect(again).toStrictEqual(first);
    expect(writes).toStrictEqual(['DELETE /v1/record/5300']);
    const other = await invoke({ idempotency_key: 'nightly-2100-01-01', params: { record_id: 5301 } });
    expect(other).toMatchObject({ success: false, error: { code: 'INVALID_PARAMETER', details: { parameter: 'Idempotency-Key' } } });
  });

  it('dry_run: the plan, nothing written', async () => {
    const { writes, invoke } = setup();
    const plan = await invoke({ dry_run: true });
    expect(plan).toMatchObject({ success: true, data: { dry_run: true, tool: 'dbapp/deleteRecord', writes: [{ method: 'DELETE', path: expect.stringMatching(/^\/v1\/record\/5300(\?|$)/) }] } });
    expect(writes).toStrictEqual([]);
    expect(await invoke({ dry_run: 'yes' as never })).toMatchObject({ success: false, error: { details: { parameter: 'dry_run' } } });
  });

  it('max_tokens: the text cut to fit; below the minimum refused', async () => {
    const { invoke } = setup();
    const r = await invoke({ tool: 'getRecord', format: 'text', max_tokens: 120 });
    expect(r).toMatchObject({ success: true, data: expect.stringMatching(/… cut to fit max_tokens 120/) });
    expect(await invoke({ tool: 'getRecord', format: 'text', max_tokens: 5 })).toMatchObject({ success: false, error: { details: { parameter: 'max_tokens' } } });
  });
});
