/** Input fragments the automation tools share. */
import * as z from 'zod';
import { id } from '../../../shared/core/params';

// --- input fragments ---
export const automationId = id('Numeric id of the automation (from listAutomations or createAutomation).');

export const triggerInput = z
  .looseObject({
    type: z.string().describe('Trigger type from getAutomationCatalog, e.g. record_created, record_updated, webhook_received, automation_called.'),
    config: z.looseObject({}).describe('Settings per the type\'s config_schema ({} is valid for record_created).'),
  })
  .describe('{type, config}. Read-only config keys (a webhook_received trigger\'s webhook_url) are dropped before sending: Tape keeps the URL.');

export const filterInput = z
  .looseObject({
    operator: z.string().describe('"and" (all rows) or "or" (any row).'),
    rows: z.array(z.record(z.string(), z.unknown())).describe('Conditions {subject, operator, value?} or nested groups {operator, rows}; at least one.'),
  })
  .describe(
    'Which records run the automation: {operator: "and"|"or", rows: [...]}. A condition is {subject: {kind: "variable", source: "field", field_id, field_type}, ' +
      'operator (from getAutomationCatalog with field_type), value}. The value channel follows the field: text fields {type:"text", text:["Acme"]}; ' +
      'number / unique_id {type:"number", number:["1000"]}; relation / user {type:"ids", ids:[9001]}; category / status the same, with option ids or texts ' +
      '({type:"ids", ids:["Won"]}, resolved to ids from the app); ' +
      'date fields {type:"date", date:{operator:"minus", unit:"day", amount:["7"]}}. No value for is_empty / is_not_empty / is_completed / is_incomplete. ' +
      'Empty values and empty groups are rejected (they would match every record).',
  );

export const actionsInput = z
  .array(
    z.looseObject({
      type: z.string().describe('Action type from getAutomationCatalog, e.g. current_record_update, send_email, conditional, for_loop.'),
      config: z.looseObject({}).describe('Settings per the type\'s config_schema; required ({} for a step not yet configured).'),
    }),
  )
  .describe(
    'Ordered steps [{type, config, custom_name?, deactivate?, continue_on_error?}]. Control flow sits in config: conditional {condition, action_rows, else_action_rows?}, ' +
      'for_loop {iterable, action_rows, break_condition?, continue_condition?}. Write custom_code / custom_variable code multi-line, indented, with comments ' +
      'saying what each part does (never one long line).',
  );
