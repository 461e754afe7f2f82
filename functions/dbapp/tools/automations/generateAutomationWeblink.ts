import * as z from 'zod';
import { argumentKeys } from '../../automations/execution';
import { automationId } from '../../automations/inputs';
import { id } from '../../../../shared/core/params';
import { dbappTool } from '../../tool';

const EXPIRATIONS = { never: 'NEVER', one_day: 'ONE_DAY', one_week: 'ONE_WEEK', one_month: 'ONE_MONTH', one_year: 'ONE_YEAR' } as const;

export const generateAutomationWeblink = dbappTool({
  name: 'generateAutomationWeblink',
  description:
    'Mint a public link that, when clicked, runs an automation with the weblink_clicked trigger on one record. Hand the url out as it is. ' +
    'Optional arguments fill the automation\'s custom variables; the link can expire and can be limited to its first click.',
  input: z.strictObject({
    automation_id: automationId.describe('The weblink_clicked automation the link runs.'),
    record_id: id('The record the link runs on.'),
    arguments: z.record(z.string(), z.unknown()).optional().describe('Values of the automation\'s custom variables, keyed by label or internal name (var_…).'),
    expiration: z.enum(['never', 'one_day', 'one_week', 'one_month', 'one_year']).optional().describe('How long the link works (Tape\'s default when omitted).'),
    expire_after_first_click: z.boolean().optional().describe('Invalidate the link after its first click.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }) {
    const r = await client.generateAutomationWeblink({
      trigger_workflow_def_id: input.automation_id,
      trigger_on_record_id: input.record_id,
      ...(input.arguments ? { trigger_with_arguments: argumentKeys(input.arguments) } : {}),
      ...(input.expiration ? { expiration_type: EXPIRATIONS[input.expiration] } : {}),
      ...(input.expire_after_first_click !== undefined ? { expire_after_first_click: input.expire_after_first_click } : {}),
    });
    return { url: r.trigger_client_url, token: r.trigger_token, automation_id: input.automation_id, record_id: input.record_id };
  },
  text: (r: { url: string; token: string; automation_id: number; record_id: number }) => `weblink for #${r.automation_id} on record #${r.record_id}: ${r.url}`,
  example: {
    input: { automation_id: 91, record_id: 5001, expiration: 'one_week' },
    result: {
      url: 'https://weblink.tapeapp.com/trigger/3f2b1c94-7d6e-4a51-9b0f-2c8e5d41a7b3',
      token: '3f2b1c94-7d6e-4a51-9b0f-2c8e5d41a7b3',
      automation_id: 91,
      record_id: 5001,
    },
  },
});
