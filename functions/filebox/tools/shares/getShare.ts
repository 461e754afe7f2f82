import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { shareIdInput, summaryOnlyInput } from '../../params';
import { shareDetail, toShare, type Share } from '../../shares/render';

export const getShare = fileboxTool({
  name: 'getShare',
  description:
    'Get a share: type (Send: files to download; Request: a link to upload files), title, link (Uri), expiry, download count and limit, settings; ' +
    'include_items adds the shared files, include_recipients who it was sent to and their downloads. Read-only.',
  input: z.strictObject({
    share_id: shareIdInput('The share id (s…, from listShares).'),
    include_items: z.boolean().default(false).describe('Add the shared items (Send shares).'),
    include_recipients: z.boolean().default(false).describe('Add the recipients and their download counts.'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ share_id, include_items, include_recipients, summary_only }, { client }): Promise<Share> {
    const expand = [include_items ? 'Items' : '', include_recipients ? 'Recipients' : ''].filter(Boolean).join(',');
    return toShare(await client.getShare(share_id, expand || undefined), { summary: summary_only });
  },
  text: (s: Share) => shareDetail(s),
  example: {
    input: { share_id: 's0000051-5f1e-4b0c-9a7d-000000000051' },
    result: { Id: 's0000051-5f1e-4b0c-9a7d-000000000051', ShareType: 'Send', Title: 'Ortiz proposal', Uri: 'https://acme.sf-api.com/share/view/a000000051', ExpirationDate: '2027-03-05T11:00:00Z', TotalDownloads: 2, MaxDownloads: 10 },
  },
});
