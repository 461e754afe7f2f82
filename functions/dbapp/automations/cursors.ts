/** Listing cursors tied to the scope they came from. */
import { invalidParameter } from '../../../shared/core/errors';

// --- cursors tied to their scope ---
/** Wraps Tape's cursor with the scope that issued it, so a cursor replayed elsewhere is refused before any request. */
export function wrapCursor(scope: string, cursor: string | null): string | null {
  return cursor === null ? null : Buffer.from(JSON.stringify({ s: scope, c: cursor })).toString('base64url');
}

export function unwrapCursor(cursor: string): { scope: string; cursor: string } {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; c?: unknown };
    if (typeof v.s === 'string' && typeof v.c === 'string') return { scope: v.s, cursor: v.c };
  } catch {
    // fall through
  }
  throw invalidParameter('cursor', 'a cursor returned by the previous page of this same listing', 'This cursor was not issued by this tool: pass the "cursor" of the previous page unchanged, or omit it for the first page.');
}

/** The Tape cursor inside `cursor`, which must come from `scope`. */
export function cursorFor(cursor: string | undefined, scope: string, describe: (scope: string) => string): string | undefined {
  if (cursor === undefined) return undefined;
  const got = unwrapCursor(cursor);
  if (got.scope !== scope) {
    throw invalidParameter('cursor', `a cursor of ${describe(scope)}`, `This cursor belongs to ${describe(got.scope)}, not ${describe(scope)}: pass it with the same scope it came from, or omit it to start over.`);
  }
  return got.cursor;
}
