/**
 * What only a person can give a tool call, asked through a 2026-07-28 client by multi round-trip
 * input (shared/mcp/input.ts, docs/mcp.md#multi-round-trip-input-mrtr):
 *
 * - **a connection's sign-in**: the caller's connection is missing or needs its end user to sign
 *   in again → a URL-mode elicitation of the connect link (a client that declared URL
 *   elicitation); the retry after the sign-in runs the call;
 * - **the approval of a held write** (a key's `approval` policy, shared/identity/approvals.ts) →
 *   a form elicitation whose message is the dry-run preview (a client that declared form
 *   elicitation). Accept: the person answering approves the request and the retry runs the call
 *   once, with the approval's id, through the same single-use check as REST's `Approval-Id`.
 *   Decline or cancel: the request is rejected, nothing runs, and the result says so.
 *
 * Inside a task of the Tasks extension (https://modelcontextprotocol.io/extensions/tasks/overview)
 * the same requests are asked through the task: it moves to `input_required`, `tasks/get` shows the
 * form and `tasks/update` carries the answer (shared/mcp/tasks.ts keeps the round, its state stays
 * in the Store, never with the client). Accept runs the write once, as above; decline or cancel
 * rejects the request and ends the task `cancelled`, its statusMessage saying why (the extension
 * keeps `failed` for JSON-RPC errors).
 *
 * Outside tasks the approval's id travels in the sealed requestState, bound to the caller, the tool and the
 * exact arguments (a tampered, replayed or foreign state does not open, or finds the request no
 * longer pending, and nothing runs). Clients without the capability, legacy clients, REST and
 * direct invocation get the error with the link in `details`, as before.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { failure } from '../core/envelope';
import { ToolError } from '../core/errors';
import type { Runtime } from '../core/runtime';
import type { CatalogEntry } from '../catalog/catalog';
import { isObject } from '../core/is-object';
import { callTool, errorResult, type CallMeta, type ToolCaller } from './call';
import { askForm, canElicit, InputRequired, type InputRound } from './input';
import { TaskWithdrawn } from './tasks';

/** The key of each request in `inputRequests` (and of its answer in `inputResponses`). */
const CONNECT = 'connect';
const APPROVAL = 'approval';

/** What a round keeps for the next one (sealed): the connection asked about, or the approval asked for and its form's message. */
type Kept = { connection: string | null } | { approval: string; message: string };

const approvalOf = (state: unknown): { approval: string; message: string } | undefined =>
  isObject(state) && typeof state.approval === 'string' && typeof state.message === 'string' ? { approval: state.approval, message: state.message } : undefined;

/** An approval's form: nothing to fill in; accepting is approving (https://modelcontextprotocol.io/specification/2026-07-28/client/elicitation). */
const APPROVAL_FORM = { type: 'object', properties: {} } as const;

/**
 * One tools/call of a 2026-07-28 client: the call, or the `input_required` round that asks a
 * person for what the call waits on. Thrown InputRequired is answered by the core (a round of
 * multi round-trip input), or by the task (`inTask`: the task waits for tasks/update).
 */
export async function callAskingPerson(rt: Runtime, entry: CatalogEntry, caller: ToolCaller, args: Record<string, unknown>, meta: CallMeta, round: InputRound, inTask = false): Promise<CallToolResult> {
  let run = meta;
  const asked = approvalOf(round.state);
  if (asked) {
    // The state is ours (it opened for this caller, tool and arguments): its id is the request made of this very call.
    const answer = askForm(round, APPROVAL, { message: asked.message, requestedSchema: APPROVAL_FORM }, asked satisfies Kept);
    const gate = await rt.approvals();
    if (answer.action !== 'accept') {
      await gate.answer(asked.approval, 'rejected', 'elicitation', 'mcp');
      const declined = new ToolError(
        'FORBIDDEN',
        `The person ${answer.action === 'decline' ? 'declined' : 'cancelled'} the approval of ${entry.platform}/${entry.name}: it did not run and nothing was sent to the vendor. Approval "${asked.approval}" is rejected; call again to ask anew.`,
        { reason: 'approval_rejected', approval_id: asked.approval },
      );
      if (inTask) throw new TaskWithdrawn(declined.message);
      return errorResult(failure(declined, { platform: entry.platform, tool: entry.name }).body);
    }
    // Approved by the person answering (undefined when it was no longer pending: the run below says why).
    await gate.answer(asked.approval, 'approved', 'elicitation', 'mcp');
    run = { ...meta, approval_id: asked.approval };
  }
  const { result, error } = await callTool(rt, entry, caller, args, run);
  const details = isObject(error?.details) ? error.details : {};
  if (error?.code === 'UNAUTHORIZED' && canElicit(round.capabilities, 'url')) connectLink(entry, details, round);
  if (error?.code === 'FORBIDDEN' && details.reason === 'approval_required' && typeof details.approval_id === 'string' && canElicit(round.capabilities, 'form')) {
    const message =
      `Approve this write? ${entry.platform}/${entry.name} runs only once a person approves it; accept to run it once, decline and nothing is sent.\n` +
      (typeof details.preview === 'string' ? details.preview : '');
    // Asked afresh (an answer sent without this round's state is no answer to it).
    throw new InputRequired({ [APPROVAL]: { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: APPROVAL_FORM } } }, { approval: details.approval_id, message } satisfies Kept);
  }
  return result;
}

/**
 * A connection that is missing or needs its end user to sign in again: a URL-mode elicitation of
 * the connect link (the call did nothing at the vendor: no credential, or the vendor refused it).
 * Returns for any other UNAUTHORIZED.
 */
function connectLink(entry: CatalogEntry, details: Record<string, unknown>, round: InputRound): void {
  if (typeof details.reconnect_url !== 'string' || (details.status !== 'pending' && details.status !== 'needs_reauth')) return;
  const again = round.responses[CONNECT] !== undefined;
  const message = details.status === 'pending'
    ? `Connect your ${entry.platform} account to run ${entry.name}: sign in at the link, then continue.`
    : `Your ${entry.platform} connection needs you to sign in again before ${entry.name} can run: sign in at the link, then continue.`;
  throw new InputRequired(
    { [CONNECT]: { method: 'elicitation/create', params: { mode: 'url', message: again ? `The connection is not active yet. ${message}` : message, url: details.reconnect_url } } },
    { connection: typeof details.connection_id === 'string' ? details.connection_id : null } satisfies Kept,
  );
}
