import * as z from 'zod';
import { automationId } from '../../automations/inputs';
import { automationLine, toAutomationSummary, type AutomationSummary } from '../../automations/summary';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

export const deleteAutomation = dbappTool({
  name: 'deleteAutomation',
  description:
    'Delete an automation: it stops at once, leaves every listing and can no longer be read, its runs included; there is no restore through the API. ' +
    'To stop it temporarily use pauseAutomation instead. Returns the automation as it was.',
  input: z.strictObject({ automation_id: automationId }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ automation_id }, { client }) {
    return { deleted: true as const, automation: toAutomationSummary((await client.deleteAutomation(automation_id)).automation) };
  },
  text: (r: { deleted: true; automation: AutomationSummary }) => `deleted ${automationLine(r.automation)}`,
  example: { input: { automation_id: 4021 }, result: { deleted: true, automation: EXAMPLE_SUMMARY } },
});
