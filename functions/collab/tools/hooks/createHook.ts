import * as z from 'zod';
import { collabTool } from '../../tool';
import { checkWebhookTarget } from '../../../../shared/vendor/webhook-target';
import { checkHookType, hookRefIdInput, hookRefTypeInput, hookTypeInput } from '../../hooks/inputs';
import { VERIFY_STEPS } from '../../hooks/render';

interface Created {
  hook_id: number;
  note: string;
}

export const createHook = collabTool({
  name: 'createHook',
  description:
    'Create a hook (webhook): Podio will POST the events of type `type` on an app or space to `url` (a public https endpoint, port 443 or 80) as form fields ' +
    '(type, hook_id and the ids of the change, e.g. item_id). App events: item.create/update/delete, comment.create/delete, file.change; space events: ' +
    'app.create/update/delete, member_add, member_remove — an event of the wrong kind is refused. The hook starts inactive: call requestHookVerification, ' +
    'then validateHookVerification with the code the URL receives. Returns {hook_id, note}.',
  input: z.strictObject({ ref_type: hookRefTypeInput, ref_id: hookRefIdInput, url: z.string().min(1).max(2_000).describe('The public endpoint that receives the POSTs, e.g. "https://hooks.example.com/podio".'), type: hookTypeInput }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ ref_type, ref_id, url, type }, ctx): Promise<Created> {
    checkHookType(ref_type, type);
    await checkWebhookTarget(url, ctx, 'Podio');
    const { hook_id } = await ctx.client.createHook(ref_type, ref_id, { url, type });
    return { hook_id, note: `Hook ${hook_id} is inactive until verified: ${VERIFY_STEPS}.` };
  },
  text: (r: Created) => `created hook #${r.hook_id} — ${r.note}`,
  example: { input: { ref_type: 'app', ref_id: 8102, url: 'https://hooks.example.com/podio', type: 'item.create' }, result: { hook_id: 40001, note: `Hook 40001 is inactive until verified: ${VERIFY_STEPS}.` } },
});
