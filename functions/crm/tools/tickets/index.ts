import { toolGroup } from '../../../../shared/core/tool';
import type { HubSpotClient } from '../../client';

/** The tickets tools (not shown in the spec, same form as deals), each loaded on first use. */
export const ticketsTools = toolGroup<HubSpotClient>('tickets', {
  createTicket: () => import('./createTicket').then((m) => m.createTicket),
  getTicket: () => import('./getTicket').then((m) => m.getTicket),
  updateTicket: () => import('./updateTicket').then((m) => m.updateTicket),
  deleteTicket: () => import('./deleteTicket').then((m) => m.deleteTicket),
  searchTickets: () => import('./searchTickets').then((m) => m.searchTickets),
});
