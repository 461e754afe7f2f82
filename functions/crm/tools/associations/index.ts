import { toolGroup } from '../../../../shared/core/tool';
import type { HubSpotClient } from '../../client';

/** The association tools (docs/spec.md#crm-objects), each loaded on first use. */
export const associationTools = toolGroup<HubSpotClient>('associations', {
  getAssociations: () => import('./getAssociations').then((m) => m.getAssociations),
  createAssociation: () => import('./createAssociation').then((m) => m.createAssociation),
});
