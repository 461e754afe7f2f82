import { toolGroup } from '../../../../shared/core/tool';
import type { PodioClient } from '../../client';

/** The items tools (docs/spec.md#collab-item, #collab-comment), each loaded on first use. */
export const itemTools = toolGroup<PodioClient>('items', {
  getItem: () => import('./getItem').then((m) => m.getItem),
  filterItems: () => import('./filterItems').then((m) => m.filterItems),
  aggregateItems: () => import('./aggregateItems').then((m) => m.aggregateItems),
  getItemRevisions: () => import('./getItemRevisions').then((m) => m.getItemRevisions),
  getItemReferences: () => import('./getItemReferences').then((m) => m.getItemReferences),
  findReferenceableItems: () => import('./findReferenceableItems').then((m) => m.findReferenceableItems),
  createItem: () => import('./createItem').then((m) => m.createItem),
  updateItem: () => import('./updateItem').then((m) => m.updateItem),
  deleteItem: () => import('./deleteItem').then((m) => m.deleteItem),
  cloneItem: () => import('./cloneItem').then((m) => m.cloneItem),
  batchCreateItems: () => import('./batchCreateItems').then((m) => m.batchCreateItems),
  batchUpdateItems: () => import('./batchUpdateItems').then((m) => m.batchUpdateItems),
  batchDeleteItems: () => import('./batchDeleteItems').then((m) => m.batchDeleteItems),
});
