import { batchCreateRecords } from './batchCreateRecords';
import { batchUpdateRecords } from './batchUpdateRecords';
import { createRecord } from './createRecord';
import { createRecordComment } from './createRecordComment';
import { deleteRecord } from './deleteRecord';
import { filterRecords } from './filterRecords';
import { findRelatableRecords } from './findRelatableRecords';
import { getRecord } from './getRecord';
import { getRecordRevisions } from './getRecordRevisions';
import { getRelatedRecords } from './getRelatedRecords';
import { listRecordComments } from './listRecordComments';
import { listRecords } from './listRecords';
import { restoreRecord } from './restoreRecord';
import { updateRecord } from './updateRecord';

/** The 14 record tools of spec §4.3: the six it shows, and deletion, filtering, relations, history and comments. */
export const recordTools = [
  getRecord,
  listRecords,
  filterRecords,
  createRecord,
  updateRecord,
  batchCreateRecords,
  batchUpdateRecords,
  deleteRecord,
  restoreRecord,
  getRelatedRecords,
  findRelatableRecords,
  getRecordRevisions,
  listRecordComments,
  createRecordComment,
];
