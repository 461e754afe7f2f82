import * as z from 'zod';
import { brokenRefusal, runBody, runTargetInput, type RunAccepted } from '../../automations/execution';
import { automationId } from '../../automations/inputs';
import { dbappTool } from '../../tool';

export const runAutomation = dbappTool({
  name: 'runAutomation',
  description:
    'Start an automation by hand, with real side effects, even while it is paused (only a broken one is refused). Pass what its trigger expects: ' +
    'record_id for record triggers, webhook_payload (or use_last_received_webhook_payload) for webhook_received, nothing for periodic or manual-only. ' +
    'The filter still applies: a record that does not match produces no run. Runs are queued: follow them with listAutomationRuns (automation_id) and ' +
    'getAutomationRun. To try without side effects use simulateAutomation.',
  input: z.strictObject({ automation_id: automationId, ...runTargetInput }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }): Promise<RunAccepted> {
    const body = runBody(input);
    const r = await client.runAutomation(input.automation_id, body).catch((err) => { throw brokenRefusal(err, input.automation_id, 'run'); });
    return { accepted: true as const, automation_id: input.automation_id, ...body, message: r.message ?? 'Queued.' };
  },
  text: (r: RunAccepted) =>
    `run of #${r.automation_id}${r.record_id ? ` on record #${r.record_id}` : ''} queued — see listAutomationRuns {"automation_id": ${r.automation_id}}`,
  example: {
    input: { automation_id: 4021, record_id: 5001 },
    result: { accepted: true, automation_id: 4021, record_id: 5001, message: 'Use the automation-run API to poll the run. Based on queueing and limitations, this may be delayed.' },
  },
});
