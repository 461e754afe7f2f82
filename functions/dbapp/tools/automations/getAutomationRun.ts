import * as z from 'zod';
import { logLine, runLine, toRun, type AutomationRun, type AutomationRunLog } from '../../automations/runs';
import { dbappTool } from '../../tool';
import { EXAMPLE_RUN } from '../../automations/examples';

export const getAutomationRun = dbappTool({
  name: 'getAutomationRun',
  description:
    'One automation run with its log: the trigger, the filter and one step per executed action (status and messages; inside loops one step per ' +
    'pass). Simulation runs too. Logs land shortly after the run ends: if a step you expect is missing from a just-finished run, ask again.',
  input: z.strictObject({
    run_id: z.string().regex(/^\d{1,20}$/).describe('The run id as listAutomationRuns returns it (a 64-bit number carried as a string).'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ run_id }, { client }) {
    const { automation_run } = await client.getAutomationRun(run_id);
    return { run: toRun(automation_run), logs: automation_run.logs ?? [] };
  },
  text: (r: { run: AutomationRun; logs: AutomationRunLog[] }) => [runLine(r.run), ...r.logs.map(logLine), `${r.logs.length} log step(s)`].join('\n'),
  example: {
    input: { run_id: '9001' },
    result: {
      run: EXAMPLE_RUN,
      logs: [
        { id: '9001-trigger', type: 'trigger', status: 'success', label: 'Trigger', messages: [], action_id: null, record_id: 5001, logged_at: '2024-01-18 08:12:04' },
        { id: '9001-filter', type: 'filter', status: 'success', label: 'Filter', messages: [], action_id: null, record_id: 5001, logged_at: '2024-01-18 08:12:05' },
        {
          id: '9001-action-a1b2c3-1', type: 'action', status: 'success', label: 'Send email', messages: [{ message: 'Email sent to dan@tapeapp.com', level: 'success' }],
          action_id: 'a1b2c3', record_id: 5001, logged_at: '2024-01-18 08:12:07',
        },
      ],
    },
  },
});
