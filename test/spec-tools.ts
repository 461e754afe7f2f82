/**
 * Tool names the specification (shared/spec) shows by name, per platform. A registered tool must
 * be one of these or one of the "not shown" tools its issue names (listed apart, with the reason).
 */
export const SPEC_TOOLS: Record<string, readonly string[]> = {
  dbapp: [
    // docs/spec.md#dbapp-automation automations (7 of 18 shown)
    'getAutomationCatalog', 'listAutomations', 'getAutomation', 'validateAutomation', 'getAutomationRevisions', 'createAutomation', 'updateAutomation',
    // docs/spec.md#dbapp-record records (6 of 14 shown)
    'getRecord', 'listRecords', 'createRecord', 'batchCreateRecords', 'updateRecord', 'batchUpdateRecords',
    // docs/spec.md#dbapp-view views
    'getAppViews', 'getView', 'createView', 'updateView', 'makeViewDefault', 'deleteView',
    // docs/spec.md#dbapp-workspace workspaces
    'listWorkspaces', 'getWorkspace', 'createWorkspace', 'updateWorkspace', 'listWorkspaceMembers', 'addWorkspaceMember', 'removeWorkspaceMember', 'deleteWorkspace',
    // docs/spec.md#dbapp-webhook webhooks
    'listWebhooks', 'createWebhook', 'deleteWebhook', 'requestWebhookVerification', 'validateWebhookVerification',
    // docs/spec.md#common-protocol referenced by name
    'getApp', 'listApps', 'getOrganization', 'uploadFiles',
  ],
  collab: [
    // docs/spec.md#collab-conversation conversations
    'createConversation', 'createConversationOnObject', 'getConversation', 'getConversationEvents', 'getConversations', 'getConversationsOnObject',
    'getDirectConversation', 'searchConversations', 'replyToConversation', 'addConversationParticipants', 'leaveConversation',
    // docs/spec.md#collab-item items (6 shown) and the lookups referenced by name
    'createItem', 'getItem', 'updateItem', 'deleteItem', 'cloneItem', 'filterItems',
    'getApp', 'getAppsBySpace', 'getOrganizationMembers', 'getContacts', 'getUserStatus',
    // docs/spec.md#collab-comment comments
    'addCommentToObject', 'getComment', 'getCommentsOnObject', 'getCommentRevisions', 'updateComment', 'deleteComment',
    // docs/spec.md#collab-file files (analyzeFile referenced)
    'uploadFiles', 'uploadFile', 'attachFile', 'downloadFile', 'getFile', 'getFilesOnApp', 'getFilesOnSpace', 'copyFile', 'updateFile', 'deleteFile',
    'replaceFile', 'copyItemFiles', 'fileToMarkdown', 'analyzeFile',
    // docs/spec.md#collab-task tasks and labels
    'createTasks', 'getTask', 'updateTasks', 'deleteTasks', 'getTasks', 'createLabel', 'getLabels', 'updateLabel', 'deleteLabel',
    // docs/spec.md#collab-view views
    'getViews', 'getView', 'createView', 'updateView', 'deleteView', 'makeViewDefault', 'updateLastView',
    // docs/spec.md#collab-grant sharing
    'shareItem', 'updateShare', 'deleteShare', 'getItemShares',
    // docs/spec.md#collab-hook hooks, docs/spec.md#collab-search search
    'getHooks', 'createHook', 'deleteHook', 'requestHookVerification', 'validateHookVerification', 'searchPodio',
  ],
  filebox: [
    // docs/spec.md#filebox-item items (8 shown)
    'getItem', 'getTopLevelFolders', 'listChildren', 'createFolder', 'updateItem', 'deleteItem', 'copyItem', 'moveItem',
    // docs/spec.md#filebox-share shares, docs/spec.md#filebox-user users, docs/spec.md#filebox-group groups, docs/spec.md#filebox-access-control access controls
    'getShare', 'listShares', 'createShare', 'updateShare', 'deleteShare', 'sendShareNotification',
    'getCurrentUser', 'getUser', 'listUsers', 'createUser', 'updateUser', 'deleteUser',
    'getGroup', 'listGroups', 'createGroup', 'updateGroup', 'deleteGroup', 'addGroupMembers', 'removeGroupMember',
    'getItemAccessControls', 'createAccessControl', 'updateAccessControl', 'deleteAccessControl',
  ],
  realty: [
    // docs/spec.md#realty-property
    'lookupProperty', 'searchProperties', 'comparableProperty',
  ],
  crm: [
    // docs/spec.md#crm-objects
    'createDeal', 'getDeal', 'updateDeal', 'deleteDeal', 'searchDeals', 'getPipelines',
    'createContact', 'getContact', 'updateContact', 'deleteContact', 'searchContacts',
    'getProperties', 'createProperty', 'getAssociations', 'createAssociation',
  ],
};

/** Tools the spec leaves "not shown", named here in the spec's style. */
export const NOT_SHOWN_TOOLS: Record<string, readonly string[]> = {
  dbapp: [
    // docs/spec.md#common-protocol "apps, organization, users … not shown": the user listing that user ids come from.
    'listOrganizationUsers',
    // docs/spec.md#dbapp-record "other record tools of the group (8, including filtering and deletion): not shown".
    'deleteRecord', 'restoreRecord', 'filterRecords', 'getRelatedRecords', 'findRelatableRecords', 'getRecordRevisions', 'listRecordComments', 'createRecordComment',
    // docs/spec.md#dbapp-automation "other automation tools of the group (activation, run, simulate, run history, and the remaining ones): not shown" — 11 of 18.
    'activateAutomation', 'pauseAutomation', 'deleteAutomation', 'replaceAutomationTrigger', 'runAutomation', 'simulateAutomation', 'callAutomation',
    'generateAutomationWeblink', 'listAutomationRuns', 'getAutomationRun', 'getAutomationUsageReport',
    // The record files read as collab reads its files (docs/spec.md#collab-file: fileToMarkdown, analyzeFile).
    'fileToMarkdown', 'analyzeFile',
  ],
  collab: [
    // docs/spec.md#collab-item: "other item tools of the group (7 more, e.g. batch create/update, aggregation)": the registry names them.
    'batchCreateItems', 'batchUpdateItems', 'batchDeleteItems', 'aggregateItems', 'getItemRevisions', 'getItemReferences', 'findReferenceableItems',
    // Not in the spec: the orgs and their spaces, where an agent starts from nothing.
    'getOrganizations',
  ],
  filebox: [
    // docs/spec.md#filebox-item: "Other tools of the Items group (3 of 11, including searchItems): not shown": named here (search, upload, download link).
    'searchItems', 'uploadFile', 'downloadFile',
    // Documents stored in ShareFile read as collab reads its files (docs/spec.md#collab-file: fileToMarkdown, analyzeFile).
    'fileToMarkdown', 'analyzeFile',
  ],
  crm: [
    // docs/spec.md#crm-objects: "Tools of crm for companies and tickets: not shown": named here, in the same form as deals.
    'createCompany', 'getCompany', 'updateCompany', 'deleteCompany', 'searchCompanies',
    'createTicket', 'getTicket', 'updateTicket', 'deleteTicket', 'searchTickets',
  ],
};

/** The event inbox's tools, the same on every platform whose vendor has webhooks. */
export const EVENT_TOOLS = ['subscribeEvents', 'listEvents', 'ackEvents', 'getSubscription', 'listSubscriptions', 'deleteSubscription'] as const;
for (const platform of ['dbapp', 'collab', 'crm', 'filebox']) NOT_SHOWN_TOOLS[platform] = [...NOT_SHOWN_TOOLS[platform]!, ...EVENT_TOOLS];
