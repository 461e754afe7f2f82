import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The file tools (docs/spec.md#collab-file), each loaded on first use: the converters load only with fileToMarkdown and analyzeFile. */
export const fileTools = toolGroup<PodioClient>('files', {
  uploadFile: () => import('./uploadFile').then((m) => m.uploadFile),
  uploadFiles: () => import('./uploadFiles').then((m) => m.uploadFiles),
  attachFile: () => import('./attachFile').then((m) => m.attachFile),
  getFile: () => import('./getFile').then((m) => m.getFile),
  getFilesOnApp: () => import('./getFilesOnApp').then((m) => m.getFilesOnApp),
  getFilesOnSpace: () => import('./getFilesOnSpace').then((m) => m.getFilesOnSpace),
  copyFile: () => import('./copyFile').then((m) => m.copyFile),
  updateFile: () => import('./updateFile').then((m) => m.updateFile),
  deleteFile: () => import('./deleteFile').then((m) => m.deleteFile),
  replaceFile: () => import('./replaceFile').then((m) => m.replaceFile),
  copyItemFiles: () => import('./copyItemFiles').then((m) => m.copyItemFiles),
  downloadFile: () => import('./downloadFile').then((m) => m.downloadFile),
  fileToMarkdown: () => import('./fileToMarkdown').then((m) => m.fileToMarkdown),
  analyzeFile: () => import('./analyzeFile').then((m) => m.analyzeFile),
});
