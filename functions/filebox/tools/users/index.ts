import { toolGroup } from '../../../../shared/core/tool';
import type { ShareFileClient } from '../../client';

/** The users tools (docs/spec.md#filebox-user), each loaded on first use. */
export const userTools = toolGroup<ShareFileClient>('users', {
  getCurrentUser: () => import('./getCurrentUser').then((m) => m.getCurrentUser),
  getUser: () => import('./getUser').then((m) => m.getUser),
  listUsers: () => import('./listUsers').then((m) => m.listUsers),
  createUser: () => import('./createUser').then((m) => m.createUser),
  updateUser: () => import('./updateUser').then((m) => m.updateUser),
  deleteUser: () => import('./deleteUser').then((m) => m.deleteUser),
});
