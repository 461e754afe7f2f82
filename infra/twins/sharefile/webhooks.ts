import { createHmac, randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { DeliveryQueue, SANDBOX_OAUTH_CLIENT, targetProblem, type Clock, type Delivery, type WebhookTargets } from '../kit';
import { badRequest, entity, forbidden, feed, jsonBody, notFound, SF_HOST, type Route, type SfEnv } from './http';
import type { SfState } from './state';

/**
 * ShareFile's webhook subscriptions (https://api.sharefile.com/html/docs/WebhookSubscriptions.html):
 * POST/GET/DELETE `WebhookSubscriptions` with a context (the account, or a folder and what is
 * below it) and the events to send (`{ResourceType, OperationName}`: File Upload/Update/Delete/
 * Download, Folder Delete). Each event is POSTed as JSON ({WebhookSubscriptionId, AccountInfo,
 * Event: {Timestamp, OperationName, ResourceType, Resource: {Id, Parent: {Id}}}}); ShareFile
 * expects a 2xx within 10 s (https://api.sharefile.com/webhooks/payloads). The twin sees changes
 * by comparing the items after each write with what it last saw.
 *
 * Signatures (https://api.sharefile.com/webhooks/payloads, "Webhook Signatures"): an OAuth client's
 * webhook client (`WebhookClients(<client id>)`) holds a primary and a secondary signature key
 * (https://api.sharefile.com/html/docs/ShareFile.Api.Models.WebhookSignatureKeys.html); each POST
 * of a subscription made through that client carries the HMAC-SHA256 of its body under each key
 * that is set, in `SF-WEBHOOK-PRIMARY-SIGNATURE` and `SF-WEBHOOK-SECONDARY-SIGNATURE` (base64).
 * `POST WebhookClients(id)/PrimarySignatureKey` (or `SecondarySignatureKey`) makes a new key:
 * rotation. The twin's only OAuth client is the sandbox app, through which its sandbox keys act
 * too; its keys are seeded (SHAREFILE_WEBHOOK_KEYS), so the twin signs from the start.
 */

/** The sandbox app's signature keys as the twin starts (what a deployment would configure). */
export const SHAREFILE_WEBHOOK_KEYS = { primary: 'sf-twin-primary-signature-key', secondary: 'sf-twin-secondary-signature-key' } as const;

/** The header value: base64 of HMAC-SHA256(key, body). */
export function sfWebhookSignature(key: string, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64');
}

export const SF_WEBHOOK_EVENTS = ['File.Upload', 'File.Update', 'File.Delete', 'Folder.Delete'] as const;

export interface SfWebhookSubscription {
  Id: string;
  SubscriptionContext: { ResourceType: 'Account' | 'Folder'; ResourceId: string };
  WebhookUrl: string;
  Events: { ResourceType: string; OperationName: string }[];
  CreatorId: string;
  /** The OAuth client the subscription was made through: its keys sign the POSTs. */
  ClientId: string;
}

interface SignatureKeys {
  PrimaryKey?: string;
  SecondaryKey?: string;
}

interface Seen {
  kind: 'file' | 'folder';
  parentId: string;
  deleted: boolean;
  version: number;
  edited: number;
}

export interface SfWebhookOptions {
  clock: Clock;
  targets: WebhookTargets;
  fetch: typeof fetch;
  redeliver?: number;
}

export class SfWebhooks {
  readonly subscriptions = new Map<string, SfWebhookSubscription>();
  /** Webhook clients by OAuth client id: their signature keys. */
  readonly clients = new Map<string, SignatureKeys>([[SANDBOX_OAUTH_CLIENT.id, { PrimaryKey: SHAREFILE_WEBHOOK_KEYS.primary, SecondaryKey: SHAREFILE_WEBHOOK_KEYS.secondary }]]);
  private readonly queue: DeliveryQueue<{ subscription: string }>;
  private readonly seen = new Map<string, Seen>();
  private next = 1;

  constructor(
    private readonly state: SfState,
    readonly options: SfWebhookOptions,
  ) {
    this.queue = new DeliveryQueue({
      timeoutMs: 10_000,
      fetch: options.fetch,
      headers: { 'content-type': 'application/json' },
      sign: (_url, body, extra) => this.sign(extra.subscription, body),
      ...(options.redeliver ? { redeliver: options.redeliver } : {}),
    });
    for (const item of state.items.values()) this.seen.set(item.id, snapshot(item));
  }

  get log(): Delivery<{ subscription: string }>[] {
    return this.queue.log;
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** The signature headers of a POST: one per key its subscription's client has (none without keys). */
  private sign(subscriptionId: string, body: string): Record<string, string> {
    const sub = this.subscriptions.get(subscriptionId);
    const keys = sub ? this.clients.get(sub.ClientId) : undefined;
    return {
      ...(keys?.PrimaryKey ? { 'SF-WEBHOOK-PRIMARY-SIGNATURE': sfWebhookSignature(keys.PrimaryKey, body) } : {}),
      ...(keys?.SecondaryKey ? { 'SF-WEBHOOK-SECONDARY-SIGNATURE': sfWebhookSignature(keys.SecondaryKey, body) } : {}),
    };
  }

  routes(): Route[] {
    const webhookClient = (id: string) => ({ 'odata.type': 'ShareFile.Api.Models.WebhookClient', OAuthClientId: id, SignatureKeys: { ...this.clients.get(id) }, url: `${SF_HOST}/sf/v3/WebhookClients(${id})` });
    const client = (c: { get(k: 'user'): { admin: boolean } }, id: string) => {
      // Managing a client's keys is the account administrator's (the twin's only client is the sandbox app).
      if (!this.clients.has(id)) throw notFound(`WebhookClient ${id} not found`);
      if (!c.get('user').admin) throw forbidden('Only an administrator manages webhook clients.');
      return id;
    };
    const rotate = (which: keyof SignatureKeys) => (c: Parameters<Route['handler']>[0], [id]: string[]) => {
      const found = client(c, id!);
      this.clients.set(found, { ...this.clients.get(found), [which]: randomBytes(32).toString('base64') });
      return entity(c, 'WebhookClients', webhookClient(found));
    };
    const out = (s: SfWebhookSubscription) => ({ 'odata.type': 'ShareFile.Api.Models.WebhookSubscription', Id: s.Id, SubscriptionContext: s.SubscriptionContext, WebhookUrl: s.WebhookUrl, Events: s.Events, url: `${SF_HOST}/sf/v3/WebhookSubscriptions(${s.Id})` });
    const mine = (userId: string, id: string) => {
      const s = this.subscriptions.get(id);
      if (!s || s.CreatorId !== userId) throw notFound(`WebhookSubscription ${id} not found`);
      return s;
    };
    return [
      {
        method: 'POST',
        pattern: 'WebhookSubscriptions',
        handler: async (c) => {
          const body = await jsonBody(c);
          const ctx = body.SubscriptionContext as { ResourceType?: unknown; ResourceId?: unknown } | undefined;
          if (!ctx || (ctx.ResourceType !== 'Account' && ctx.ResourceType !== 'Folder')) throw badRequest('SubscriptionContext.ResourceType must be Account or Folder');
          if (ctx.ResourceType === 'Folder' && (typeof ctx.ResourceId !== 'string' || this.state.items.get(ctx.ResourceId)?.kind !== 'folder')) throw notFound('The subscription context folder was not found');
          if (typeof body.WebhookUrl !== 'string') throw badRequest('WebhookUrl is required');
          const problem = targetProblem(body.WebhookUrl, this.options.targets);
          if (problem) throw badRequest(problem.replace('"url"', 'WebhookUrl'));
          const events = Array.isArray(body.Events) ? (body.Events as { ResourceType?: unknown; OperationName?: unknown }[]) : [];
          if (events.length === 0 || !events.every((e) => (SF_WEBHOOK_EVENTS as readonly string[]).includes(`${String(e.ResourceType)}.${String(e.OperationName)}`))) {
            throw badRequest(`Events must list supported events: ${SF_WEBHOOK_EVENTS.join(', ')}`);
          }
          const sub: SfWebhookSubscription = {
            Id: `ws${String(this.next++).padStart(8, '0')}`,
            SubscriptionContext: { ResourceType: ctx.ResourceType, ResourceId: ctx.ResourceType === 'Folder' ? String(ctx.ResourceId) : '' },
            WebhookUrl: body.WebhookUrl,
            Events: events.map((e) => ({ ResourceType: String(e.ResourceType), OperationName: String(e.OperationName) })),
            CreatorId: c.get('user').id,
            ClientId: SANDBOX_OAUTH_CLIENT.id,
          };
          this.subscriptions.set(sub.Id, sub);
          return entity(c, 'WebhookSubscriptions', out(sub));
        },
      },
      { method: 'GET', pattern: 'WebhookSubscriptions', handler: (c) => feed(c, 'WebhookSubscriptions', [...this.subscriptions.values()].filter((s) => s.CreatorId === c.get('user').id).map(out)) },
      { method: 'GET', pattern: 'WebhookSubscriptions(*)', handler: (c, [id]) => entity(c, 'WebhookSubscriptions', out(mine(c.get('user').id, id!))) },
      { method: 'GET', pattern: 'WebhookClients(*)', handler: (c, [id]) => entity(c, 'WebhookClients', webhookClient(client(c, id!))) },
      { method: 'POST', pattern: 'WebhookClients(*)/PrimarySignatureKey', handler: rotate('PrimaryKey') },
      { method: 'POST', pattern: 'WebhookClients(*)/SecondarySignatureKey', handler: rotate('SecondaryKey') },
      {
        method: 'DELETE',
        pattern: 'WebhookSubscriptions(*)',
        handler: (c, [id]) => {
          this.subscriptions.delete(mine(c.get('user').id, id!).Id);
          return c.body(null, 204);
        },
      },
    ];
  }

  /** After each write (API or upload URL): the changes it made, to the matching subscriptions. */
  watch(): MiddlewareHandler<SfEnv> {
    return async (c, next) => {
      await next();
      if (c.req.method === 'GET' || c.res.status >= 300) return;
      this.compare();
    };
  }

  private compare(): void {
    const at = new Date(this.options.clock.now()).toISOString();
    for (const item of this.state.items.values()) {
      const before = this.seen.get(item.id);
      const now = snapshot(item);
      this.seen.set(item.id, now);
      const type = item.kind === 'file' ? 'File' : 'Folder';
      let operation: string | undefined;
      if (!before) operation = item.kind === 'file' && !item.deleted ? 'Upload' : undefined;
      else if (!before.deleted && now.deleted) operation = 'Delete';
      else if (!now.deleted && item.kind === 'file' && (before.version !== now.version || before.edited !== now.edited)) operation = 'Update';
      if (!operation) continue;
      for (const sub of this.subscriptions.values()) {
        if (!sub.Events.some((e) => e.ResourceType === type && e.OperationName === operation)) continue;
        if (sub.SubscriptionContext.ResourceType === 'Folder' && !this.below(item.parentId, sub.SubscriptionContext.ResourceId)) continue;
        const payload = {
          WebhookSubscriptionId: sub.Id,
          AccountInfo: { AccountId: 'a0001', Subdomain: this.state.account.subdomain, AppControlPlane: 'sharefile.com', ApiControlPlane: 'sf-api.com' },
          Event: { Timestamp: at, OperationName: operation, ResourceType: type, Resource: { Id: item.id, Parent: { Id: item.parentId } } },
        };
        this.queue.send(sub.Id, () => (this.subscriptions.has(sub.Id) ? { url: sub.WebhookUrl, payload, extra: { subscription: sub.Id } } : undefined));
      }
    }
  }

  /** Whether `parentId` is `folderId` or lies below it. */
  private below(parentId: string, folderId: string): boolean {
    for (let id: string | undefined = parentId, hops = 0; id && hops < 100; hops++) {
      if (id === folderId) return true;
      id = this.state.items.get(id)?.parentId;
    }
    return false;
  }
}

const snapshot = (i: { kind: 'file' | 'folder'; parentId: string; deleted: boolean; version: number; edited: number }): Seen => ({ kind: i.kind, parentId: i.parentId, deleted: i.deleted, version: i.version, edited: i.edited });
