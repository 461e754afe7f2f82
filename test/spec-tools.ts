/**
 * Tool names the specification (shared/spec) shows by name, per platform. A registered tool must
 * be one of these or one of the "not shown" tools its issue names (listed apart, with the reason).
 */
export const SPEC_TOOLS: Record<string, readonly string[]> = {
  dbapp: [
    // §4.2 automations (7 of 18 shown)
    'getAutomationCatalog', 'listAutomations', 'getAutomation', 'validateAutomation', 'getAutomationRevisions', 'createAutomation', 'updateAutomation',
    // §4.3 records (6 of 14 shown)
    'getRecord', 'listRecords', 'createRecord', 'batchCreateRecords', 'updateRecord', 'batchUpdateRecords',
    // §4.4 views
    'getAppViews', 'getView', 'createView', 'updateView', 'makeViewDefault', 'deleteView',
    // §4.5 workspaces
    'listWorkspaces', 'getWorkspace', 'createWorkspace', 'updateWorkspace', 'listWorkspaceMembers', 'addWorkspaceMember', 'removeWorkspaceMember', 'deleteWorkspace',
    // §4.6 webhooks
    'listWebhooks', 'createWebhook', 'deleteWebhook', 'requestWebhookVerification', 'validateWebhookVerification',
    // §4.1 referenced by name
    'getApp', 'listApps', 'getOrganization', 'uploadFiles',
  ],
};

/** Tools the spec leaves "not shown", named by the issues in the spec's style. */
export const NOT_SHOWN_TOOLS: Record<string, readonly string[]> = {
  dbapp: [
    // §4.1 "apps, organization, users … not shown": the user listing that user ids come from.
    'listOrganizationUsers',
    // §4.3 "other record tools of the group (8, including filtering and deletion): not shown".
    'deleteRecord', 'restoreRecord', 'filterRecords', 'getRelatedRecords', 'findRelatableRecords', 'getRecordRevisions', 'listRecordComments', 'createRecordComment',
    // §4.2 "other automation tools of the group (activation, run, simulate, run history, and the remaining ones): not shown" — 11 of 18.
    'activateAutomation', 'pauseAutomation', 'deleteAutomation', 'replaceAutomationTrigger', 'runAutomation', 'simulateAutomation', 'callAutomation',
    'generateAutomationWeblink', 'listAutomationRuns', 'getAutomationRun', 'getAutomationUsageReport',
  ],
};
