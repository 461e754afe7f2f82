import type { TapeWebhook } from '../wire';

/** Webhook as the spec (docs/spec.md#dbapp-webhook) shapes it; `app_id` only when Tape's answer carries it (not on verify/delete). */
export interface Webhook {
  hook_id: number;
  app_id?: number;
  status: TapeWebhook['status'];
  num_failed_executions: number;
  type: TapeWebhook['type'];
  url: string;
}

export function toWebhook(h: TapeWebhook): Webhook {
  return {
    hook_id: h.hook_id,
    ...(h.app_id !== undefined ? { app_id: h.app_id } : {}),
    status: h.status,
    num_failed_executions: h.num_failed_executions,
    type: h.type,
    url: h.url,
  };
}

/** `#1 app #7 record.create → https://… (active, 0 failed)`; `withState: false` leaves out the parenthesis. */
export function webhookLine(w: Webhook, withState = true): string {
  const app = w.app_id !== undefined ? ` app #${w.app_id}` : '';
  const state = withState ? ` (${w.status}, ${w.num_failed_executions.toLocaleString('en-US')} failed)` : '';
  return `#${w.hook_id}${app} ${w.type} → ${w.url}${state}`;
}
