import { activateAutomation } from './activateAutomation';
import { callAutomation } from './callAutomation';
import { createAutomation } from './createAutomation';
import { deleteAutomation } from './deleteAutomation';
import { generateAutomationWeblink } from './generateAutomationWeblink';
import { getAutomation } from './getAutomation';
import { getAutomationCatalog } from './getAutomationCatalog';
import { getAutomationRevisions } from './getAutomationRevisions';
import { getAutomationRun } from './getAutomationRun';
import { getAutomationUsageReport } from './getAutomationUsageReport';
import { listAutomationRuns } from './listAutomationRuns';
import { listAutomations } from './listAutomations';
import { pauseAutomation } from './pauseAutomation';
import { replaceAutomationTrigger } from './replaceAutomationTrigger';
import { runAutomation } from './runAutomation';
import { simulateAutomation } from './simulateAutomation';
import { updateAutomation } from './updateAutomation';
import { validateAutomation } from './validateAutomation';

export const automationTools = [
  getAutomationCatalog,
  listAutomations,
  getAutomation,
  validateAutomation,
  getAutomationRevisions,
  createAutomation,
  updateAutomation,
  replaceAutomationTrigger,
  activateAutomation,
  pauseAutomation,
  deleteAutomation,
  runAutomation,
  simulateAutomation,
  callAutomation,
  generateAutomationWeblink,
  listAutomationRuns,
  getAutomationRun,
  getAutomationUsageReport,
];
