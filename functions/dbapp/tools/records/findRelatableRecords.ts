import * as z from 'zod';
import { dbappTool } from '../../tool';
import { id } from '../../../../shared/core/params';
import { recordUrl } from '../../fields';
import { orgUrl } from '../../records/page';

interface Relatable {
  record_id: number;
  app_id: number;
  title: string;
  record_url: string;
}

export const findRelatableRecords = dbappTool({
  name: 'findRelatableRecords',
  description:
    'Search the records a relation field can point to, by title: give the relation field (field_id from getApp) and a text; returns at most ' +
    '10 records {record_id, app_id, title, record_url} of the apps the field references. Use it to find the record ids to put into a ' +
    'single_relation or multi_relation field with createRecord / updateRecord. Read-only.',
  input: z.strictObject({
    field_id: id('Numeric id of a single_relation or multi_relation field (from getApp).'),
    text: z.string().max(200).default('').describe('Text the record titles must contain (case-insensitive); empty = the newest records.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ field_id, text }, ctx): Promise<{ total: number; records: Relatable[] }> {
    const [res, url] = await Promise.all([ctx.client.findRelatableRecords(field_id, text), orgUrl(ctx)]);
    return {
      total: res.total,
      records: res.records.map((r) => ({ record_id: r.record_id, app_id: r.app?.app_id ?? 0, title: r.title, record_url: recordUrl(url, r.record_id) })),
    };
  },
  text: (r, input) => {
    if (r.records.length === 0) return `no record matches "${input.text}" for relation field #${input.field_id}`;
    const lines = r.records.map((x) => `#${x.record_id} ${x.title} (app #${x.app_id})`);
    return [...lines, `${r.records.length} relatable record${r.records.length === 1 ? '' : 's'}${r.records.length >= 10 ? ' (at most 10: refine the text)' : ''} — put record ids into the field's value`].join('\n');
  },
  example: {
    input: { field_id: 9016, text: 'jonas' },
    result: { total: 1, records: [{ record_id: 5180, app_id: 901, title: 'Jonas Moreau', record_url: 'https://tapeapp.com/tape/record/5180' }] },
  },
});
