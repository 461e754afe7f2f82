import type { View } from './render';

/** The seeded "Open pipeline" view of the demo Deals app, as getView shapes it: the tools' examples. */
export const EXAMPLE_VIEW: View = {
  view_id: 20003,
  name: 'Open pipeline',
  type: 'saved',
  layout: 'table',
  private: false,
  sort_by: '9203',
  sort_label: 'Amount',
  sort_desc: true,
  filters: [
    { key: '9204', label: 'Stage', type: 'category', values: [401, 402, 403], humanized_values: [{ value: 401, label: 'Lead' }, { value: 402, label: 'Qualified' }, { value: 403, label: 'Proposal' }] },
    { key: '9206', label: 'Expected close', type: 'date', values: { from: '+0d', to: '+7d' }, humanized_values: [] },
  ],
  fields: { '9210': { hidden: true, label: 'Notes' } },
  grouping: { type: 'field', value: 9204, label: 'Stage' },
  items: 14,
  rights: ['view', 'update', 'delete'],
  created_by: { user_id: 1001, name: 'Ann Becker' },
  created_on: '2025-06-30 18:00:00',
};
