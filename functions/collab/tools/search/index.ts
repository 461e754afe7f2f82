import { toolGroup } from '../../../../shared/tool';
import type { PodioClient } from '../../client';

/** The search tool of issue 8 (spec §4.9), loaded on first use. */
export const searchTools = toolGroup<PodioClient>('search', {
  searchPodio: () => import('./searchPodio').then((m) => m.searchPodio),
});
