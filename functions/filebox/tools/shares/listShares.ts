import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { skipInput, summaryOnlyInput, topInput } from '../../params';
import { pageFooter, paged, type Paged } from '../../render';
import { shareLine, toShare, type Share } from '../../shares/render';

interface Shares extends Paged {
  summary_only?: true;
  shares: Share[];
}

export const listShares = fileboxTool({
  name: 'listShares',
  description:
    'List your shares, newest first: Send and Request shares with link, expiry and downloads. Expired shares are hidden unless include_expired; share_type ' +
    'narrows to one kind. Paged with top and skip. Read-only.',
  input: z.strictObject({
    share_type: z.enum(['Send', 'Request']).optional().describe('Only Send or only Request shares.'),
    top: topInput('Shares per page'),
    skip: skipInput,
    include_expired: z.boolean().default(false).describe('Include expired shares (default false).'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ share_type, top, skip, include_expired, summary_only }, { client }): Promise<Shares> {
    const feed = await client.listShares({ includeExpired: include_expired, $top: top, $skip: skip, ...(share_type ? { $filter: `ShareType eq '${share_type}'` } : {}) });
    return { ...paged(feed, skip), ...(summary_only ? { summary_only: true as const } : {}), shares: feed.value.map((s) => toShare(s, { summary: summary_only, inList: true })) };
  },
  text: (r: Shares, input) => [...r.shares.map((s) => shareLine(s)), pageFooter(r, input.skip, 'share', `no ${input.share_type ? `${input.share_type} ` : ''}shares${input.include_expired ? '' : ' (expired ones hidden: include_expired true)'}`)].join('\n'),
  example: {
    input: { share_type: 'Send' },
    result: {
      total_count: 1,
      returned_count: 1,
      has_more: false,
      shares: [{ Id: 's0000051-5f1e-4b0c-9a7d-000000000051', ShareType: 'Send', Title: 'Ortiz proposal', Uri: 'https://acme.sf-api.com/share/view/a000000051', ExpirationDate: '2027-03-05T11:00:00Z', TotalDownloads: 2, MaxDownloads: 10, CreationDate: '2026-03-05T11:00:00Z' }],
    },
  },
});
