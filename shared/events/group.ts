import { toolGroup, type Tool, type ToolLoaders, type Toolset } from '../core/tool';
import type { EventsAdapter } from '../core/event-model';

/**
 * The event inbox's six tools are the same on every platform with webhooks; what differs is data:
 * the platform's adapter (functions/<platform>/events/adapter.ts). So a platform lists them with
 * `...eventToolGroup(loadAdapter)` instead of a tools/events/ folder of its own: one loader per
 * tool, tagged with the group "events" (MCP toolsets, the catalog's ?toolsets=), each loading the
 * shared tools (shared/events/tools.ts) and the adapter on first use.
 */
export const EVENT_TOOL_NAMES = ['subscribeEvents', 'listEvents', 'ackEvents', 'getSubscription', 'listSubscriptions', 'deleteSubscription'] as const;

/** The event tools' toolset, as a platform with webhooks describes it (`...EVENTS_TOOLSET` in its descriptor's toolsets). */
export const EVENTS_TOOLSET: Readonly<Record<'events', Toolset>> = {
  events: { description: "The event inbox: subscribe to the vendor's webhooks, then list and acknowledge their events", writes: true },
};

export function eventToolGroup<C>(adapter: () => Promise<EventsAdapter<C, any>>): ToolLoaders<C> {
  let tools: Promise<Record<(typeof EVENT_TOOL_NAMES)[number], Tool<any, any, C>>> | undefined;
  const load = () => (tools ??= Promise.all([import('./tools'), adapter()]).then(([m, a]) => m.eventTools(a) as never));
  return toolGroup<C>('events', Object.fromEntries(EVENT_TOOL_NAMES.map((name) => [name, () => load().then((t) => t[name])])));
}
