import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, folderIdInput } from '../../params';
import { checkTarget } from '../../items/targets';
import { shareDetail, toShare, type Share } from '../../shares/render';
import { maxDownloadsInput, recipientsInput } from '../../shares/inputs';
import { notifyRecipients } from '../../shares/notify';

const DAY = 86_400_000;

/** The share itself, with what else happened beside its fields. */
type Created = Share & {
  /** Recipients the share was emailed to. */
  notified: string[];
  /** Parameters that do not apply to this share type and were not sent. */
  ignored?: string[];
};

export const createShare = fileboxTool({
  name: 'createShare',
  description:
    'Create a share link: Send (items others download through the link) or Request (a link others use to upload into the folder parent_id; items ' +
    'are ignored). expiration_days sets the expiry (default: the account\'s), max_downloads limits downloads per link (-1 unlimited). recipients get the ' +
    'link by email with personal_message (cc_sender copies you). Returns the share, with notified (the recipients emailed) and ignored (parameters ' +
    'that do not apply to this share type) beside its fields.',
  input: z.strictObject({
    share_type: z.enum(['Send', 'Request']).describe('Send: share files for download; Request: ask for uploads into a folder.'),
    items: z.array(concreteItemIdInput('A file (fi…) or folder (fo…) id.')).max(100).optional().describe('Send: the items to share (required for Send), at most 100.'),
    parent_id: folderIdInput('Request: the folder uploads go to (required for Request): a folder id (fo…), "home" or "box".').optional(),
    title: z.string().trim().max(200).optional().describe('Title shown to recipients.'),
    expiration_days: z.number().int().min(1).max(3650).optional().describe('Days until the link expires, 1-3650 (default: the account\'s setting).'),
    max_downloads: maxDownloadsInput.optional(),
    require_login: z.boolean().default(false).describe('Recipients must sign in to ShareFile (default false).'),
    require_user_info: z.boolean().default(false).describe('Visitors must give name and email (default false).'),
    is_view_only: z.boolean().default(false).describe('Send: files can be viewed, not downloaded (default false).'),
    notify_on_download: z.boolean().default(false).describe('Send: email you on each download (default false).'),
    notify_on_upload: z.boolean().default(false).describe('Request: email you on each upload (default false).'),
    cc_sender: z.boolean().default(false).describe('Copy you on the email to recipients (default false).'),
    recipients: recipientsInput('Email addresses to send the link to, at most 50.').optional(),
    personal_message: z.string().max(4000).optional().describe('Message in the email to recipients.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }): Promise<Created> {
    const send = input.share_type === 'Send';
    const ignored: string[] = [];
    if (send && !input.items?.length) throw invalidParameter('items', 'at least one item id for a Send share', 'Invalid parameter "items": a Send share needs the ids of the items to share.');
    if (!send) {
      if (!input.parent_id) throw invalidParameter('parent_id', 'a folder id for a Request share', 'Invalid parameter "parent_id": a Request share needs the folder uploads go to.');
      checkTarget('parent_id', input.parent_id, { allowShared: false });
      if (input.items) ignored.push('items');
      if (input.is_view_only) ignored.push('is_view_only');
      if (input.notify_on_download) ignored.push('notify_on_download');
      if (input.max_downloads !== undefined) ignored.push('max_downloads');
    } else {
      if (input.parent_id) ignored.push('parent_id');
      if (input.notify_on_upload) ignored.push('notify_on_upload');
    }
    if (input.personal_message && !input.recipients?.length) throw invalidParameter('recipients', 'email addresses to send personal_message to', 'Invalid parameter "recipients": personal_message needs recipients.');
    const w = await client.createShare({
      ShareType: input.share_type,
      ...(input.title ? { Title: input.title } : {}),
      ...(send ? { Items: input.items!.map((Id) => ({ Id })), IsViewOnly: input.is_view_only, NotifyOnDownload: input.notify_on_download } : { Parent: { Id: input.parent_id! }, NotifyOnUpload: input.notify_on_upload }),
      ...(send && input.max_downloads !== undefined ? { MaxDownloads: input.max_downloads } : {}),
      ...(input.expiration_days !== undefined ? { ExpirationDate: new Date(Date.now() + input.expiration_days * DAY).toISOString() } : {}),
      RequireLogin: input.require_login,
      RequireUserInfo: input.require_user_info,
    });
    const recipients = input.recipients ?? [];
    const share = recipients.length ? await notifyRecipients(client, w.Id, recipients, { message: input.personal_message, ccSender: input.cc_sender }) : w;
    return { ...toShare({ ...share, Items: w.Items }), notified: recipients, ...(ignored.length ? { ignored } : {}) };
  },
  text: (r: Created) =>
    [
      `created ${shareDetail(r)}`,
      ...(r.notified.length ? [`emailed to ${r.notified.join(', ')}`] : []),
      ...(r.ignored ? [`ignored for a ${r.ShareType} share: ${r.ignored.join(', ')}`] : []),
    ].join('\n'),
  example: {
    input: { share_type: 'Send', items: ['fi000033-5f1e-4b0c-9a7d-000000000033'], expiration_days: 14, recipients: ['daniel@ortizbuilders.example'] },
    result: {
      Id: 's00003ea-5f1e-4b0c-9a7d-0000000003ea',
      ShareType: 'Send',
      Title: 'Files from Olivia Bennett',
      Uri: 'https://acme.sf-api.com/share/view/a0000003eb',
      ExpirationDate: '2026-03-24T09:00:00Z',
      TotalDownloads: 0,
      MaxDownloads: -1,
      notified: ['daniel@ortizbuilders.example'],
    },
  },
});
