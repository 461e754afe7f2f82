import * as z from 'zod';
import { brokenRefusal, runBody, runTargetInput, type RunAccepted } from '../../automations/execution';
import { automationId } from '../../automations/inputs';
import { dbappTool } from '../../tool';

export const simulateAutomation = dbappTool({
  name: 'simulateAutomation',
  description:
    'Dry-run an automation on a record (or webhook payload) with no side effects: nothing is written or sent, paused or not. It makes a run of type ' +
    'simulation whose log shows what each step would do — listAutomationRuns with automation_id (and no status or date filter) lists it, getAutomationRun ' +
    'shows its log. Use it after validateAutomation and before activateAutomation, to see that the filter picks the right records.',
  input: z.strictObject({ automation_id: automationId, ...runTargetInput }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }): Promise<RunAccepted> {
    const body = runBody(input);
    const r = await client.simulateAutomation(input.automation_id, body).catch((err) => { throw brokenRefusal(err, input.automation_id, 'simulate'); });
    return { accepted: true as const, automation_id: input.automation_id, ...body, message: r.message ?? 'Queued.' };
  },
  text: (r: RunAccepted) =>
    `simulation of #${r.automation_id}${r.record_id ? ` on record #${r.record_id}` : ''} queued — see listAutomationRuns {"automation_id": ${r.automation_id}} (type simulation)`,
  example: {
    input: { automation_id: 4021, record_id: 5001 },
    result: { accepted: true, automation_id: 4021, record_id: 5001, message: 'Use the automation-run API to poll the run. Based on queueing and limitations, this may be delayed.' },
  },
});
