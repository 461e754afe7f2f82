import { toolGroup } from '../../../../shared/core/tool';
import type { HubSpotClient } from '../../client';

/** The deals tools (docs/spec.md#crm-objects), each loaded on first use. */
export const dealsTools = toolGroup<HubSpotClient>('deals', {
  createDeal: () => import('./createDeal').then((m) => m.createDeal),
  getDeal: () => import('./getDeal').then((m) => m.getDeal),
  updateDeal: () => import('./updateDeal').then((m) => m.updateDeal),
  deleteDeal: () => import('./deleteDeal').then((m) => m.deleteDeal),
  searchDeals: () => import('./searchDeals').then((m) => m.searchDeals),
  getPipelines: () => import('./getPipelines').then((m) => m.getPipelines),
});
