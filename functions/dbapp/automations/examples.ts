import type { AutomationFull, AutomationSummary } from './summary';

/** One realistic automation (docs/vendors/tape.md#automation-object) shared by the examples of this group. */
export const EXAMPLE_SUMMARY: AutomationSummary = {
  id: 4021,
  name: 'Email the owner on a new high-priority lead',
  app_id: 87,
  workspace_id: 12,
  paused: true,
  broken: false,
  trigger_type: 'record_created',
  has_filter: true,
  action_types: ['send_email'],
  action_count: 1,
  total_action_count: 1,
  created_at: '2024-05-14 09:12:31',
  updated_at: '2024-05-20 16:03:08',
};

export const EXAMPLE_FULL: AutomationFull = {
  ...EXAMPLE_SUMMARY,
  description: 'Notifies the record owner whenever a lead is created.',
  trigger: { type: 'record_created', config: {} },
  filter: {
    operator: 'and',
    rows: [
      {
        id: '6a1f',
        subject: { kind: 'variable', source: 'field', field_id: 512, field_type: 'single_category', previous: false, collection: false, triggering: false },
        operator: 'is_any_of',
        value: { type: 'ids', ids: [9001] },
      },
    ],
  },
  actions: [{ id: '3f9a2c', type: 'send_email', group: 'action', config: { subject: ['A new lead was created'] } }],
};

export const EXAMPLE_RUN = {
  id: '9001',
  automation_id: 88,
  automation_name: 'Notify on new lead',
  automation_revision_id: '3',
  app_id: 42,
  app_name: 'Leads',
  workspace_id: 7,
  status: 'completed' as const,
  type: 'regular' as const,
  created_at: '2024-01-18 08:12:04',
  completed_at: '2024-01-18 08:12:09',
  num_consumed_actions: 2,
  failure_reason: null,
  error_message: null,
  triggered_on_record_id: 5001,
  triggered_on_record_revision_id: 4,
  triggered_by_automation_id: null,
};
