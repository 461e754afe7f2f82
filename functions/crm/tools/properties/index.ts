import { toolGroup } from '../../../../shared/core/tool';
import type { HubSpotClient } from '../../client';

/** The property tools (docs/spec.md#crm-objects), each loaded on first use. */
export const propertyTools = toolGroup<HubSpotClient>('properties', {
  getProperties: () => import('./getProperties').then((m) => m.getProperties),
  createProperty: () => import('./createProperty').then((m) => m.createProperty),
});
