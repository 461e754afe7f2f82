import * as z from 'zod';
import type { TapeAutomationWrite } from '../../wire';
import { prepareDefinition } from '../../automations/definition';
import { actionsInput, filterInput, triggerInput } from '../../automations/inputs';
import { automationLine, toAutomationSummary, type AutomationSummary } from '../../automations/summary';
import { appId } from '../../params';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

const NOTE = 'Created paused. Next: validateAutomation, then simulateAutomation on a real record, then activateAutomation to take it live.';

export const createAutomation = dbappTool({
  name: 'createAutomation',
  description:
    'Create an automation in a database app: when (trigger), on which records (filter) and what it does (actions, in order). Look the types, config ' +
    'schemas and filter operators up with getAutomationCatalog first, and field ids with getApp. The trigger key is required: {type, config}, or null ' +
    'for an automation that only runs when started by hand. Trigger, filter and actions are checked before anything is sent: wrong shapes, filter values ' +
    'on the wrong channel for their field, empty values and empty groups are refused with the path at fault. Write the code of custom_code and ' +
    'custom_variable actions multi-line, indented and commented (one statement per line, a comment saying what each block does). ' +
    'The new automation is paused: validate, simulate, then activateAutomation.',
  input: z.strictObject({
    app_id: appId,
    name: z.string().min(1).max(5000).describe('Name, 1-5000 characters.'),
    description: z.string().max(25_000).optional().describe('What the automation is for, up to 25000 characters.'),
    trigger: triggerInput
      .nullable()
      .describe('Required key: {type, config} (e.g. {"type": "record_created", "config": {}}), or null for a manual-only automation (started with runAutomation).'),
    filter: filterInput.nullable().optional().describe(`${filterInput.description} Omit or null: every record (update: null clears it).`),
    actions: actionsInput.optional().describe(actionsInput.description!),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, ctx) {
    const { client } = ctx;
    const def = await prepareDefinition(ctx, async () => input.app_id, input);
    // Tape's create takes no nulls: a manual-only automation and an unfiltered one simply leave the key out.
    const body: TapeAutomationWrite = {
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(def.trigger ? { trigger: def.trigger } : {}),
      ...(def.filter ? { filter: def.filter } : {}),
      ...(def.actions ? { actions: def.actions } : {}),
    };
    const { automation } = await client.createAutomation(input.app_id, body);
    return { created: true as const, automation: toAutomationSummary(automation), note: NOTE };
  },
  text: (r: { created: true; automation: AutomationSummary; note: string }) => `created ${automationLine(r.automation)} in app #${r.automation.app_id}\n${r.note}`,
  example: {
    input: {
      app_id: 87,
      name: 'Email the owner on a new high-priority lead',
      trigger: { type: 'record_created', config: {} },
      filter: {
        operator: 'and',
        rows: [{ subject: { kind: 'variable', source: 'field', field_id: 512, field_type: 'single_category' }, operator: 'is_any_of', value: { type: 'ids', ids: [9001] } }],
      },
      actions: [{ type: 'send_email', config: { subject: ['A new lead was created'] } }],
    },
    result: { created: true, automation: EXAMPLE_SUMMARY, note: NOTE },
  },
});
