import { getApp } from './getApp';
import { getOrganization } from './getOrganization';
import { listApps } from './listApps';
import { listOrganizationUsers } from './listOrganizationUsers';

export const appTools = [
  getOrganization,
  listOrganizationUsers,
  listApps,
  getApp,
];
