/** validateAutomation's verdict: each broken reason with what is at fault and how to fix it. */
import type { TapeAutomationError } from '../wire';

// --- validation verdict ---
export interface AutomationValidationError {
  code: string;
  message: string;
  remediation: string;
  deactivated: boolean;
  block_id: string | null;
  action_id: string | null;
  field_id: number | null;
  app_id: number | null;
}

/** How to fix each family of broken reasons (docs/vendors/tape.md#automation-errors). */
function remediation(e: TapeAutomationError): string {
  const c = e.code;
  const where = e.action_id ? `action ${e.action_id}` : 'the automation';
  if (c.startsWith('trigger_')) return 'Fix the trigger config (replaceAutomationTrigger or updateAutomation trigger); getAutomationCatalog shows its config_schema.';
  if (c.startsWith('filter_') && e.field_id != null) return `The filter refers to field ${e.field_id}, which the app no longer has (see getApp): change or remove that condition with updateAutomation filter.`;
  if (c.startsWith('filter_')) return 'Fix or remove the failing filter condition with updateAutomation filter (filter: null runs unfiltered).';
  if (c.startsWith('field_assignment_') || c.startsWith('checklist_property_')) return `Fix the field assignments of ${where} (field ids from getApp) with updateAutomation actions.`;
  if (c === 'action_app_missing' || c === 'action_app_invalid') return `Point ${where} at an existing app (listApps) with updateAutomation actions.`;
  if (c === 'action_automation_missing' || c === 'action_automation_invalid') return `Point ${where} at an automation of the same app with the matching trigger (listAutomations).`;
  if (c === 'action_invalid') return `${where} does not fit the trigger or misses a required setting: check its config_schema (getAutomationCatalog detail) and the trigger.`;
  return `Fix ${where} with updateAutomation (see getAutomation verbose for the definition).`;
}

export function toValidationError(e: TapeAutomationError): AutomationValidationError {
  return {
    code: e.code,
    message: e.message,
    remediation: remediation(e),
    deactivated: e.deactivated === true,
    block_id: e.block_id ?? null,
    action_id: e.action_id ?? null,
    field_id: e.field_id ?? null,
    app_id: e.app_id ?? null,
  };
}
