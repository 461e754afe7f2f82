import * as z from 'zod';
import { checkTrigger, checkTypesAndKeys } from '../../automations/definition';
import { automationId, triggerInput } from '../../automations/params';
import { automationLine, toAutomationSummary, type AutomationSummary } from '../../automations/summary';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

export const replaceAutomationTrigger = dbappTool({
  name: 'replaceAutomationTrigger',
  description:
    'Set or replace only the trigger of an automation ({type, config}, types and config schemas from getAutomationCatalog); filter and actions stay. ' +
    'A revision is kept. To remove the trigger use updateAutomation with trigger: null.',
  input: z.strictObject({
    automation_id: automationId,
    trigger: triggerInput.describe('The new trigger {type, config}, e.g. {"type": "record_updated", "config": {"trigger_on_changes_field_ids": [513]}}.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ automation_id, trigger }, ctx) {
    const checked = checkTrigger(trigger);
    await checkTypesAndKeys(ctx, { trigger: checked });
    return { automation: toAutomationSummary((await ctx.client.replaceAutomationTrigger(automation_id, checked)).automation) };
  },
  text: (r: { automation: AutomationSummary }) => `trigger replaced: ${automationLine(r.automation)}`,
  example: { input: { automation_id: 4021, trigger: { type: 'record_updated', config: {} } }, result: { automation: { ...EXAMPLE_SUMMARY, trigger_type: 'record_updated' } } },
});
