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
  collab: [
    // §4.1 conversations
    'createConversation', 'createConversationOnObject', 'getConversation', 'getConversationEvents', 'getConversations', 'getConversationsOnObject',
    'getDirectConversation', 'searchConversations', 'replyToConversation', 'addConversationParticipants', 'leaveConversation',
    // §4.2 items (6 shown) and the lookups referenced by name
    'createItem', 'getItem', 'updateItem', 'deleteItem', 'cloneItem', 'filterItems',
    'getApp', 'getAppsBySpace', 'getOrganizationMembers', 'getContacts', 'getUserStatus',
    // §4.3 comments
    'addCommentToObject', 'getComment', 'getCommentsOnObject', 'getCommentRevisions', 'updateComment', 'deleteComment',
    // §4.4 files (analyzeFile referenced)
    'uploadFiles', 'uploadFile', 'attachFile', 'downloadFile', 'getFile', 'getFilesOnApp', 'getFilesOnSpace', 'copyFile', 'updateFile', 'deleteFile',
    'replaceFile', 'copyItemFiles', 'fileToMarkdown', 'analyzeFile',
    // §4.5 tasks and labels
    'createTasks', 'getTask', 'updateTasks', 'deleteTasks', 'getTasks', 'createLabel', 'getLabels', 'updateLabel', 'deleteLabel',
    // §4.6 views
    'getViews', 'getView', 'createView', 'updateView', 'deleteView', 'makeViewDefault', 'updateLastView',
    // §4.7 sharing
    'shareItem', 'updateShare', 'deleteShare', 'getItemShares',
    // §4.8 hooks, §4.9 search
    'getHooks', 'createHook', 'deleteHook', 'requestHookVerification', 'validateHookVerification', 'searchPodio',
  ],
  filebox: [
    // §4.1 items (8 shown)
    'getItem', 'getTopLevelFolders', 'listChildren', 'createFolder', 'updateItem', 'deleteItem', 'copyItem', 'moveItem',
    // §4.2 shares, §4.3 users, §4.4 groups, §4.5 access controls
    'getShare', 'listShares', 'createShare', 'updateShare', 'deleteShare', 'sendShareNotification',
    'getCurrentUser', 'getUser', 'listUsers', 'createUser', 'updateUser', 'deleteUser',
    'getGroup', 'listGroups', 'createGroup', 'updateGroup', 'deleteGroup', 'addGroupMembers', 'removeGroupMember',
    'getItemAccessControls', 'createAccessControl', 'updateAccessControl', 'deleteAccessControl',
  ],
  realty: [
    // §4.7
    'lookupProperty', 'searchProperties', 'comparableProperty',
  ],
  crm: [
    // §4.6
    'createDeal', 'getDeal', 'updateDeal', 'deleteDeal', 'searchDeals', 'getPipelines',
    'createContact', 'getContact', 'updateContact', 'deleteContact', 'searchContacts',
    'getProperties', 'createProperty', 'getAssociations', 'createAssociation',
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
    // Issue 22: the record files read as collab reads its files (collab §4.4 fileToMarkdown, analyzeFile).
    'fileToMarkdown', 'analyzeFile',
  ],
  collab: [
    // §4.2 "other item tools of the group (7 more, e.g. batch create/update, aggregation)": issue 7 names them.
    'batchCreateItems', 'batchUpdateItems', 'batchDeleteItems', 'aggregateItems', 'getItemRevisions', 'getItemReferences', 'findReferenceableItems',
    // Not in the spec: the orgs and their spaces, where an agent starts from nothing.
    'getOrganizations',
  ],
  filebox: [
    // §4.1 "Other tools of the Items group (3 of 11, including searchItems): not shown": issue 10 names them (search, upload, download link).
    'searchItems', 'uploadFile', 'downloadFile',
    // Issue 22: documents stored in ShareFile read as collab reads its files (collab §4.4 fileToMarkdown, analyzeFile).
    'fileToMarkdown', 'analyzeFile',
  ],
  crm: [
    // §4.6 "Tools of crm for companies and tickets: not shown": issue 11 names them, in the same form as deals.
    'createCompany', 'getCompany', 'updateCompany', 'deleteCompany', 'searchCompanies',
    'createTicket', 'getTicket', 'updateTicket', 'deleteTicket', 'searchTickets',
  ],
};
