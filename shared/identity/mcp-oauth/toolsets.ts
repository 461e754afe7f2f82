import { TOOLSETS } from './scopes';

/**
 * What each toolset lets a host do, in one line, and whether any of its tools writes: the consent
 * page shows it beside each checkbox, so a person knows what they share. Held against the
 * registry's tools by test/identity/mcp-scopes.test.ts (every toolset described, `writes` true
 * exactly when a tool of the group is not read-only).
 */
export const TOOLSET_INFO: Readonly<Record<string, Readonly<Record<string, { what: string; writes: boolean }>>>> = {
  dbapp: {
    apps: { what: 'See the organization, its users and the apps with their fields.', writes: false },
    automations: { what: 'List, create, change and run automations and see their runs.', writes: true },
    events: { what: 'Subscribe to changes and read the event inbox.', writes: true },
    files: { what: 'Upload files and read documents as text.', writes: true },
    records: { what: 'Read, create, update and delete records.', writes: true },
    views: { what: 'Read and change the saved views of apps.', writes: true },
    webhooks: { what: 'List, create and delete webhooks.', writes: true },
    workspaces: { what: 'See workspaces and their members, create and change them.', writes: true },
  },
  collab: {
    apps: { what: 'See organizations, spaces, members, contacts and apps.', writes: false },
    comments: { what: 'Read, add, edit and delete comments.', writes: true },
    conversations: { what: 'Read and write conversations and their messages.', writes: true },
    events: { what: 'Subscribe to changes and read the event inbox.', writes: true },
    files: { what: 'Upload, attach and read files, documents as text.', writes: true },
    hooks: { what: 'List, create and delete hooks.', writes: true },
    items: { what: 'Read, filter, create, update and delete items.', writes: true },
    search: { what: 'Search across the organization.', writes: false },
    sharing: { what: 'Share items with people and change who they are shared with.', writes: true },
    tasks: { what: 'Read, create, update and delete tasks and labels.', writes: true },
    views: { what: 'Read and change saved views.', writes: true },
  },
  crm: {
    associations: { what: 'Read and create links between records.', writes: true },
    companies: { what: 'Read, search, create, update and delete companies.', writes: true },
    contacts: { what: 'Read, search, create, update and delete contacts.', writes: true },
    deals: { what: 'Read, search, create, update and delete deals; see pipelines.', writes: true },
    events: { what: 'Subscribe to changes and read the event inbox.', writes: true },
    properties: { what: 'See the properties of each object type and add new ones.', writes: true },
    tickets: { what: 'Read, search, create, update and delete tickets.', writes: true },
  },
  filebox: {
    access: { what: 'See and change who may access folders.', writes: true },
    events: { what: 'Subscribe to changes and read the event inbox.', writes: true },
    groups: { what: 'See and change distribution groups.', writes: true },
    items: { what: 'Browse, upload, move and delete files and folders; read documents as text.', writes: true },
    shares: { what: 'See, create and send share links.', writes: true },
    users: { what: 'See users and add or change them.', writes: true },
  },
  realty: {
    properties: { what: 'Look up and search properties and comparables.', writes: false },
  },
};

/** A toolset's line for the page; a toolset without one (none, once the test holds) gets its name. */
export const toolsetInfo = (platform: string, toolset: string) => TOOLSET_INFO[platform]?.[toolset] ?? { what: toolset, writes: true };

/** The toolsets of a platform, as the consent page lists them. */
export const toolsetsOf = (platform: string) => TOOLSETS[platform] ?? [];
