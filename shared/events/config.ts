import type { Runtime } from '../core/runtime';
import { loadEventsConfig, type EventsConfig } from '../core/events-config';

/** The runtime's events configuration, loaded once (the receiver, the event tools, the admin listing). */
export const eventsConfigOf = (rt: Pick<Runtime, 'config'>): EventsConfig => (rt.config.events ??= loadEventsConfig({}));
