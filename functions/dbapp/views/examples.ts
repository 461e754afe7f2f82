import type { View } from './render';

/** The view of docs/vendors/tape.md#views's "Retrieve a single view" example, shaped as the spec's full view. */
export const EXAMPLE_VIEW: View = {
  id: 88123,
  view_id: 88123,
  name: 'Open tickets',
  app_id: 4711,
  is_default: false,
  layout: 'table',
  private: false,
  sort_by: 55204,
  sort_desc: false,
  filters: [
    { field_id: 55203, field_type: 'status', type: 'status', match_type: 'any', values: [{ value: 9001 }, { value: 9002 }] },
    { field_id: 55201, field_type: 'single_text', type: 'text', match_type: 'contains', values: [{ value: 'urgent' }] },
  ],
  fields: { '55201': { hidden: false, width: 320 }, '55203': { hidden: false, width: 160 }, '55204': { hidden: false }, '55207': { hidden: true } },
  split_by: null,
};
