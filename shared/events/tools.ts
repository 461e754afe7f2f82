import * as z from 'zod';
import { invalidParameter, ToolError } from '../core/errors';
import { defineTool, type Tool, type ToolContext } from '../core/tool';
import { plural } from '../core/render';
import type { EventsConfig } from '../core/events-config';
import { Inbox } from './inbox';
import type { AdapterContext, EventsAdapter, InboxEvent, Subscription } from '../core/event-model';
import { eventsConfigOf, receiverUrl } from './receiver';

/**
 * The six event tools, the same on every platform with webhooks: each platform's tool files are
 * one line each, `eventTools(adapter).<name>`, over its adapter (functions/<platform>/events/).
 */

const subscriptionId = z.string().trim().regex(/^sub_[A-Za-z0-9_-]{1,40}$/, 'a subscription id from subscribeEvents, e.g. "sub_Jq3x0Lw9YtZk1b2c"').describe('The subscription, as subscribeEvents answered it, e.g. "sub_Jq3x0Lw9YtZk1b2c".');
const cursorParam = z.string().trim().min(1).max(4000).describe('The next_cursor of a previous listEvents answer: continue after it.');

/** The subscription as the tools show it: never the secret. */
export interface SubscriptionView {
  subscription_id: string;
  platform: string;
  status: Subscription['status'];
  watch: Record<string, unknown>;
  created_at: string;
  /** The receiver the vendor POSTs to (without its secret). */
  receiver: string;
  vendor: Record<string, unknown>;
  /** getSubscription: unacknowledged events now (counted up to 2,000). */
  unacknowledged?: number;
}

export interface EventPage {
  events: InboxEvent[];
  next_cursor: string | null;
  more: boolean;
}

const view = (config: EventsConfig, s: Subscription): SubscriptionView => ({
  subscription_id: s.id,
  platform: s.platform,
  status: s.status,
  watch: s.watch,
  created_at: s.created_at,
  receiver: receiverUrl(config, s, false),
  vendor: s.vendor,
});

/** Cursor: base64url JSON of the last sequence read per subscription. */
export function encodeCursor(after: Record<string, number>): string {
  return Buffer.from(JSON.stringify(after)).toString('base64url');
}

export function decodeCursor(raw: string, parameter: string): Record<string, number> {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.entries(value).every(([k, v]) => /^sub_/.test(k) && Number.isSafeInteger(v) && (v as number) >= 0)) {
      return value as Record<string, number>;
    }
  } catch {
    // refused below
  }
  throw invalidParameter(parameter, 'the next_cursor of a listEvents answer', `Parameter "${parameter}" is not a cursor listEvents gave; pass its next_cursor unchanged, or omit it to start from the oldest unacknowledged event.`);
}

function inboxOf(ctx: ToolContext<unknown>): { inbox: Inbox; config: EventsConfig } {
  const config = eventsConfigOf(ctx);
  return { inbox: new Inbox(ctx.store, config.ttlSeconds), config };
}

/**
 * Subscribing is a handshake with the vendor (create, verify, validate) and the plan of a dry run
 * would show the app credentials some vendors take in the query; acknowledging writes only the
 * service's own inbox, which a dry run's vendor-write plan cannot show: none of the three can be
 * dry-run, and a dry run of them is refused before anything changes.
 */
function noDryRun(ctx: ToolContext<unknown>, tool: string): void {
  if (!ctx.dryRun) return;
  throw invalidParameter('dry_run', 'omitted or false', `${tool} cannot be dry-run: it ${tool === 'ackEvents' ? 'changes only the service\'s own event inbox' : 'sets up (or removes) live vendor webhooks, with the vendor\'s verification handshake'}. Call it without dry_run; ${tool === 'ackEvents' ? 'listEvents shows what is unacknowledged' : 'listSubscriptions shows what exists'}.`);
}

function adapterContext<C>(ctx: ToolContext<C>, sub: Subscription, inbox: Inbox, config: EventsConfig): AdapterContext<C> {
  return {
    client: ctx.client,
    config: ctx.config,
    store: ctx.store,
    receiverUrl: receiverUrl(config, sub, true),
    receiverBase: `${config.baseUrl}/v1/events/${sub.platform}`,
    async subscriptionsIn(index) {
      const members = await inbox.indexMembers(index);
      const subs = await Promise.all(members.map((m) => inbox.get(m.id)));
      return subs.filter((s): s is Subscription => s !== undefined);
    },
    async verificationCode(ref) {
      const until = Math.min(Date.now() + config.verifyWaitMs, ctx.deadline - 1_000);
      // The vendor POSTs the code to the receiver (another request, maybe another Lambda): read it from the store.
      for (let wait = 20; ; wait = Math.min(250, wait * 2)) {
        const code = await inbox.takeCode(sub.id, ref);
        if (code !== undefined) return code;
        if (Date.now() + wait > until) break;
        await new Promise((r) => setTimeout(r, wait));
      }
      throw new ToolError(
        'INTERNAL_ERROR',
        `The vendor's verification request for hook ${ref} did not reach ${receiverUrl(config, sub, false)} within ${Math.round(config.verifyWaitMs / 1000)} s. ` +
          'Check that EVENTS_BASE_URL is this deployment\'s public address and reachable from the vendor, then call subscribeEvents again.',
        { receiver: receiverUrl(config, sub, false) },
      );
    },
  };
}

function eventLine(e: InboxEvent): string {
  const data = JSON.stringify(e.data);
  return `${e.id} ${e.type} at ${e.received_at}${e.acked ? ' (acked)' : ''} ${data.length > 300 ? `${data.slice(0, 300)}…` : data}`;
}

function subscriptionLine<W extends Record<string, unknown>>(adapter: EventsAdapter<any, W>, s: SubscriptionView): string {
  return `${s.subscription_id} (${s.status}) ${adapter.watchLine(s.watch as W)}, since ${s.created_at}${s.unacknowledged !== undefined ? `, ${plural(s.unacknowledged, 'unacknowledged event')}` : ''}`;
}

export function eventTools<C, W extends Record<string, unknown>>(adapter: EventsAdapter<C, W>) {
  const platform = adapter.platform;
  const tool = <S extends z.ZodType, R>(t: Omit<Tool<S, R, C>, 'platform'>) => defineTool<S, R, C>({ ...t, platform });
  const exampleSub: SubscriptionView = {
    subscription_id: 'sub_Jq3x0Lw9YtZk1b2c',
    platform,
    status: 'active',
    watch: adapter.example,
    created_at: '2026-11-27T10:00:00.000Z',
    receiver: `https://api.example.com/v1/events/${platform}/sub_Jq3x0Lw9YtZk1b2c`,
    vendor: {},
  };
  const exampleEvent: InboxEvent = {
    id: 'sub_Jq3x0Lw9YtZk1b2c.1',
    subscription_id: 'sub_Jq3x0Lw9YtZk1b2c',
    seq: 1,
    type: 'record.create',
    received_at: '2026-11-27T10:05:00.000Z',
    data: { record_id: 5301 },
  };

  const subscribeEvents = tool({
    name: 'subscribeEvents',
    description:
      `Subscribe to changes on ${adapter.vendor} in one call: the service creates the ${adapter.vendor} webhooks pointing at its own receiver and completes ` +
      `the vendor's verification handshake where it has one, so the subscription is active when this returns. ${adapter.describe} Events are then stored once each (retries deduplicated) ` +
      'for 7 days by default; read them with listEvents and acknowledge them with ackEvents. No public URL of your own is needed.',
    input: adapter.watch,
    annotations: { readOnly: false, destructive: false, idempotent: false },
    async run(watch: W, ctx): Promise<SubscriptionView> {
      noDryRun(ctx, 'subscribeEvents');
      const { inbox, config } = inboxOf(ctx);
      if (!config.baseUrl) {
        // Not a fault of the call: this deployment does not offer the inbox until it knows its address.
        throw new ToolError('FORBIDDEN', 'This deployment offers no event inbox: EVENTS_BASE_URL (its public address, where vendors deliver) is not set. Ask its operator to set it.', {});
      }
      const fresh = Inbox.newSubscription(platform, ctx.keyHash, watch, Date.now());
      // Unsigned deliveries are checked with the vendor as this caller (EventsAdapter.verify): its credential is kept.
      if (adapter.verify && ctx.keepCredential) fresh.verify_with = await ctx.keepCredential(fresh.id);
      const sub = await inbox.create(fresh);
      let made: Awaited<ReturnType<typeof adapter.subscribe>>;
      try {
        made = await adapter.subscribe(watch, sub, adapterContext(ctx, sub, inbox, config));
      } catch (err) {
        // The adapter removed what it had made at the vendor; the subscription goes too.
        await inbox.remove(sub);
        throw err;
      }
      const indexes: Record<string, number> = {};
      for (const index of Object.values(made.indexes ?? {})) indexes[index] = await inbox.indexAdd(index, sub.id);
      const active: Subscription = { ...sub, status: 'active', vendor: made.vendor, ...(Object.keys(indexes).length ? { indexes } : {}) };
      await inbox.save(active);
      return view(config, active);
    },
    text: (s: SubscriptionView) => `subscribed: ${subscriptionLine(adapter, s)}\nread with listEvents {"subscription_id": "${s.subscription_id}"}; acknowledge with ackEvents`,
    example: { input: adapter.example as z.input<typeof adapter.watch>, result: exampleSub },
  });

  const listEvents = tool({
    name: 'listEvents',
    description:
      'Read the events your subscriptions received, oldest first: by default only those not yet acknowledged, of all your subscriptions on this platform ' +
      '(or one, with subscription_id). Filter by event types and by receipt time (since). Pages: pass next_cursor back as cursor. After handling events, ' +
      'acknowledge them with ackEvents (by ids, or everything up to a cursor) so they are not listed again. Read-only.',
    input: z.strictObject({
      subscription_id: subscriptionId.optional(),
      types: z.array(z.string().trim().min(1).max(100)).min(1).max(50).optional().describe('Only events of these types, e.g. ["record.create"]. Default: all.'),
      since: z.iso.datetime({ offset: true }).optional().describe('Only events received at or after this ISO 8601 time, e.g. "2026-11-27T10:00:00Z".'),
      cursor: cursorParam.optional(),
      limit: z.number().int().min(1).max(200).default(50).describe('Events per page, 1 to 200 (default 50).'),
      include_acked: z.boolean().default(false).describe('Also list events already acknowledged (kept until they expire). Default false.'),
    }),
    annotations: { readOnly: true, destructive: false, idempotent: true },
    async run(input, ctx): Promise<EventPage> {
      const { inbox } = inboxOf(ctx);
      const subs = input.subscription_id ? [await inbox.owned(input.subscription_id, ctx.keyHash, platform)] : await inbox.list(ctx.keyHash, platform);
      const after = input.cursor ? decodeCursor(input.cursor, 'cursor') : {};
      const page = await inbox.listEvents(subs, {
        after,
        limit: input.limit,
        includeAcked: input.include_acked,
        ...(input.types ? { types: input.types } : {}),
        ...(input.since ? { since: Date.parse(input.since) } : {}),
      });
      return { events: page.events, next_cursor: encodeCursor(page.after), more: page.more };
    },
    text: (p: EventPage) =>
      [
        ...p.events.map(eventLine),
        p.events.length === 0 ? 'no unacknowledged events' : plural(p.events.length, 'event'),
        p.more ? `more: pass cursor "${p.next_cursor}"` : `acknowledge up to here: ackEvents {"up_to_cursor": "${p.next_cursor}"}`,
      ].join('\n'),
    example: { input: { subscription_id: 'sub_Jq3x0Lw9YtZk1b2c' }, result: { events: [exampleEvent], next_cursor: encodeCursor({ sub_Jq3x0Lw9YtZk1b2c: 1 }), more: false } },
  });

  const ackEvents = tool({
    name: 'ackEvents',
    description:
      'Acknowledge events you have handled, so listEvents no longer shows them: either event_ids (from listEvents) or up_to_cursor (a next_cursor of ' +
      'listEvents: every event up to it). Exactly one of the two. Acknowledged events are kept until they expire (include_acked lists them).',
    input: z.strictObject({
      event_ids: z.array(z.string().trim().regex(/^sub_[A-Za-z0-9_-]{1,40}\.\d{1,15}$/, 'an event id from listEvents, e.g. "sub_Jq3x0Lw9YtZk1b2c.1"')).min(1).max(500).optional()
        .describe('Ids of events to acknowledge, from listEvents, e.g. ["sub_Jq3x0Lw9YtZk1b2c.1"]; at most 500.'),
      up_to_cursor: cursorParam.optional().describe('A next_cursor of listEvents: acknowledges every event of those subscriptions up to it.'),
    }),
    annotations: { readOnly: false, destructive: false, idempotent: true },
    async run(input, ctx): Promise<{ acknowledged: number }> {
      noDryRun(ctx, 'ackEvents');
      if ((input.event_ids === undefined) === (input.up_to_cursor === undefined)) {
        throw invalidParameter('event_ids', 'event_ids or up_to_cursor (exactly one)', 'Pass either "event_ids" (from listEvents) or "up_to_cursor" (a next_cursor of listEvents), not both and not neither.');
      }
      const { inbox } = inboxOf(ctx);
      let acknowledged = 0;
      if (input.event_ids) {
        const bySub = new Map<string, number[]>();
        for (const id of input.event_ids) {
          const [sub, seq] = id.split('.') as [string, string];
          bySub.set(sub, [...(bySub.get(sub) ?? []), Number(seq)]);
        }
        const subs = await Promise.all([...bySub.keys()].map((id) => inbox.owned(id, ctx.keyHash, platform)));
        for (const sub of subs) acknowledged += await inbox.ack(sub, { seqs: bySub.get(sub.id)! });
      } else {
        const after = decodeCursor(input.up_to_cursor!, 'up_to_cursor');
        for (const [id, upTo] of Object.entries(after)) acknowledged += await inbox.ack(await inbox.owned(id, ctx.keyHash, platform), { upTo });
      }
      return { acknowledged };
    },
    text: (r: { acknowledged: number }) => `acknowledged ${plural(r.acknowledged, 'event')}`,
    example: { input: { event_ids: ['sub_Jq3x0Lw9YtZk1b2c.1'] }, result: { acknowledged: 1 } },
  });

  const getSubscription = tool({
    name: 'getSubscription',
    description: 'One of your event subscriptions: what it watches, its status, the vendor webhooks behind it and how many events wait unacknowledged. Read-only.',
    input: z.strictObject({ subscription_id: subscriptionId }),
    annotations: { readOnly: true, destructive: false, idempotent: true },
    async run({ subscription_id }, ctx): Promise<SubscriptionView> {
      const { inbox, config } = inboxOf(ctx);
      const sub = await inbox.owned(subscription_id, ctx.keyHash, platform);
      return { ...view(config, sub), unacknowledged: await inbox.pending(sub) };
    },
    text: (s: SubscriptionView) => subscriptionLine(adapter, s),
    example: { input: { subscription_id: 'sub_Jq3x0Lw9YtZk1b2c' }, result: { ...exampleSub, unacknowledged: 3 } },
  });

  const listSubscriptions = tool({
    name: 'listSubscriptions',
    description: `Your event subscriptions on ${adapter.vendor} (made with subscribeEvents with this key): id, status and what each watches. Read-only.`,
    input: z.strictObject({}),
    annotations: { readOnly: true, destructive: false, idempotent: true },
    async run(_input, ctx): Promise<{ subscriptions: SubscriptionView[] }> {
      const { inbox, config } = inboxOf(ctx);
      return { subscriptions: (await inbox.list(ctx.keyHash, platform)).map((s) => view(config, s)) };
    },
    text: (r: { subscriptions: SubscriptionView[] }) =>
      r.subscriptions.length === 0 ? 'no subscriptions — subscribeEvents makes one' : [...r.subscriptions.map((s) => subscriptionLine(adapter, s)), plural(r.subscriptions.length, 'subscription')].join('\n'),
    example: { input: {}, result: { subscriptions: [exampleSub] } },
  });

  const deleteSubscription = tool({
    name: 'deleteSubscription',
    description: `Delete one of your event subscriptions: its ${adapter.vendor} webhooks are removed and nothing more is received, and its stored events are no longer listed (they expire with their TTL). Cannot be undone.`,
    input: z.strictObject({ subscription_id: subscriptionId }),
    annotations: { readOnly: false, destructive: true, idempotent: false },
    async run({ subscription_id }, ctx): Promise<{ subscription_id: string; deleted: true }> {
      const { inbox, config } = inboxOf(ctx);
      noDryRun(ctx, 'deleteSubscription');
      const sub = await inbox.owned(subscription_id, ctx.keyHash, platform);
      await adapter.unsubscribe(sub, adapterContext(ctx, sub, inbox, config));
      await inbox.remove(sub);
      return { subscription_id, deleted: true };
    },
    text: (r: { subscription_id: string; deleted: true }) => `deleted subscription ${r.subscription_id}; its vendor webhooks are removed`,
    example: { input: { subscription_id: 'sub_Jq3x0Lw9YtZk1b2c' }, result: { subscription_id: 'sub_Jq3x0Lw9YtZk1b2c', deleted: true } },
  });

  return { subscribeEvents, listEvents, ackEvents, getSubscription, listSubscriptions, deleteSubscription };
}

export type EventToolName = keyof ReturnType<typeof eventTools>;
