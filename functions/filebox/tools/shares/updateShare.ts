import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { expirationDateInput, isoExpiry, shareIdInput } from '../../params';
import { shareDetail, toShare, type Share } from '../../shares/render';
import { maxDownloadsInput } from '../../shares/inputs';

export const updateShare = fileboxTool({
  name: 'updateShare',
  description: 'Change a share: title, expiration_date (ISO 8601; a past date ends it), max_downloads (-1 unlimited), require_login, require_user_info, is_view_only (Send). Pass at least one. Returns the share.',
  input: z.strictObject({
    share_id: shareIdInput('The share id (s…, from listShares).'),
    title: z.string().trim().max(200).optional().describe('New title.'),
    expiration_date: expirationDateInput('New expiry; a past one ends the share.').optional(),
    max_downloads: maxDownloadsInput.optional(),
    require_login: z.boolean().optional().describe('Recipients must sign in.'),
    require_user_info: z.boolean().optional().describe('Visitors must give name and email.'),
    is_view_only: z.boolean().optional().describe('Send shares: view only, no download.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ share_id, title, expiration_date, max_downloads, require_login, require_user_info, is_view_only }, { client }): Promise<Share> {
    const body = {
      ...(title !== undefined ? { Title: title } : {}),
      ...(expiration_date !== undefined ? { ExpirationDate: isoExpiry(expiration_date) } : {}),
      ...(max_downloads !== undefined ? { MaxDownloads: max_downloads } : {}),
      ...(require_login !== undefined ? { RequireLogin: require_login } : {}),
      ...(require_user_info !== undefined ? { RequireUserInfo: require_user_info } : {}),
      ...(is_view_only !== undefined ? { IsViewOnly: is_view_only } : {}),
    };
    if (!Object.keys(body).length) throw invalidParameter('title', 'at least one field to change', 'Nothing to change: pass title, expiration_date, max_downloads, require_login, require_user_info or is_view_only.');
    return toShare(await client.updateShare(share_id, body));
  },
  text: (s: Share) => `updated ${shareDetail(s)}`,
  example: {
    input: { share_id: 's0000051-5f1e-4b0c-9a7d-000000000051', max_downloads: -1 },
    result: { Id: 's0000051-5f1e-4b0c-9a7d-000000000051', ShareType: 'Send', Title: 'Ortiz proposal', Uri: 'https://acme.sf-api.com/share/view/a000000051', ExpirationDate: '2027-03-05T11:00:00Z', TotalDownloads: 2, MaxDownloads: -1 },
  },
});
