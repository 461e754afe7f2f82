import type { ToolLoaders } from '../../../../shared/tool';
import type { BatchDataClient } from '../../client';

/** The property tools of issue 11 (spec §4.7), each loaded on first use. */
export const propertyTools: ToolLoaders<BatchDataClient> = {
  lookupProperty: () => import('./lookupProperty').then((m) => m.lookupProperty),
  searchProperties: () => import('./searchProperties').then((m) => m.searchProperties),
  comparableProperty: () => import('./comparableProperty').then((m) => m.comparableProperty),
};
