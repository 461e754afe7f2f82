import { toolGroup } from '../../../../shared/core/tool';
import type { BatchDataClient } from '../../client';

/** The property tools (docs/spec.md#realty-property), each loaded on first use. */
export const propertyTools = toolGroup<BatchDataClient>('properties', {
  lookupProperty: () => import('./lookupProperty').then((m) => m.lookupProperty),
  searchProperties: () => import('./searchProperties').then((m) => m.searchProperties),
  comparableProperty: () => import('./comparableProperty').then((m) => m.comparableProperty),
});
