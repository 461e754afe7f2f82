import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The search tool (docs/spec.md#collab-search), loaded on first use. */
export const searchTools = toolGroup<PodioClient>('search', {
  searchPodio: () => import('./searchPodio').then((m) => m.searchPodio),
});
