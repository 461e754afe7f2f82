import * as z from 'zod';
import { automationId } from '../../automations/inputs';
import { automationLine, toAutomationSummary, type AutomationSummary } from '../../automations/summary';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

export const pauseAutomation = dbappTool({
  name: 'pauseAutomation',
  description:
    'Pause a live automation: its trigger no longer starts it (runAutomation and simulateAutomation still work). Always allowed, also for a broken ' +
    'automation; pausing a paused one changes nothing. activateAutomation takes it live again.',
  input: z.strictObject({ automation_id: automationId }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ automation_id }, { client }) {
    return { automation: toAutomationSummary((await client.pauseAutomation(automation_id)).automation) };
  },
  text: (r: { automation: AutomationSummary }) => `paused ${automationLine(r.automation)}`,
  example: { input: { automation_id: 4021 }, result: { automation: EXAMPLE_SUMMARY } },
});
