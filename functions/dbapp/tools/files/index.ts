import type { ToolLoaders } from '../../../../shared/tool';
import type { TapeClient } from '../../client';

export const fileTools: ToolLoaders<TapeClient> = {
  uploadFiles: () => import('./uploadFiles').then((m) => m.uploadFiles),
};
