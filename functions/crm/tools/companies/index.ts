import { toolGroup } from '../../../../shared/core/tool';
import type { HubSpotClient } from '../../client';

/** The companies tools (not shown in the spec, same form as deals), each loaded on first use. */
export const companiesTools = toolGroup<HubSpotClient>('companies', {
  createCompany: () => import('./createCompany').then((m) => m.createCompany),
  getCompany: () => import('./getCompany').then((m) => m.getCompany),
  updateCompany: () => import('./updateCompany').then((m) => m.updateCompany),
  deleteCompany: () => import('./deleteCompany').then((m) => m.deleteCompany),
  searchCompanies: () => import('./searchCompanies').then((m) => m.searchCompanies),
});
