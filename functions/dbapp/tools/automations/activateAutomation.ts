import * as z from 'zod';
import { brokenRefusal } from '../../automations/execution';
import { automationId } from '../../automations/inputs';
import { automationLine, toAutomationSummary, type AutomationSummary } from '../../automations/summary';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

export const activateAutomation = dbappTool({
  name: 'activateAutomation',
  description:
    'Take an automation live: from now on its trigger starts it. Tape re-checks the definition and refuses a broken one (then see validateAutomation ' +
    'for the reasons). Run validateAutomation and simulateAutomation first. Activating a live automation again changes nothing.',
  input: z.strictObject({ automation_id: automationId }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ automation_id }, { client }) {
    const { automation } = await client.activateAutomation(automation_id).catch((err) => { throw brokenRefusal(err, automation_id, 'activate'); });
    return { automation: toAutomationSummary(automation) };
  },
  text: (r: { automation: AutomationSummary }) => `activated ${automationLine(r.automation)}`,
  example: { input: { automation_id: 4021 }, result: { automation: { ...EXAMPLE_SUMMARY, paused: false } } },
});
