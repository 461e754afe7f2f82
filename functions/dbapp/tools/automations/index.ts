import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

export const automationTools = toolGroup<TapeClient>('automations', {
  getAutomationCatalog: () => import('./getAutomationCatalog').then((m) => m.getAutomationCatalog),
  listAutomations: () => import('./listAutomations').then((m) => m.listAutomations),
  getAutomation: () => import('./getAutomation').then((m) => m.getAutomation),
  validateAutomation: () => import('./validateAutomation').then((m) => m.validateAutomation),
  getAutomationRevisions: () => import('./getAutomationRevisions').then((m) => m.getAutomationRevisions),
  createAutomation: () => import('./createAutomation').then((m) => m.createAutomation),
  updateAutomation: () => import('./updateAutomation').then((m) => m.updateAutomation),
  replaceAutomationTrigger: () => import('./replaceAutomationTrigger').then((m) => m.replaceAutomationTrigger),
  activateAutomation: () => import('./activateAutomation').then((m) => m.activateAutomation),
  pauseAutomation: () => import('./pauseAutomation').then((m) => m.pauseAutomation),
  deleteAutomation: () => import('./deleteAutomation').then((m) => m.deleteAutomation),
  runAutomation: () => import('./runAutomation').then((m) => m.runAutomation),
  simulateAutomation: () => import('./simulateAutomation').then((m) => m.simulateAutomation),
  callAutomation: () => import('./callAutomation').then((m) => m.callAutomation),
  generateAutomationWeblink: () => import('./generateAutomationWeblink').then((m) => m.generateAutomationWeblink),
  listAutomationRuns: () => import('./listAutomationRuns').then((m) => m.listAutomationRuns),
  getAutomationRun: () => import('./getAutomationRun').then((m) => m.getAutomationRun),
  getAutomationUsageReport: () => import('./getAutomationUsageReport').then((m) => m.getAutomationUsageReport),
});
