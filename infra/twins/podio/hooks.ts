import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { DeliveryQueue, type Delivery, type WebhookTargets } from '../kit';
import type { TwinEnv } from './http';
import { podioDateTime, type HookRefType, type PodioHookRow, type PodioState } from './state';

/**
 * Podio's hooks (docs/vendors/podio.md#hooks, docs/spec.md#collab-hook): a hook on an app or a space starts inactive;
 * `verify/request` POSTs a code to its URL, `verify/validate` with that code activates it; active
 * hooks then receive the events of their object. Deliveries are form-encoded POSTs of `type`,
 * `hook_id` and the event's ids, as Podio sends them. Events come from the twin's own writes (the
 * middleware below watches them), so every route that writes items, comments or files fires them,
 * and `?hook=false` on a write keeps them quiet. The twin has no app or member writes: space events
 * (app.*, member_*) are sent by `emit`, which such writes would call.
 */

export const APP_HOOK_TYPES = ['item.create', 'item.update', 'item.delete', 'comment.create', 'comment.delete', 'file.change'] as const;
export const SPACE_HOOK_TYPES = ['app.create', 'app.update', 'app.delete', 'member_add', 'member_remove'] as const;

export const HOOK_TYPES: Record<HookRefType, readonly string[]> = { app: APP_HOOK_TYPES, space: SPACE_HOOK_TYPES };

/** docs/vendors/podio.md#hooks: at most 10 hooks per event type per object. */
export const MAX_HOOKS_PER_TYPE = 10;

/** The first hook id handed out. */
export const FIRST_HOOK_ID = 40001;

/** An event of the twin: its type, the object whose hooks hear it, and the ids the payload carries. */
export interface PodioHookEvent {
  type: string;
  ref: { type: HookRefType; id: number };
  params: Record<string, string | number>;
}

export type HookDelivery = Delivery<{ hook_id: number }>;

export interface PodioHookOptions {
  targets: WebhookTargets;
  /** How POSTs leave the twin (tests may capture them). */
  fetch: typeof fetch;
  /** A receiver that takes longer is counted as failed. */
  timeoutMs?: number;
  /** Extra copies of every POST: at-least-once delivery (kit/webhooks.ts). */
  redeliver?: number;
}

const HEADERS = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Podio Hookshot' };

/** Podio posts form fields: every value as text. */
const formEncode = (payload: Record<string, unknown>) => new URLSearchParams(Object.entries(payload).map(([k, v]): [string, string] => [k, String(v)])).toString();

export function hookOut(h: PodioHookRow) {
  return { hook_id: h.hook_id, status: h.status, type: h.type, url: h.url, created_on: h.created_on, created_by: { type: 'user', id: h.created_by }, created_via: { id: 1, name: 'Podio' } };
}

/** The hooks' deliveries: verification POSTs and events to active hooks, one lane per hook. */
export class PodioHooks {
  private readonly queue: DeliveryQueue<{ hook_id: number }>;
  private lastId = 0;

  constructor(
    private readonly state: PodioState,
    readonly options: PodioHookOptions,
  ) {
    this.queue = new DeliveryQueue({ timeoutMs: options.timeoutMs ?? 15_000, fetch: options.fetch, headers: HEADERS, encode: formEncode, ...(options.redeliver ? { redeliver: options.redeliver } : {}) });
  }

  /** Every POST attempted, latest first out. */
  get log(): HookDelivery[] {
    return this.queue.log;
  }

  /** Resolves once every queued POST has finished. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Creates an inactive hook (checked by the route first). */
  create(ref: { type: HookRefType; id: number }, type: string, url: string, userId: number, now: number): PodioHookRow {
    // Ids above every hook ever made: the map keeps them in creation order, the last is the highest.
    const last = [...this.state.hooks.keys()].at(-1);
    const hook_id = Math.max(FIRST_HOOK_ID - 1, last ?? 0, this.lastId) + 1;
    this.lastId = hook_id;
    const hook: PodioHookRow = { hook_id, ref_type: ref.type, ref_id: ref.id, type, url, status: 'inactive', created_on: podioDateTime(now), created_by: userId, code: null };
    this.state.hooks.set(hook_id, hook);
    return hook;
  }

  /**
   * POSTs `type=hook.verify`, `hook_id` and a fresh `code` to the hook's URL. Podio names the
   * field `type` (docs/vendors/podio.md#hooks); the spec (docs/spec.md#collab-hook) calls it `_type`: both are sent, so a receiver
   * written to either works.
   */
  requestVerification(hook: PodioHookRow): void {
    hook.code = randomBytes(8).toString('hex');
    const payload = { type: 'hook.verify', _type: 'hook.verify', hook_id: hook.hook_id, code: hook.code };
    this.queue.send(hook.hook_id, () => (this.state.hooks.has(hook.hook_id) ? { url: hook.url, payload, extra: { hook_id: hook.hook_id } } : undefined));
  }

  /** Sends an event to every active hook of its object and type. */
  emit(e: PodioHookEvent): void {
    for (const hook of this.state.hooks.values()) {
      if (hook.status !== 'active' || hook.type !== e.type || hook.ref_type !== e.ref.type || hook.ref_id !== e.ref.id) continue;
      const payload = { type: e.type, hook_id: hook.hook_id, ...e.params };
      // A hook deleted (or made inactive) before its turn gets nothing: deleting stops it at once.
      this.queue.send(hook.hook_id, () => {
        const h = this.state.hooks.get(hook.hook_id);
        return h && h.status === 'active' ? { url: h.url, payload, extra: { hook_id: h.hook_id } } : undefined;
      });
    }
  }

  /** Watches the twin's writes and emits their events; `?hook=false` on a write keeps it quiet. */
  events(): MiddlewareHandler<TwinEnv> {
    return async (c, next) => {
      const method = c.req.method;
      if (method === 'GET') return next();
      const mount = new URL(c.get('base')).pathname.replace(/\/$/, '');
      const path = new URL(c.req.url).pathname.slice(mount.length).replace(/\/$/, '');
      const before = this.snapshot(method, path);
      await next();
      if (c.res.status >= 300 || c.req.query('hook') === 'false') return;
      // Only creations name their new object in the answer; other writes are known from the path.
      const creates = method === 'POST' && /^\/(item\/app\/\d+|item\/\d+\/clone|comment\/item\/\d+)$/.test(path);
      const body = creates && c.res.headers.get('content-type')?.includes('json') ? ((await c.res.clone().json()) as Record<string, unknown>) : {};
      for (const e of this.eventsOf(method, path, before, body)) this.emit(e);
    };
  }

  /** What a write's events need from before it (a deleted object's app, an item's revision count). */
  private snapshot(method: string, path: string) {
    const s = this.state;
    let m: RegExpExecArray | null;
    if ((m = /^\/item\/(\d+)(\/value(\/[^/]+)?)?$/.exec(path))) {
      const item = s.items.get(Number(m[1]));
      return item ? { app_id: item.app_id, item_id: item.item_id, external_id: item.external_id, revisions: item.revisions.length, revision_id: item.revisions.at(-1)!.item_revision_id } : undefined;
    }
    if (method === 'DELETE' && (m = /^\/comment\/(\d+)$/.exec(path))) {
      const comment = s.comments.get(Number(m[1]));
      const item = comment?.ref.type === 'item' ? s.items.get(comment.ref.id) : undefined;
      return item ? { app_id: item.app_id, item_id: item.item_id } : undefined;
    }
    if (method === 'DELETE' && (m = /^\/file\/(\d+)$/.exec(path))) return this.fileItem(Number(m[1]));
    return undefined;
  }

  /** The item (and its app) a file is on, directly or through a comment. */
  private fileItem(fileId: number): { app_id: number; item_id: number } | undefined {
    const f = this.state.files.get(fileId);
    let itemId: number | undefined;
    if (f?.context?.type === 'item') itemId = f.context.id;
    else if (f?.context?.type === 'comment') {
      const comment = this.state.comments.get(f.context.id);
      if (comment?.ref.type === 'item') itemId = comment.ref.id;
    }
    const item = itemId !== undefined ? this.state.items.get(itemId) : undefined;
    return item ? { app_id: item.app_id, item_id: item.item_id } : undefined;
  }

  private eventsOf(method: string, path: string, before: Record<string, any> | undefined, body: Record<string, unknown>): PodioHookEvent[] {
    const s = this.state;
    let m: RegExpExecArray | null;
    const itemEvent = (type: string, itemId: number): PodioHookEvent[] => {
      const item = s.items.get(itemId);
      if (!item) return [];
      return [{ type, ref: { type: 'app', id: item.app_id }, params: { item_id: item.item_id, item_revision_id: item.revisions.at(-1)!.item_revision_id, external_id: item.external_id ?? '' } }];
    };

    if (method === 'POST' && /^\/item\/app\/\d+$/.test(path) && typeof body.item_id === 'number') return itemEvent('item.create', body.item_id);
    if (method === 'POST' && /^\/item\/\d+\/clone$/.test(path) && typeof body.item_id === 'number') return itemEvent('item.create', body.item_id);
    if (method === 'PUT' && before && /^\/item\/\d+(\/value(\/[^/]+)?)?$/.test(path)) {
      // A write that changed nothing made no revision, and Podio sends no update for it.
      return s.items.get(before.item_id)!.revisions.length > before.revisions ? itemEvent('item.update', before.item_id) : [];
    }
    if (method === 'DELETE' && before && /^\/item\/\d+$/.test(path)) {
      return [{ type: 'item.delete', ref: { type: 'app', id: before.app_id }, params: { item_id: before.item_id, item_revision_id: before.revision_id, external_id: before.external_id ?? '' } }];
    }
    if (method === 'POST' && (m = /^\/comment\/item\/(\d+)$/.exec(path)) && typeof body.comment_id === 'number') {
      const item = s.items.get(Number(m[1]));
      return item ? [{ type: 'comment.create', ref: { type: 'app', id: item.app_id }, params: { item_id: item.item_id, comment_id: body.comment_id } }] : [];
    }
    if (method === 'DELETE' && before && (m = /^\/comment\/(\d+)$/.exec(path))) {
      return [{ type: 'comment.delete', ref: { type: 'app', id: before.app_id }, params: { item_id: before.item_id, comment_id: Number(m[1]) } }];
    }
    const fileChange = (on: { app_id: number; item_id: number } | undefined, action: string, ids: number[]): PodioHookEvent[] =>
      on ? [{ type: 'file.change', ref: { type: 'app', id: on.app_id }, params: { item_id: on.item_id, action_type: action, file_ids: ids.join(',') } }] : [];
    if (method === 'POST' && (m = /^\/file\/(\d+)\/attach$/.exec(path))) return fileChange(this.fileItem(Number(m[1])), 'file_created', [Number(m[1])]);
    if (method === 'POST' && (m = /^\/file\/(\d+)\/replace$/.exec(path))) {
      const fresh = s.files.get(Number(m[1]));
      return fileChange(this.fileItem(Number(m[1])), 'file_replaced', [Number(m[1]), ...(fresh?.replaces?.slice(-1) ?? [])]);
    }
    if (method === 'DELETE' && (m = /^\/file\/(\d+)$/.exec(path))) return fileChange(before as { app_id: number; item_id: number } | undefined, 'file_deleted', [Number(m[1])]);
    return [];
  }
}
