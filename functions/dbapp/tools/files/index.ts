import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

export const fileTools = toolGroup<TapeClient>('files', {
  uploadFiles: () => import('./uploadFiles').then((m) => m.uploadFiles),
  fileToMarkdown: () => import('./fileToMarkdown').then((m) => m.fileToMarkdown),
  analyzeFile: () => import('./analyzeFile').then((m) => m.analyzeFile),
});
