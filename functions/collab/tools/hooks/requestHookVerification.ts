import * as z from 'zod';
import { ToolError, invalidParameter } from '../../../../shared/core/errors';
import { collabTool } from '../../tool';
import { hookIdInput } from '../../hooks/inputs';

interface Requested {
  hook_id: number;
  note: string;
}

export const requestHookVerification = collabTool({
  name: 'requestHookVerification',
  description:
    'Ask Podio to verify an inactive hook: Podio POSTs type=hook.verify, hook_id and a code to the hook URL (form fields). Pass that code to ' +
    'validateHookVerification to activate the hook. Each request sends a new code. Only for an inactive hook: an active (verified) one is refused. Returns {note}.',
  input: z.strictObject({ hook_id: hookIdInput }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ hook_id }, { client }): Promise<Requested> {
    try {
      await client.requestHookVerification(hook_id);
    } catch (err) {
      if (err instanceof ToolError && err.code === 'INVALID_PARAMETER') {
        throw invalidParameter('hook_id', 'an inactive (not yet verified) hook', `Hook ${hook_id} is already verified: it is active and receives events, so there is nothing to verify. getHooks shows each hook's status.`, { ...err.details, parameter: 'hook_id' });
      }
      throw err;
    }
    return { hook_id, note: `Podio is posting a verification code to the URL of hook ${hook_id} (field "code", with type=hook.verify); pass it to validateHookVerification.` };
  },
  text: (r: Requested) => r.note,
  example: { input: { hook_id: 40001 }, result: { hook_id: 40001, note: 'Podio is posting a verification code to the URL of hook 40001 (field "code", with type=hook.verify); pass it to validateHookVerification.' } },
});
