import { toolGroup } from '../../../../shared/core/tool';
import type { HubSpotClient } from '../../client';

/** The contacts tools (docs/spec.md#crm-objects), each loaded on first use. */
export const contactsTools = toolGroup<HubSpotClient>('contacts', {
  createContact: () => import('./createContact').then((m) => m.createContact),
  getContact: () => import('./getContact').then((m) => m.getContact),
  updateContact: () => import('./updateContact').then((m) => m.updateContact),
  deleteContact: () => import('./deleteContact').then((m) => m.deleteContact),
  searchContacts: () => import('./searchContacts').then((m) => m.searchContacts),
});
