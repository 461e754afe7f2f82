import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { hookIdInput } from '../../hooks/inputs';

interface Validated {
  hook_id: number;
  note: string;
}

export const validateHookVerification = collabTool({
  name: 'validateHookVerification',
  description:
    'Activate a hook with the verification code its URL received after requestHookVerification. From then on the hook receives its events. ' +
    'A wrong or stale code is refused: request a new verification. Returns {note}.',
  input: z.strictObject({ hook_id: hookIdInput, code: z.string().trim().min(1).max(200).describe('The code Podio posted to the hook URL (form field "code").') }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ hook_id, code }, { client }): Promise<Validated> {
    try {
      await client.validateHookVerification(hook_id, code);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') {
        throw invalidParameter('code', 'the code of the latest verification request', `Parameter "code": Podio did not accept it for hook ${hook_id} (${err.message}). Call requestHookVerification again and use the new code.`);
      }
      throw err;
    }
    return { hook_id, note: `Hook ${hook_id} is active: it receives its events from now on.` };
  },
  text: (r: Validated) => r.note,
  example: { input: { hook_id: 40001, code: '3f9a1c2b7d4e6f80' }, result: { hook_id: 40001, note: 'Hook 40001 is active: it receives its events from now on.' } },
});
