/** A sample task of the demo org, shared by the task tools' examples. */
import type { Task } from './render';

/** The owner's overdue task on a deal, read whole (getTask); getTasks lists it in its short form. */
export const SAMPLE_TASK: Task = {
  task_id: 40001,
  text: 'Send the signed contract to legal',
  description: null,
  status: 'active',
  private: false,
  started: false,
  due_date: '2025-12-01',
  due_time: '15:00:00',
  due_on: '2025-12-01 15:00:00',
  responsible: { user_id: 1001, name: 'Ann Becker' },
  created_by: { user_id: 1001, name: 'Ann Becker' },
  created_on: '2025-11-20 09:00:00',
  completed_on: null,
  ref: { type: 'item', id: 30061, title: 'Pilot — Copperline Media Nord' },
  labels: [{ label_id: 45001, text: 'Urgent', color: 'D2E4EB' }],
  files: [],
  link: 'https://podio.com/tasks/40001',
  reminder: { remind_delta: 60 },
};
