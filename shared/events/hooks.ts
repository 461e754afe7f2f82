import { ToolError } from '../core/errors';
import type { AdapterContext } from '../core/event-model';

/**
 * The vendor side of a subscription, for vendors whose webhooks are hooks with a verification
 * handshake (Tape, Podio) and for removing what any adapter made. The vendor's own calls are
 * passed in: each adapter's client keeps its vendor's API.
 */

/** Removes vendor parts one by one; a part already gone (NOT_FOUND) is no error. */
export async function removeVendorParts<T>(ids: readonly T[], remove: (id: T) => Promise<unknown>): Promise<void> {
  for (const id of ids) {
    await remove(id).catch((err: unknown) => {
      if (!(err instanceof ToolError && err.code === 'NOT_FOUND')) throw err;
    });
  }
}

export interface VerifiedHookCalls<T> {
  /** Creates the hook of one event type pointing at the receiver; answers its id. */
  create(type: T): Promise<number>;
  /** Asks the vendor to POST the hook's verification code to the receiver. */
  requestVerification(hookId: number): Promise<unknown>;
  /** Hands the code back to the vendor, which activates the hook. */
  validate(hookId: number, code: string): Promise<unknown>;
  remove(hookId: number): Promise<unknown>;
}

/**
 * One hook per event type, each verified at once: created, its verification requested, the code
 * the vendor POSTed to the receiver read back and validated. All or nothing: when a step fails
 * the hooks made so far are removed again and the failure is thrown.
 */
export async function verifiedHooks<T>(types: readonly T[], ctx: Pick<AdapterContext<unknown>, 'verificationCode'>, calls: VerifiedHookCalls<T>): Promise<number[]> {
  const hooks: number[] = [];
  try {
    for (const type of types) {
      const id = await calls.create(type);
      hooks.push(id);
      await calls.requestVerification(id);
      await calls.validate(id, await ctx.verificationCode(String(id)));
    }
  } catch (err) {
    await removeVendorParts(hooks, (id) => calls.remove(id)).catch(() => undefined);
    throw err;
  }
  return hooks;
}
