import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import type { TapeAutomationWrite } from '../../wire';
import { prepareDefinition } from '../../automations/definition';
import { actionsInput, automationId, filterInput, triggerInput } from '../../automations/inputs';
import { automationLine, toAutomationSummary, type AutomationSummary } from '../../automations/summary';
import { dbappTool } from '../../tool';
import { EXAMPLE_SUMMARY } from '../../automations/examples';

const KEYS = ['name', 'description', 'trigger', 'filter', 'actions'] as const;

export const updateAutomation = dbappTool({
  name: 'updateAutomation',
  description:
    'Change an automation: only the keys you pass change, the others stay as they are. actions replaces the whole list ([] empties it — and heals an ' +
    'automation getAutomation reports as bricked); null clears description, trigger or filter. Inputs are checked like createAutomation before the write. ' +
    'Every update keeps a revision (getAutomationRevisions); roll back by passing a revision\'s trigger, filter and actions here. Paused / live and ' +
    'broken stay as they were: run validateAutomation after changing a live automation.',
  input: z.strictObject({
    automation_id: automationId,
    name: z.string().min(1).max(5000).optional().describe('New name, 1-5000 characters (cannot be cleared).'),
    description: z.string().max(25_000).nullable().optional().describe('New description (up to 25000 characters), or null to clear it.'),
    trigger: triggerInput.nullable().optional().describe('New trigger {type, config}, or null to remove it (manual-only).'),
    filter: filterInput.nullable().optional().describe(`${filterInput.description} Omit or null: every record (update: null clears it).`),
    actions: actionsInput.optional().describe(actionsInput.description!),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run(input, ctx) {
    const { client } = ctx;
    const changed = KEYS.filter((k) => input[k] !== undefined);
    if (changed.length === 0) throw invalidParameter('name', `at least one of ${KEYS.join(', ')}`, `Nothing to update: pass one or more of ${KEYS.join(', ')}.`);
    const def = await prepareDefinition(ctx, async () => (await ctx.client.getAutomation(input.automation_id)).automation.app_id, input);
    const body: TapeAutomationWrite = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...def,
    };
    const { automation } = await client.updateAutomation(input.automation_id, body);
    return { updated: true as const, changed: [...changed], automation: toAutomationSummary(automation) };
  },
  text: (r: { updated: true; changed: string[]; automation: AutomationSummary }) => `updated ${r.changed.join(', ')} of ${automationLine(r.automation)} (a revision was kept)`,
  example: {
    input: { automation_id: 4021, description: 'Notifies the owner of new leads.' },
    result: { updated: true, changed: ['description'], automation: EXAMPLE_SUMMARY },
  },
});
