import { toolGroup } from '../../../../shared/core/tool';
import type { TapeClient } from '../../client';

/** The 14 record tools of docs/spec.md#dbapp-record: the six it shows, and deletion, filtering, relations, history and comments. */
export const recordTools = toolGroup<TapeClient>('records', {
  getRecord: () => import('./getRecord').then((m) => m.getRecord),
  listRecords: () => import('./listRecords').then((m) => m.listRecords),
  filterRecords: () => import('./filterRecords').then((m) => m.filterRecords),
  createRecord: () => import('./createRecord').then((m) => m.createRecord),
  updateRecord: () => import('./updateRecord').then((m) => m.updateRecord),
  batchCreateRecords: () => import('./batchCreateRecords').then((m) => m.batchCreateRecords),
  batchUpdateRecords: () => import('./batchUpdateRecords').then((m) => m.batchUpdateRecords),
  deleteRecord: () => import('./deleteRecord').then((m) => m.deleteRecord),
  restoreRecord: () => import('./restoreRecord').then((m) => m.restoreRecord),
  getRelatedRecords: () => import('./getRelatedRecords').then((m) => m.getRelatedRecords),
  findRelatableRecords: () => import('./findRelatableRecords').then((m) => m.findRelatableRecords),
  getRecordRevisions: () => import('./getRecordRevisions').then((m) => m.getRecordRevisions),
  listRecordComments: () => import('./listRecordComments').then((m) => m.listRecordComments),
  createRecordComment: () => import('./createRecordComment').then((m) => m.createRecordComment),
});
