import { ToolError } from '../core/errors';
import type { IncomingEvent, Subscription } from '../core/event-model';
import { deliveryHash } from './inbox';

/**
 * The frame of EventsAdapter.verify for vendors whose hooks do not sign (one hook per event type,
 * made by `verifiedHooks` in shared/events/hooks.ts): what every such adapter checks the same way,
 * so that each adapter keeps only the vendor reads that confirm its own event types.
 */

/** What an adapter's check of one event type is given: the delivery's fields and a reader of ids in them. */
export interface HookEventCheck {
  data: Record<string, unknown>;
  /** The field as a positive integer id, or undefined (a forged value confirms nothing). */
  id(field: string): number | undefined;
}

/**
 * The event as the vendor confirms it, or undefined. First the hook: it must be one the
 * subscription made, for this event type (`verifiedHooks` made them in the order of the watched
 * types), so a hook id read from the vendor's hook listing of another subscription, or another
 * type's hook, confirms nothing. Then `check` (the adapter's vendor reads) answers the fields to
 * store, or undefined. The stored data is the hook, the type and what the vendor confirmed —
 * nothing else the sender put in — and its key is their hash, so a forged copy of a genuine
 * delivery with fields added is the same event, stored once.
 */
export async function confirmHookEvent(event: IncomingEvent, sub: Subscription, check: (c: HookEventCheck) => Promise<Record<string, unknown> | undefined>): Promise<IncomingEvent | undefined> {
  const hookIds = (sub.vendor.hook_ids as unknown[] | undefined) ?? [];
  const types = (sub.watch.event_types as unknown[] | undefined) ?? [];
  const at = hookIds.indexOf(event.data.hook_id);
  if (at < 0 || (types.length === hookIds.length && types[at] !== event.type)) return undefined;
  const id = (field: string) => positiveId(event.data[field]);
  const confirmed = await check({ data: event.data, id });
  if (!confirmed) return undefined;
  const data = { hook_id: event.data.hook_id, type: event.type, ...confirmed };
  return { ...event, key: deliveryHash(data), data };
}

/** A positive safe integer, or undefined. */
export const positiveId = (v: unknown): number | undefined => (Number.isSafeInteger(v) && (v as number) > 0 ? (v as number) : undefined);

/**
 * The vendor's answer, or undefined when it says the thing does not exist or was deleted
 * (NOT_FOUND: the platform's client maps the vendor's "gone" there too). Other errors propagate.
 */
export async function orMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ToolError && err.code === 'NOT_FOUND') return undefined;
    throw err;
  }
}
