import * as z from 'zod';
import { automationId } from '../../automations/inputs';
import { toValidationError, type AutomationValidationError } from '../../automations/validation';
import { dbappTool } from '../../tool';

const CAVEAT =
  'valid: true only means no reference dangles (fields, apps, views, automations it names exist and fit). It does not prove the filter selects the ' +
  'right records or that a run succeeds: simulateAutomation on a real record before relying on it.';

export const validateAutomation = dbappTool({
  name: 'validateAutomation',
  description:
    'Check, now, whether an automation\'s stored definition is executable: broken reasons with their code (e.g. filter_variable_missing), the action, ' +
    'field or app at fault and how to fix each. Read-only. Validate before activateAutomation; then simulateAutomation, because valid only proves that ' +
    'nothing it references is missing.',
  input: z.strictObject({ automation_id: automationId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ automation_id }, { client }) {
    const r = await client.validateAutomation(automation_id);
    return { valid: r.valid, errors: (r.errors ?? []).map(toValidationError), caveat: CAVEAT };
  },
  text: (r: { valid: boolean; errors: AutomationValidationError[]; caveat: string }, input) => {
    const head = r.valid ? `#${input.automation_id} valid` : `#${input.automation_id} NOT valid (${r.errors.filter((e) => !e.deactivated).length} error(s))`;
    const lines = r.errors.map((e) => {
      const at = [e.action_id && `action ${e.action_id}`, e.block_id && e.block_id !== e.action_id && `block ${e.block_id}`, e.field_id != null && `field ${e.field_id}`, e.app_id != null && `app ${e.app_id}`].filter(Boolean).join(', ');
      return `- ${e.code}${e.deactivated ? ' (in a deactivated step)' : ''}${at ? ` [${at}]` : ''}: ${e.message} → ${e.remediation}`;
    });
    return [head, ...lines, `note: ${r.caveat}`].join('\n');
  },
  example: {
    input: { automation_id: 4021 },
    result: {
      valid: false,
      errors: [
        {
          code: 'action_app_missing', message: 'An action references an app that no longer exists.', remediation: 'Point action a1b2c3 at an existing app (listApps) with updateAutomation actions.',
          deactivated: false, block_id: null, action_id: 'a1b2c3', field_id: null, app_id: 42,
        },
      ],
      caveat: CAVEAT,
    },
  },
});
