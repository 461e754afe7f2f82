import * as z from 'zod';
import { deliveryHash } from '../../../shared/events/inbox';
import { refusal, secretInUrl } from '../../../shared/events/receiver';
import type { EventsAdapter, Parsed, Refusal } from '../../../shared/core/event-model';
import { removeVendorParts, verifiedHooks } from '../../../shared/events/hooks';
import { confirmHookEvent, orMissing, positiveId } from '../../../shared/events/confirm';
import type { PodioClient } from '../client';
import { HOOK_EVENTS, hookRefIdInput, hookRefTypeInput } from '../hooks/inputs';

/**
 * Podio's part of the event inbox: one Podio hook per event type on the app or space, pointing
 * at the receiver with the subscription's secret in its URL (Podio does not sign its POSTs), each
 * verified at once — Podio POSTs the form fields type=hook.verify, hook_id and code to the
 * receiver, which keeps the code for validateHookVerification's call. Deliveries are form fields
 * (type, hook_id, item_id, item_revision_id, …) with no event id: deduplicated by their hash,
 * which a retry repeats and a new revision or comment does not.
 * Podio's hooks: https://developers.podio.com/doc/hooks (public).
 */

const ALL = [...HOOK_EVENTS.app, ...HOOK_EVENTS.space] as const;

/** file.change's action_type values (https://developers.podio.com/doc/hooks). */
const FILE_ACTIONS = ['file_created', 'file_replaced', 'file_deleted'];
/** A file.change names a few files; a delivery naming more is not Podio's, and is not read file by file. */
const MAX_FILES = 20;

const watch = z
  .strictObject({
    ref_type: hookRefTypeInput,
    ref_id: hookRefIdInput,
    event_types: z
      .array(z.enum(ALL))
      .min(1)
      .max(HOOK_EVENTS.app.length)
      .optional()
      .describe(`Which events: on an app any of ${HOOK_EVENTS.app.join(', ')} (default item.create, item.update, item.delete); on a space any of ${HOOK_EVENTS.space.join(', ')} (default all).`),
  })
  .superRefine((w, ctx) => {
    const allowed = HOOK_EVENTS[w.ref_type] as readonly string[];
    const wrong = (w.event_types ?? []).filter((t) => !allowed.includes(t));
    if (wrong.length) ctx.addIssue({ code: 'custom', path: ['event_types'], message: `${wrong.join(', ')} ${wrong.length === 1 ? 'is not an event' : 'are not events'} of a ${w.ref_type}; a ${w.ref_type}'s events are ${allowed.join(', ')}` });
    if (new Set(w.event_types).size !== (w.event_types ?? []).length) ctx.addIssue({ code: 'custom', path: ['event_types'], message: 'each event type once' });
  })
  .transform((w) => ({ ...w, event_types: w.event_types ?? (w.ref_type === 'app' ? ['item.create', 'item.update', 'item.delete'] : [...HOOK_EVENTS.space]) }));
type Watch = z.output<typeof watch>;

export const podioEvents: EventsAdapter<PodioClient, Watch> = {
  platform: 'collab',
  vendor: 'Podio',
  watch: watch as unknown as z.ZodType<Watch>,
  describe: 'Watch an app (item, comment and file changes) or a space (apps and members): ref_type, ref_id and event_types; each event carries the ids of the change (item_id, item_revision_id, comment_id, …).',
  example: { ref_type: 'app', ref_id: 8102, event_types: ['item.create', 'item.update'] },
  watchLine: (w) => `${w.ref_type} #${w.ref_id}: ${w.event_types.join(', ')}`,

  async subscribe(w, _sub, ctx) {
    const hooks = await verifiedHooks(w.event_types, ctx, {
      create: async (type) => (await ctx.client.createHook(w.ref_type, w.ref_id, { url: ctx.receiverUrl, type })).hook_id,
      requestVerification: (id) => ctx.client.requestHookVerification(id),
      validate: (id, code) => ctx.client.validateHookVerification(id, code),
      remove: (id) => ctx.client.deleteHook(id),
    });
    return { vendor: { hook_ids: hooks } };
  },

  async unsubscribe(sub, ctx) {
    await removeVendorParts((sub.vendor.hook_ids as number[] | undefined) ?? [], (id) => ctx.client.deleteHook(id));
  },

  authenticate: (delivery, sub) => secretInUrl(delivery, sub),

  /**
   * Podio does not sign (https://developers.podio.com/doc/hooks): the URL secret only shows the
   * sender read the hook's URL, which anyone who can list the app's or space's hooks can. Each
   * event is checked with Podio as the subscriber sees it and stored as Podio confirms it, or
   * dropped: its hook one of the subscription's for that type (shared/events/confirm.ts), and its
   * object in the watched app or space, in the state the event claims — created: the item's first
   * revision; updated: a later revision, none beyond the item's; deleted: gone (Podio answers a
   * deleted item 410, with no app left to compare); a comment or file on that item, or gone; an
   * app in the watched space; a member of it, or no longer.
   */
  verify: (event, sub, client) =>
    confirmHookEvent(event, sub, async ({ data: d, id }) => {
      const { ref_id: refId } = sub.watch as Watch;
      const itemInApp = async (itemId: number | undefined) => {
        const item = itemId === undefined ? undefined : await orMissing(() => client.getItem(itemId));
        return item?.app?.app_id === refId ? item : undefined;
      };
      switch (event.type) {
        case 'item.create':
        case 'item.update': {
          const item = await itemInApp(id('item_id'));
          if (!item) return undefined;
          const revision = id('item_revision_id');
          const first = item.initial_revision?.item_revision_id;
          const current = item.current_revision?.item_revision_id;
          if (revision !== undefined) {
            if (first === undefined || current === undefined) return undefined;
            if (event.type === 'item.create' ? revision !== first : revision <= first || revision > current) return undefined;
          }
          return { item_id: item.item_id, ...(revision !== undefined ? { item_revision_id: revision } : {}), app_id: refId, ...(item.external_id ? { external_id: item.external_id } : {}) };
        }
        case 'item.delete': {
          const itemId = id('item_id');
          if (itemId === undefined || (await orMissing(() => client.getItem(itemId)))) return undefined;
          return { item_id: itemId, app_id: refId };
        }
        case 'comment.create':
        case 'comment.delete': {
          const commentId = id('comment_id');
          const item = await itemInApp(id('item_id'));
          if (commentId === undefined || !item) return undefined;
          const comment = await orMissing(() => client.getComment(commentId));
          const onItem = comment?.ref?.type === 'item' && comment.ref.id === item.item_id;
          if (event.type === 'comment.create' ? !onItem : comment !== undefined) return undefined;
          return { item_id: item.item_id, comment_id: commentId, app_id: refId };
        }
        case 'file.change': {
          const item = await itemInApp(id('item_id'));
          const action = d.action_type;
          const fileIds = String(d.file_ids ?? '').split(',').map((x) => positiveId(Number(x)));
          if (!item || !FILE_ACTIONS.includes(action as string) || fileIds.length > MAX_FILES || fileIds.some((x) => x === undefined)) return undefined;
          const [first, ...replaced] = fileIds as number[];
          // Created: each file is on the item; replaced: the new one (first) is, the ones it replaced are gone; deleted: gone.
          const present = action === 'file_created' ? [first!, ...replaced] : action === 'file_replaced' ? [first!] : [];
          const gone = action === 'file_deleted' ? [first!, ...replaced] : action === 'file_replaced' ? replaced : [];
          for (const fileId of present) {
            const file = await orMissing(() => client.getFile(fileId));
            const on = file?.context;
            const onItem = on?.type === 'item' ? on.id === item.item_id : on?.type === 'comment' && (await orMissing(() => client.getComment(on.id)))?.ref?.id === item.item_id;
            if (!onItem) return undefined;
          }
          for (const fileId of gone) if (await orMissing(() => client.getFile(fileId))) return undefined;
          return { item_id: item.item_id, action_type: action, file_ids: fileIds.join(','), app_id: refId };
        }
        case 'app.create':
        case 'app.update':
        case 'app.delete': {
          const appId = id('app_id');
          if (appId === undefined) return undefined;
          const app = await orMissing(() => client.getApp(appId));
          const deleted = !app || app.status === 'deleted';
          if ((app && app.space_id !== refId) || (event.type === 'app.delete') !== deleted) return undefined;
          return { app_id: appId, space_id: refId };
        }
        case 'member_add':
        case 'member_remove': {
          const userId = id('user_id');
          if (userId === undefined) return undefined;
          const membership = await orMissing(() => client.getSpaceMember(refId, userId));
          const member = membership !== undefined && !membership.ended_on;
          if ((event.type === 'member_add') !== member) return undefined;
          return { user_id: userId, space_id: refId };
        }
        default:
          return undefined;
      }
    }),

  parse(delivery): Parsed | Refusal {
    const form = Object.fromEntries(new URLSearchParams(delivery.body));
    const type = form.type ?? form._type;
    if (type === 'hook.verify') {
      if (!form.code || !/^\d+$/.test(form.hook_id ?? '')) return refusal(400, 'malformed', 'A hook.verify delivery has the form fields hook_id and code.');
      return { kind: 'verify', ref: form.hook_id!, code: form.code };
    }
    if (!type || !(ALL as readonly string[]).includes(type)) return refusal(400, 'malformed', `Unknown Podio hook type ${JSON.stringify(type ?? null)}.`);
    const data: Record<string, unknown> = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, /^\d{1,15}$/.test(v) ? Number(v) : v]));
    return { kind: 'events', events: [{ key: deliveryHash(data), type, data }] };
  },
};
