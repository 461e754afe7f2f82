import * as z from 'zod';
import { collabTool } from '../../tool';
import { hookIdInput } from '../../hooks/inputs';

interface Deleted {
  hook_id: number;
  note: string;
}

export const deleteHook = collabTool({
  name: 'deleteHook',
  description: 'Delete a hook: it stops receiving events at once (events still queued are not sent). Irreversible: a new hook must be created and verified again. Returns {note}.',
  input: z.strictObject({ hook_id: hookIdInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ hook_id }, { client }): Promise<Deleted> {
    await client.deleteHook(hook_id);
    return { hook_id, note: `Hook ${hook_id} deleted; its URL receives no more events.` };
  },
  text: (r: Deleted) => r.note,
  example: { input: { hook_id: 40001 }, result: { hook_id: 40001, note: 'Hook 40001 deleted; its URL receives no more events.' } },
});
