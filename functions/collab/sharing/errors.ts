import { ToolError } from '../../../shared/core/errors';

/** A NOT_FOUND from Podio's grant calls, with what it means here and how to go on appended. */
export async function notFoundHint<T>(call: Promise<T>, hint: string): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof ToolError && e.code === 'NOT_FOUND') throw new ToolError('NOT_FOUND', `${e.message}. ${hint}`, e.details);
    throw e;
  }
}

/** Podio's 404 on one person's grant: they hold none (or the item is not visible). */
export const noGrantHint = <T>(call: Promise<T>, itemId: number, userId: number): Promise<T> =>
  notFoundHint(call, `User ${userId} holds no grant on item ${itemId} (or the item is not visible): getItemShares lists who does; shareItem creates a grant.`);
