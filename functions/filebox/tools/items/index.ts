import { toolGroup } from '../../../../shared/core/tool';
import type { ShareFileClient } from '../../client';

/** The items tools (docs/spec.md#filebox-item, and the three it leaves "not shown"), each loaded on first use. */
export const itemTools = toolGroup<ShareFileClient>('items', {
  getItem: () => import('./getItem').then((m) => m.getItem),
  getTopLevelFolders: () => import('./getTopLevelFolders').then((m) => m.getTopLevelFolders),
  listChildren: () => import('./listChildren').then((m) => m.listChildren),
  createFolder: () => import('./createFolder').then((m) => m.createFolder),
  updateItem: () => import('./updateItem').then((m) => m.updateItem),
  deleteItem: () => import('./deleteItem').then((m) => m.deleteItem),
  copyItem: () => import('./copyItem').then((m) => m.copyItem),
  moveItem: () => import('./moveItem').then((m) => m.moveItem),
  searchItems: () => import('./searchItems').then((m) => m.searchItems),
  uploadFile: () => import('./uploadFile').then((m) => m.uploadFile),
  downloadFile: () => import('./downloadFile').then((m) => m.downloadFile),
  fileToMarkdown: () => import('./fileToMarkdown').then((m) => m.fileToMarkdown),
  analyzeFile: () => import('./analyzeFile').then((m) => m.analyzeFile),
});
