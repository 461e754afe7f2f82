import * as z from 'zod';
import { automationId } from '../../automations/inputs';
import { automationText, bricked, brickedText, isUnreadable, toAutomation, type AutomationFull, type AutomationSummary, type BrickedAutomation } from '../../automations/summary';
import { dbappTool } from '../../tool';
import { EXAMPLE_FULL } from '../../automations/examples';

export const getAutomation = dbappTool({
  name: 'getAutomation',
  description:
    'One automation: its summary (trigger type, action types, paused, broken), or with verbose the full definition (description, trigger, filter, ' +
    'actions) to edit or copy. An automation whose stored definition cannot be read answers error_code automation_unserializable with bricked: true ' +
    'and the heal recipe (updateAutomation with actions: []) instead of a server error.',
  input: z.strictObject({
    automation_id: automationId,
    verbose: z.boolean().default(false).describe('Return the full definition (description, trigger, filter, actions), not only the summary.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ automation_id, verbose }, { client }): Promise<AutomationSummary | AutomationFull | BrickedAutomation> {
    try {
      return toAutomation((await client.getAutomation(automation_id)).automation, verbose);
    } catch (err) {
      if (isUnreadable(err)) return bricked(automation_id);
      throw err;
    }
  },
  text: (r) => ('bricked' in r ? brickedText(r) : automationText(r)),
  example: { input: { automation_id: 4021, verbose: true }, result: EXAMPLE_FULL },
});
