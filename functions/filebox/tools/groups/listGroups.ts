import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { skipInput, summaryOnlyInput, topInput } from '../../params';
import { pageFooter, paged, type Paged } from '../../render';
import { groupText, toGroup, type Group } from '../../groups/render';

interface Groups extends Paged {
  summary_only?: true;
  groups: Group[];
}

export const listGroups = fileboxTool({
  name: 'listGroups',
  description: 'List the distribution groups you can see (shared ones and your own), by name; is_shared narrows to shared or personal groups. Paged with top and skip. Employees only. Read-only.',
  input: z.strictObject({
    top: topInput('Groups per page'),
    skip: skipInput,
    is_shared: z.boolean().optional().describe('true: shared groups only; false: personal groups only; omit for both.'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ top, skip, is_shared, summary_only }, { client }): Promise<Groups> {
    const feed = await client.listGroups({ $top: top, $skip: skip, ...(is_shared !== undefined ? { $filter: `IsShared eq ${is_shared}` } : {}) });
    return { ...paged(feed, skip), ...(summary_only ? { summary_only: true as const } : {}), groups: feed.value.map((g) => toGroup(g, summary_only)) };
  },
  text: (r: Groups, input) => [...r.groups.map(groupText), pageFooter(r, input.skip, 'group')].join('\n'),
  example: {
    input: {},
    result: { total_count: 1, returned_count: 1, has_more: false, groups: [{ Id: 'g0000047-5f1e-4b0c-9a7d-000000000047', Name: 'Partners', IsShared: true, NumberOfContacts: 2 }] },
  },
});
