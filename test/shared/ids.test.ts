import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { numericId } from '../../shared/core/ids';
import { parseInput } from '../../shared/core/validate';
import { ToolError } from '../../shared/core/errors';
import { harness } from '../helpers/harness';
import { PODIO_DEMO, type PodioTwin } from '../../infra/twins/podio';

const json = { query: 'format=json' };
const FORMS = 'a positive integer id: 123, "123" or "#123"';

describe('numericId', () => {
  const schema = z.strictObject({ record_id: numericId('The record.'), file_ids: z.array(numericId()).optional() });
  const parse = (input: unknown) => parseInput(schema, input);
  const refusal = (input: unknown) => {
    try {
      parse(input);
    } catch (e) {
      if (e instanceof ToolError) return { code: e.code, message: e.message, ...e.details };
      throw e;
    }
    throw new Error(`accepted ${JSON.stringify(input)}`);
  };

  it('takes an id as a number, as a string of digits and as printed (#123), always giving the number', () => {
    for (const v of [123, '123', '#123', ' # 123 ', '0123']) expect(parse({ record_id: v }).record_id, JSON.stringify(v)).toBe(123);
    expect(parse({ record_id: 1, file_ids: [5, '6', '#7'] }).file_ids).toEqual([5, 6, 7]);
  });

  it('refuses anything else as INVALID_PARAMETER naming the parameter (inside arrays too) and the accepted forms', () => {
    expect(refusal({ record_id: 'abc' })).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'record_id', expected: FORMS });
    expect(refusal({ record_id: '12a' })).toMatchObject({ parameter: 'record_id', expected: FORMS });
    expect(refusal({ record_id: '1.5' })).toMatchObject({ parameter: 'record_id', expected: FORMS });
    expect(refusal({ record_id: '' })).toMatchObject({ parameter: 'record_id', expected: FORMS });
    expect(refusal({ record_id: '##1' })).toMatchObject({ parameter: 'record_id', expected: FORMS });
    expect(refusal({ record_id: 1.5 })).toMatchObject({ parameter: 'record_id', expected: 'integer' });
    expect(refusal({ record_id: -3 })).toMatchObject({ parameter: 'record_id', expected: 'number more than 0' });
    expect(refusal({ record_id: '0' })).toMatchObject({ parameter: 'record_id', expected: 'number more than 0' });
    expect(refusal({ record_id: '#0' })).toMatchObject({ parameter: 'record_id', expected: 'number more than 0' });
    expect(refusal({ record_id: '99999999999999999' })).toMatchObject({ parameter: 'record_id', expected: FORMS });
    for (const v of [true, null, [1], { id: 1 }]) expect(refusal({ record_id: v }), JSON.stringify(v)).toMatchObject({ parameter: 'record_id', expected: 'number' });
    const missing = refusal({});
    expect(missing).toMatchObject({ parameter: 'record_id', expected: 'number' });
    expect(missing.message).toMatch(/"record_id": is required/);
    const listed = refusal({ record_id: 1, file_ids: ['2', 'x', '#4'] });
    expect(listed).toMatchObject({ parameter: 'file_ids.1', expected: FORMS });
    expect(listed.message).toContain('got "x"');
  });

  it('says every accepted form in its JSON Schema (what tools/list, OpenAPI and the provider schemas show)', () => {
    const s = z.toJSONSchema(schema, { io: 'input' }) as { properties: Record<string, { anyOf?: unknown[]; items?: { anyOf?: unknown[] } }> };
    const forms = [
      { type: 'integer', exclusiveMinimum: 0 },
      { type: 'string', pattern: expect.any(String) },
    ];
    expect(s.properties.record_id!.anyOf).toMatchObject(forms);
    expect(s.properties.file_ids!.items!.anyOf).toMatchObject(forms);
    const pattern = new RegExp((s.properties.record_id!.anyOf![1] as { pattern: string }).pattern);
    for (const ok of ['123', '#123']) expect(pattern.test(ok)).toBe(true);
    for (const bad of ['abc', '1.5', '']) expect(pattern.test(bad)).toBe(false);
  });
});

describe('ids through HTTP', () => {
  it('dbapp: record, app and workspace ids as numbers, digit strings and #ids, in batches too; bad ids never reach Tape', async () => {
    const h = await harness();
    const sent = h.recordRequests('dbapp');
    for (const record_id of [5300, '5300', '#5300']) {
      const r = await h.call('dbapp/getRecord', { record_id }, json);
      expect(r.status, JSON.stringify(record_id)).toBe(200);
      expect(r.body.data.record_id).toBe(5300);
    }
    expect((await h.call('dbapp/getApp', { app_id: '902' }, json)).body.data.app_id).toBe(902);
    expect((await h.call('dbapp/getWorkspace', { workspace_id: '#2' }, json)).body.data.workspace_id).toBe(2);
    const batch = await h.call('dbapp/batchUpdateRecords', { app_id: '#902', updates: [{ record_id: '5300', fields: { amount: 11 } }, { record_id: '#5299', fields: { amount: 12 } }] }, json);
    expect(batch.status).toBe(200);
    expect(batch.body.data.items.map((i: { record_id: number; success: boolean }) => [i.record_id, i.success])).toEqual([[5300, true], [5299, true]]);
    const related = await h.call('dbapp/getRelatedRecords', { app_id: '902', record_ids: ['5300', '#5299', 5298], related_app_id: '#901' }, json);
    expect(related.status).toBe(200);

    const before = sent.length;
    const bad = await h.call('dbapp/getRecord', { record_id: 'rec-5300' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'record_id', expected: FORMS } });
    const badItem = await h.call('dbapp/batchUpdateRecords', { app_id: 902, updates: [{ record_id: '5300', fields: { amount: 1 } }, { record_id: 'x', fields: { amount: 2 } }] });
    expect(badItem.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'updates.1.record_id', expected: FORMS } });
    expect(sent.length).toBe(before);
  });

  it('collab: item, app and user ids as digit strings and #ids; file and task id lists too; bad ids never reach Podio', async () => {
    const h = await harness();
    const sent = h.recordRequests('collab');
    const deal = PODIO_DEMO.items.firstDeal;
    for (const item_id of [String(deal), `#${deal}`]) expect((await h.call('collab/getItem', { item_id }, json)).body.data.item_id).toBe(deal);
    expect((await h.call('collab/getApp', { app_id: String(PODIO_DEMO.apps.deals) }, json)).body.data.app_id).toBe(PODIO_DEMO.apps.deals);

    const twin = h.twin<PodioTwin>('collab');
    const source = [...twin.state.files.values()].find((f) => f.context?.type === 'item' && f.context.id === deal)!;
    expect(source).toBeDefined();
    const target = deal + 1;
    const copied = await h.call('collab/copyItemFiles', { source_item_id: String(deal), target_item_id: `#${target}`, file_ids: [`#${source.file_id}`] }, json);
    expect(copied.status).toBe(200);
    expect(copied.body.data.copied.map((c: { file_id: number }) => c.file_id)).toEqual([source.file_id]);
    expect(twin.state.files.get(copied.body.data.copied[0].new_file_id)!.context).toEqual({ type: 'item', id: target });

    const tasks = await h.call('collab/createTasks', { tasks: [{ text: 'one' }, { text: 'two' }] }, json);
    expect(tasks.status).toBe(200);
    const ids = tasks.body.data.tasks.map((t: { task_id: number }) => t.task_id) as number[];
    const deleted = await h.call('collab/deleteTasks', { task_ids: [String(ids[0]), `#${ids[1]}`] }, json);
    expect(deleted.status).toBe(200);
    expect((await h.call('collab/getTask', { task_id: ids[0] })).body.error.code).toBe('NOT_FOUND');

    const before = sent.length;
    const bad = await h.call('collab/getItem', { item_id: 'deal-1' });
    expect(bad.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'item_id', expected: FORMS } });
    const badList = await h.call('collab/deleteTasks', { task_ids: ['1', 'two'] });
    expect(badList.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'task_ids.1', expected: FORMS } });
    expect(sent.length).toBe(before);
  });
});
