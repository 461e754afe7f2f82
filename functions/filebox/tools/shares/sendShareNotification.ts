import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { shareIdInput } from '../../params';
import { recipientsInput } from '../../shares/inputs';
import { notifyRecipients } from '../../shares/notify';

interface Sent {
  message: string;
  recipients: string[];
}

export const sendShareNotification = fileboxTool({
  name: 'sendShareNotification',
  description: 'Email a share\'s link to recipients (new recipients get their own tracked link), with an optional personal message; cc_sender copies you. The share must not be expired. Returns {message, recipients}.',
  input: z.strictObject({
    share_id: shareIdInput('The share id (s…, from listShares).'),
    recipients: recipientsInput('Email addresses to send the link to, 1-50.').min(1),
    personal_message: z.string().max(4000).optional().describe('Message in the email.'),
    cc_sender: z.boolean().default(false).describe('Copy you on the email (default false).'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ share_id, recipients, personal_message, cc_sender }, { client }): Promise<Sent> {
    await notifyRecipients(client, share_id, recipients, { message: personal_message, ccSender: cc_sender });
    return { message: `Sent share ${share_id} to ${recipients.length} recipient${recipients.length === 1 ? '' : 's'}.`, recipients };
  },
  text: (r: Sent) => `${r.message} ${r.recipients.join(', ')}`,
  example: {
    input: { share_id: 's0000051-5f1e-4b0c-9a7d-000000000051', recipients: ['daniel@ortizbuilders.example'], personal_message: 'Final version attached.' },
    result: { message: 'Sent share s0000051-5f1e-4b0c-9a7d-000000000051 to 1 recipient.', recipients: ['daniel@ortizbuilders.example'] },
  },
});
