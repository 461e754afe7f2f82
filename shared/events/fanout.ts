import { log } from '../core/log';
import type { EventsConfig } from '../core/events-config';
import type { InboxEvent } from '../core/event-model';

/**
 * Optional fan-out of each newly stored event to an SQS queue and/or an EventBridge bus named in
 * the configuration (EVENTS_SQS_QUEUE_URL, EVENTS_BUS_NAME; off when unset), for scheduled jobs
 * and other services. The event is stored first: a failed fan-out is logged and counted, never a
 * refused delivery (the vendor would retry what is already stored). The SDK clients load on first use.
 */
export type Sender = (events: readonly InboxEvent[], platform: string) => Promise<void>;

/** SQS SendMessageBatch and EventBridge PutEvents both take at most 10 entries per request. */
const BATCH = 10;

let sqs: Promise<{ send(cmd: unknown): Promise<any>; Command: new (input: any) => unknown }> | undefined;
let eventBridge: Promise<{ send(cmd: unknown): Promise<any>; Command: new (input: any) => unknown }> | undefined;

/** The senders the configuration names; none by default. Tests pass their own clients. */
export function fanoutSenders(config: EventsConfig['fanout']): Sender[] {
  const senders: Sender[] = [];
  if (config.queueUrl) {
    const queueUrl = config.queueUrl;
    senders.push(async (events) => {
      const c = await (sqs ??= import('@aws-sdk/client-sqs').then((m) => {
        const client = new m.SQSClient({});
        return { send: (cmd: unknown) => client.send(cmd as never), Command: m.SendMessageBatchCommand as never };
      }));
      for (let i = 0; i < events.length; i += BATCH) {
        const entries = events.slice(i, i + BATCH).map((e, j) => ({ Id: String(j), MessageBody: JSON.stringify(e) }));
        const out = await c.send(new c.Command({ QueueUrl: queueUrl, Entries: entries }));
        if (out?.Failed?.length) throw new Error(`SQS refused ${out.Failed.length} of ${entries.length} messages`);
      }
    });
  }
  if (config.busName) {
    const busName = config.busName;
    senders.push(async (events, platform) => {
      const c = await (eventBridge ??= import('@aws-sdk/client-eventbridge').then((m) => {
        const client = new m.EventBridgeClient({});
        return { send: (cmd: unknown) => client.send(cmd as never), Command: m.PutEventsCommand as never };
      }));
      for (let i = 0; i < events.length; i += BATCH) {
        const entries = events.slice(i, i + BATCH).map((e) => ({ EventBusName: busName, Source: `tool-execution-service.${platform}`, DetailType: e.type, Detail: JSON.stringify(e) }));
        const out = await c.send(new c.Command({ Entries: entries }));
        if (out?.FailedEntryCount) throw new Error(`EventBridge refused ${out.FailedEntryCount} of ${entries.length} entries`);
      }
    });
  }
  return senders;
}

/** Sends to every sender; failures are logged by name only (never the event's data). */
export async function fanOut(senders: readonly Sender[], events: readonly InboxEvent[], platform: string): Promise<void> {
  if (events.length === 0 || senders.length === 0) return;
  const results = await Promise.allSettled(senders.map((send) => send(events, platform)));
  for (const r of results) {
    if (r.status === 'rejected') log('error', 'event fan-out failed', { platform, events: events.length, error: r.reason instanceof Error ? r.reason.message : 'unknown' });
  }
}
