import * as z from 'zod';
import { argumentKeys } from '../../automations/execution';
import { automationId } from '../../automations/inputs';
import { id } from '../../../../shared/core/params';
import { dbappTool } from '../../tool';

export const callAutomation = dbappTool({
  name: 'callAutomation',
  description:
    'Call an automation that has the automation_called trigger, on a record, with values for its declared input variables. It runs only if it is live ' +
    '(not paused, not broken) and its filter matches the record; otherwise the call is accepted but nothing runs. Follow the run with listAutomationRuns.',
  input: z.strictObject({
    automation_id: automationId,
    record_id: id('The record to run on (a record of the automation\'s app).'),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Values of the automation\'s custom variables, keyed by their label (e.g. {"Note": "call back"}) or internal name (var_note); labels are converted.'),
    triggered_by_record_id: id('The record that initiated the call, if any.').optional(),
    triggered_by_automation_id: id('The automation that initiated the call, if any.').optional(),
    simulation: z.boolean().optional().describe('Run as a simulation: no side effects.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }) {
    const args = input.arguments ? argumentKeys(input.arguments) : undefined;
    await client.callAutomation(input.automation_id, {
      trigger_on_record_id: input.record_id,
      ...(input.triggered_by_record_id !== undefined ? { triggered_by_record_id: input.triggered_by_record_id } : {}),
      ...(input.triggered_by_automation_id !== undefined ? { triggered_by_workflow_def_id: input.triggered_by_automation_id } : {}),
      ...(args ? { trigger_with_arguments: args } : {}),
      ...(input.simulation ? { is_simulation: true } : {}),
    });
    return { accepted: true as const, automation_id: input.automation_id, record_id: input.record_id, ...(args ? { arguments: args } : {}) };
  },
  text: (r: { accepted: true; automation_id: number; record_id: number; arguments?: Record<string, unknown> }) =>
    `call of #${r.automation_id} on record #${r.record_id} accepted${r.arguments ? ` with ${Object.keys(r.arguments).join(', ')}` : ''} — it runs only if live and its filter matches; see listAutomationRuns`,
  example: {
    input: { automation_id: 88, record_id: 5001, arguments: { Note: 'call back tomorrow' } },
    result: { accepted: true, automation_id: 88, record_id: 5001, arguments: { var_note: 'call back tomorrow' } },
  },
});
