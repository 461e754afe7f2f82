import type { AppRecord } from '../fields';

/** A deal of the demo "Deals" app, as the record tools return it: the examples of the group. */
export const EXAMPLE_RECORD: AppRecord = {
  record_id: 5300,
  app_record_id: 120,
  app_id: 902,
  title: 'Copperline Media — Automations',
  record_url: 'https://tapeapp.com/tape/record/5300',
  created_by: { user_id: 10000, name: 'John Doe' },
  created_on: '2025-02-25 23:35:00',
  fields: [
    { field_id: 9015, external_id: 'deal_name', label: 'Deal name', type: 'single_text', value: 'Copperline Media — Automations' },
    { field_id: 9016, external_id: 'lead', label: 'Lead', type: 'single_relation', value: [{ record_id: 5180, app_id: 901, title: 'Jonas Moreau' }] },
    { field_id: 9017, external_id: 'amount', label: 'Amount', type: 'number', value: 93500 },
    { field_id: 9018, external_id: 'stage', label: 'Stage', type: 'status', value: [{ id: 2, text: 'Proposal' }] },
    { field_id: 9020, external_id: 'products', label: 'Products', type: 'multi_category', value: [{ id: 1, text: 'Core platform' }, { id: 5, text: 'Onboarding package' }] },
    { field_id: 9021, external_id: 'close_date', label: 'Close date', type: 'single_date', value: { start: '2025-04-17 00:00:00', end: null } },
    { field_id: 9023, external_id: 'account_manager', label: 'Account manager', type: 'single_user', value: [{ user_id: 10000, name: 'John Doe' }] },
    {
      field_id: 9024,
      external_id: 'next_steps',
      label: 'Next steps',
      type: 'checklist',
      value: [{ id: 900612, title: 'Send proposal', completed: false, assignee: { user_id: 10001, name: 'Zoe Maxwell' }, description: null, due: '2025-03-03' }],
    },
  ],
};

export const EXAMPLE_RECORD_2: AppRecord = {
  record_id: 5299,
  app_record_id: 119,
  app_id: 902,
  title: 'Helios Solar — Premium support',
  record_url: 'https://tapeapp.com/tape/record/5299',
  created_by: { user_id: 10000, name: 'John Doe' },
  created_on: '2025-02-25 13:12:00',
  fields: [
    { field_id: 9015, external_id: 'deal_name', label: 'Deal name', type: 'single_text', value: 'Helios Solar — Premium support' },
    { field_id: 9017, external_id: 'amount', label: 'Amount', type: 'number', value: 41250 },
    { field_id: 9018, external_id: 'stage', label: 'Stage', type: 'status', value: [{ id: 4, text: 'Won' }] },
    { field_id: 9022, external_id: 'contract_period', label: 'Contract period', type: 'range_date', value: { start: '2025-05-01 00:00:00', end: '2026-04-30 00:00:00' } },
  ],
};
