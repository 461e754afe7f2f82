/**
 * Multi round-trip requests (MRTR, revision 2026-07-28:
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr). A call that
 * needs what only a person can give answers `input_required` with the requests for it; the client
 * retries the same call with `inputResponses` and the `requestState` it got.
 *
 * A tool (or the call path around it) asks by throwing `InputRequired`; `askForm` is the helper
 * for a form elicitation. The protocol core (shared/mcp/server.ts) seals the state it hands
 * out with the identity vault (shared/identity/vault.ts, AES-256-GCM): bound to the caller, the
 * tool and a hash of the exact arguments, with a short expiry. A state that was tampered with, has
 * expired, or was minted for another caller, tool or arguments does not open, and nothing runs.
 */
import { identityOf } from '../identity';
import type { Sealed } from '../identity/vault';
import { fingerprint } from '../core/idempotency';
import type { Runtime } from '../core/runtime';
import { INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, type ClientCapabilities } from './revision';
import { RpcError } from './rpc';

/** One request to the client: an elicitation, a sampling or a roots listing, as the revision's InputRequest. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params?: Record<string, unknown>;
}

/** What the client answered in earlier rounds of this call, and what it declared it can do. */
export interface InputRound {
  /** The client's answers, by the keys of the requests they answer. */
  responses: Readonly<Record<string, unknown>>;
  /** What the server kept for itself in the previous round (opened from `requestState`). */
  state: unknown;
  capabilities: ClientCapabilities;
}

/** Thrown by a call that needs input: the core answers it as an `input_required` result. */
export class InputRequired extends Error {
  constructor(
    readonly inputRequests: Readonly<Record<string, InputRequest>>,
    /** Kept for the next round (sealed into `requestState`); any JSON value. */
    readonly state?: unknown,
  ) {
    super('input required');
  }
}

/** Whether the client declared an elicitation mode ("form" also when it declared elicitation with no mode, as the revision reads it). */
export function canElicit(caps: ClientCapabilities | undefined, mode: 'form' | 'url'): boolean {
  const e = caps?.elicitation;
  if (e === undefined || e === null || typeof e !== 'object') return false;
  if (mode === 'url') return e.url !== undefined;
  return e.form !== undefined || e.url === undefined;
}

/** The refusal of a call that needs a capability the client did not declare (-32021, HTTP 400). */
export const missingCapability = (capabilities: Record<string, object>, why: string) =>
  new RpcError(MISSING_CLIENT_CAPABILITY, `Missing required client capability: ${why}`, { requiredCapabilities: capabilities });

/**
 * Asks the person through the client for a form (an `elicitation/create` of `requestedSchema`),
 * e.g. "approve this write?": answers the client's ElicitResult (`{action: "accept", content}`,
 * or "decline" / "cancel" — the caller decides what those mean) once the retry carries it;
 * otherwise throws `InputRequired`, which the core answers as `input_required`. A client that did
 * not declare form elicitation (or a legacy client: `round` undefined) gets
 * MissingRequiredClientCapability (-32021); check `canElicit` first to fall back instead.
 * `state` (any JSON) comes back sealed as `round.state` on the retry.
 */
export function askForm(
  round: InputRound | undefined,
  key: string,
  form: { message: string; requestedSchema: Record<string, unknown> },
  state?: unknown,
): { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } {
  const answer = round?.responses[key] as { action?: unknown; content?: unknown } | undefined;
  if (answer && (answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel')) {
    const content = answer.content !== null && typeof answer.content === 'object' && !Array.isArray(answer.content) ? (answer.content as Record<string, unknown>) : undefined;
    return { action: answer.action, ...(content ? { content } : {}) };
  }
  if (!canElicit(round?.capabilities, 'form')) throw missingCapability({ elicitation: { form: {} } }, `this call asks the person for input through a form elicitation; declare "elicitation": {"form": {}} in "${'io.modelcontextprotocol/clientCapabilities'}".`);
  throw new InputRequired({ [key]: { method: 'elicitation/create', params: { mode: 'form', message: form.message, requestedSchema: form.requestedSchema } } }, state);
}

/** How long a requestState opens: long enough for a person to sign in or answer, short enough not to linger. */
export const REQUEST_STATE_TTL_MS = 10 * 60_000;

/** What a requestState binds to: whose call (Caller.owner), which tool, which exact arguments. */
export interface StateBinding {
  owner: string;
  tool: string;
  args: Record<string, unknown>;
}

const contextOf = (b: StateBinding) => ({ tenant: `mrtr#${b.owner}`, connection: `${b.tool}#${fingerprint(b.args)}` });

/** Seals `state` for the next round of the bound call. */
export async function sealState(rt: Runtime, binding: StateBinding, state: unknown, now = Date.now()): Promise<string> {
  const vault = await (await identityOf(rt)).vault();
  const sealed = await vault.seal(JSON.stringify({ exp: now + REQUEST_STATE_TTL_MS, state: state ?? null }), contextOf(binding));
  return Buffer.from(JSON.stringify(sealed), 'utf8').toString('base64url');
}

/**
 * Opens a requestState of the bound call, or refuses it (-32602): not one this server sealed for
 * this caller, tool and arguments, altered, or expired. Nothing of the call has run when it throws.
 */
export async function openState(rt: Runtime, binding: StateBinding, requestState: string, now = Date.now()): Promise<unknown> {
  const refused = (why: string) => new RpcError(INVALID_PARAMS, `Invalid requestState: ${why}. Nothing was run; call the tool again without requestState and inputResponses to start over.`);
  let sealed: Sealed;
  try {
    if (requestState.length > 64_000) throw new Error('too long');
    sealed = JSON.parse(Buffer.from(requestState, 'base64url').toString('utf8')) as Sealed;
    if (sealed === null || typeof sealed !== 'object') throw new Error('not an object');
  } catch {
    throw refused('it is not a state this server handed out');
  }
  let opened: { exp?: unknown; state?: unknown };
  try {
    const vault = await (await identityOf(rt)).vault();
    opened = JSON.parse(await vault.open(sealed, contextOf(binding))) as typeof opened;
  } catch {
    throw refused('it was altered, or handed out for another caller, tool or arguments');
  }
  if (typeof opened.exp !== 'number' || now > opened.exp) throw refused('it has expired');
  return opened.state;
}
