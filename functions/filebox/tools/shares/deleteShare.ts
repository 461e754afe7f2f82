import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { shareIdInput } from '../../params';

interface Deleted {
  message: string;
}

export const deleteShare = fileboxTool({
  name: 'deleteShare',
  description: 'Delete a share: its link and every recipient link stop working at once (the shared files stay). Returns {message}.',
  input: z.strictObject({ share_id: shareIdInput('The share id (s…, from listShares).') }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ share_id }, { client }): Promise<Deleted> {
    await client.deleteShare(share_id);
    return { message: `Deleted share ${share_id}; its links no longer work.` };
  },
  text: (r: Deleted) => r.message,
  example: { input: { share_id: 's0000053-5f1e-4b0c-9a7d-000000000053' }, result: { message: 'Deleted share s0000053-5f1e-4b0c-9a7d-000000000053; its links no longer work.' } },
});
