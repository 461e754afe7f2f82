import { toolGroup } from '../../../../shared/tool';
import type { HubSpotClient } from '../../client';

/** The property tools (spec §4.6), each loaded on first use. */
export const propertyTools = toolGroup<HubSpotClient>('properties', {
  getProperties: () => import('./getProperties').then((m) => m.getProperties),
  createProperty: () => import('./createProperty').then((m) => m.createProperty),
});
