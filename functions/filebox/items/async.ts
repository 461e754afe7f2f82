import { ToolError } from '../../../shared/core/errors';
import type { ShareFileClient } from '../client';
import type { SfAsyncOperation } from '../wire';

/** How often an AsyncOperation is polled, and how long apart, before it is reported as still running. */
export const ASYNC_POLLS = 5;
export const ASYNC_POLL_DELAY_MS = 200;

export const isAsyncOperation = (v: { 'odata.type'?: string }): v is SfAsyncOperation => /AsyncOperation$/.test(v['odata.type'] ?? '');

/** Still running after the polls: reported with its id and state, never as a finished result. */
export interface Pending {
  operation_id: string;
  state: string;
}

/**
 * Follows an AsyncOperation (ShareFile answers one for long copies and permission changes) until
 * it completes. Failed or cancelled → INTERNAL_ERROR with its id and state; still running after the
 * polls → the pending operation, which the tool reports as such.
 */
export async function followAsync(client: ShareFileClient, op: SfAsyncOperation, deadline: number): Promise<SfAsyncOperation | Pending> {
  let cur = op;
  for (let i = 0; i < ASYNC_POLLS; i++) {
    if (/^(Completed|Success)/i.test(cur.State)) return cur;
    if (/^(Failed|Cancel|Error)/i.test(cur.State)) {
      throw new ToolError('INTERNAL_ERROR', `ShareFile's ${cur.Operation ?? 'background'} operation ${cur.Id} ended in state ${cur.State}.`, { operation_id: cur.Id, state: cur.State });
    }
    if (Date.now() + ASYNC_POLL_DELAY_MS > deadline) break;
    if (i > 0) await new Promise((r) => setTimeout(r, ASYNC_POLL_DELAY_MS));
    cur = await client.getAsyncOperation(cur.Id);
  }
  if (/^(Completed|Success)/i.test(cur.State)) return cur;
  return { operation_id: cur.Id, state: cur.State };
}
