import * as z from 'zod';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { hookRefIdInput, hookRefTypeInput } from '../../hooks/inputs';
import { hookLine, toHook, VERIFY_STEPS, type Hook } from '../../hooks/render';

export const getHooks = collabTool({
  name: 'getHooks',
  description:
    'List the hooks (webhooks) of an app or a space: hook_id, event type, URL and status. Only active hooks receive events; an inactive one needs ' +
    'requestHookVerification then validateHookVerification. Read-only.',
  input: z.strictObject({ ref_type: hookRefTypeInput, ref_id: hookRefIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ ref_type, ref_id }, { client }): Promise<Hook[]> {
    return (await client.listHooks(ref_type, ref_id)).map(toHook);
  },
  text: (hooks: Hook[], input) => {
    if (!hooks.length) return `no hooks on ${input.ref_type} #${input.ref_id} — createHook adds one`;
    const inactive = hooks.filter((h) => h.status === 'inactive').length;
    return [...hooks.map(hookLine), `${plural(hooks.length, 'hook')} on ${input.ref_type} #${input.ref_id}${inactive ? `; ${inactive} inactive: ${VERIFY_STEPS}` : ''}`].join('\n');
  },
  example: {
    input: { ref_type: 'app', ref_id: 8102 },
    result: [{ hook_id: 40001, status: 'active', type: 'item.create', url: 'https://hooks.example.com/podio', created_by: { type: 'user', id: 1001 }, created_on: '2025-03-04 08:00:00' }],
  },
});
