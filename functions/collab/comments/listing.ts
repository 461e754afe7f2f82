/**
 * A page of the comments on an object, oldest or newest first. Podio lists comments oldest first
 * with limit/offset and gives no total, so newest first is computed: the list is read oldest first in
 * pages of 100 until a short page (that count is the total), the last two pages are kept, and the
 * window is cut from their end and reversed. Only the newest 100 are reachable that way (docs/spec.md#limits:
 * `offset + limit <= 100` in desc mode); deeper history is read in asc mode, which is one call.
 */
import { invalidParameter } from '../../../shared/core/errors';
import type { PodioClient } from '../client';
import type { PodioComment, PodioCommentRefType } from '../wire';

/** How many of the newest comments desc mode reaches (docs/spec.md#limits). */
export const DESC_WINDOW = 100;
/** Podio's default page of comments: the page the desc scan reads. */
const SCAN_PAGE = 100;
/** At most this many pages are scanned for the total (5,000 comments); beyond, asc mode is the way. */
const MAX_SCAN_PAGES = 50;

export type CommentSort = 'asc' | 'desc';

/**
 * The page's limit: as given, else 100 in asc mode and what remains of the newest 100 in desc mode
 * (so `offset` alone never breaks the rule). In desc mode `offset + limit` above 100 is refused,
 * naming `offset` when it alone is past the window, else `limit`.
 */
export function pageLimit(sort: CommentSort, offset: number, limit: number | undefined): number {
  if (sort === 'asc') return limit ?? SCAN_PAGE;
  const expected = `offset + limit <= ${DESC_WINDOW} with sort "desc"`;
  const fix = `Newest first only the newest ${DESC_WINDOW} comments are reachable; for older ones use sort "asc" (oldest first; offset 0 is the first comment ever written).`;
  if (offset >= DESC_WINDOW) throw invalidParameter('offset', expected, `Parameter "offset": ${offset} is past the newest ${DESC_WINDOW} comments. ${fix}`);
  if (limit === undefined) return DESC_WINDOW - offset;
  if (offset + limit > DESC_WINDOW) {
    throw invalidParameter('limit', expected, `Parameter "limit": offset ${offset} + limit ${limit} = ${offset + limit} is over ${DESC_WINDOW}. Lower limit to ${DESC_WINDOW - offset} or less. ${fix}`);
  }
  return limit;
}

/** Newest first: the window [offset, offset + limit) of the reversed list (limit already checked). */
async function newestFirst(client: PodioClient, type: PodioCommentRefType, id: number, offset: number, limit: number): Promise<PodioComment[]> {
  let previous: PodioComment[] = [];
  let current = await client.listComments(type, id, { limit: SCAN_PAGE, offset: 0 });
  for (let pages = 1; current.length >= SCAN_PAGE; pages++) {
    if (pages >= MAX_SCAN_PAGES) {
      throw invalidParameter('sort', 'sort "asc" for an object with this many comments', `Parameter "sort": the ${type} has over ${(MAX_SCAN_PAGES * SCAN_PAGE).toLocaleString('en-US')} comments, too many to count for newest-first. Use sort "asc" with offset/limit.`);
    }
    previous = current;
    current = await client.listComments(type, id, { limit: SCAN_PAGE, offset: pages * SCAN_PAGE });
  }
  // The last two pages hold at least the newest 100 (or everything, when there are fewer).
  return [...previous, ...current].reverse().slice(offset, offset + limit);
}

export function listCommentsPage(client: PodioClient, type: PodioCommentRefType, id: number, sort: CommentSort, offset: number, limit: number): Promise<PodioComment[]> {
  return sort === 'asc' ? client.listComments(type, id, { limit, offset }) : newestFirst(client, type, id, offset, limit);
}
