import { toolGroup } from '../../../../shared/tool';
import type { BatchDataClient } from '../../client';

/** The property tools of issue 11 (spec §4.7), each loaded on first use. */
export const propertyTools = toolGroup<BatchDataClient>('properties', {
  lookupProperty: () => import('./lookupProperty').then((m) => m.lookupProperty),
  searchProperties: () => import('./searchProperties').then((m) => m.searchProperties),
  comparableProperty: () => import('./comparableProperty').then((m) => m.comparableProperty),
});
