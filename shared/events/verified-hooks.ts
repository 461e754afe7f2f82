import { ToolError } from '../errors';

/**
 * Webhooks of vendors that make one hook per event type and verify each with a code delivered to
 * the receiver (Podio's and Tape's hooks work this way): the calls of one vendor's client.
 */
export interface VerifiedHookCalls<T extends string = string> {
  /** Makes the hook for one event type; its id. */
  create(type: T): Promise<number>;
  /** Asks the vendor to deliver the verification code of a hook. */
  requestVerification(hookId: number): Promise<unknown>;
  /** Hands the delivered code back, which turns the hook on. */
  validate(hookId: number, code: string): Promise<unknown>;
  remove(hookId: number): Promise<unknown>;
}

/**
 * One verified hook per event type, all or nothing: when a later step fails, the hooks made so far
 * are removed again and the failure is raised. `verificationCode` waits for the code the receiver got.
 */
export async function createVerifiedHooks<T extends string>(calls: VerifiedHookCalls<T>, types: readonly T[], verificationCode: (ref: string) => Promise<string>): Promise<number[]> {
  const hooks: number[] = [];
  try {
    for (const type of types) {
      const id = await calls.create(type);
      hooks.push(id);
      await calls.requestVerification(id);
      await calls.validate(id, await verificationCode(String(id)));
    }
  } catch (err) {
    await removeVerifiedHooks(calls, hooks).catch(() => undefined);
    throw err;
  }
  return hooks;
}

/** Removes the hooks; one already gone (NOT_FOUND) counts as removed. */
export async function removeVerifiedHooks(calls: Pick<VerifiedHookCalls, 'remove'>, hooks: readonly number[]): Promise<void> {
  for (const id of hooks) {
    await calls.remove(id).catch((err: unknown) => {
      if (!(err instanceof ToolError && err.code === 'NOT_FOUND')) throw err;
    });
  }
}
