/** Manual runs, simulations and calls (docs/vendors/tape.md#automation-execution, #automation-advanced): their bodies and answers. */
import * as z from 'zod';
import { ToolError, invalidParameter } from '../../../shared/core/errors';
import { id } from '../../../shared/core/params';

// --- manual run / simulate (docs/vendors/tape.md#automation-execution): the body follows the automation's trigger ---
export const runTargetInput = {
  record_id: id('The record to run on: required for record-based triggers (record_created, record_updated, automation_called, …). Must be a live record of the automation\'s app.').optional(),
  webhook_payload: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .optional()
    .describe('webhook_received automations: the payload to run with (an object or a string).'),
  use_last_received_webhook_payload: z.boolean().optional().describe('webhook_received automations: run with the payload the webhook last received.'),
};

export function runBody(input: { record_id?: number; webhook_payload?: unknown; use_last_received_webhook_payload?: boolean }) {
  const given = (['record_id', 'webhook_payload', 'use_last_received_webhook_payload'] as const).filter((k) => input[k] !== undefined);
  if (given.length > 1) {
    throw invalidParameter(given[1]!, `only one of ${given.join(', ')}`, 'Pass record_id (record triggers), or webhook_payload / use_last_received_webhook_payload (webhook_received), or nothing (periodic or manual-only).');
  }
  return {
    ...(input.record_id !== undefined ? { record_id: input.record_id } : {}),
    ...(input.webhook_payload !== undefined ? { webhook_payload: input.webhook_payload } : {}),
    ...(input.use_last_received_webhook_payload ? { use_last_received_webhook_payload: true } : {}),
  };
}

/** Tape answers 409 for a broken automation: a fixable input problem, said in words that lead to the fix. */
export function brokenRefusal(err: unknown, automationId: number, what: string): unknown {
  if (err instanceof ToolError && err.details.upstream_status === 409) {
    return invalidParameter('automation_id', 'an automation that is not broken', `Tape refused to ${what} automation ${automationId}: it is broken. validateAutomation lists the reasons; fix them with updateAutomation and try again.`, err.details);
  }
  return err;
}

/** Labels of declared variables → the internal names calls expect (docs/vendors/tape.md#automation-advanced): var_ + lower-case, other characters as "_". */
export function argumentKeys(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k.startsWith('var_') ? k : `var_${k.toLowerCase().replace(/[^0-9a-zA-Z_$]/g, '_')}`, v]));
}

/** What runAutomation / simulateAutomation answer: Tape queues the run and returns no run id. */
export interface RunAccepted {
  accepted: true;
  automation_id: number;
  record_id?: number;
  webhook_payload?: unknown;
  use_last_received_webhook_payload?: boolean;
  message: string;
}
