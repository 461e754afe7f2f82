import { tapeDateTime } from './http';
import { automationStore } from './automation/store';
import type { TapeState, TapeUser } from './state';

/** An invitation email to join the organization, into the twin's outbox (GET /_twin/outbox); never delivered. */
export function sendInvitation(state: TapeState, user: TapeUser, now: number): void {
  automationStore(state).outbox.push({
    source: 'invitation',
    run_id: null,
    automation_id: null,
    action_id: null,
    record_id: null,
    to: [user.email],
    cc: [],
    bcc: [],
    reply_to: null,
    from_address: null,
    from_name: null,
    subject: `You have been invited to join ${state.org.name} on Tape`,
    body: `<p>Hi ${user.name}, join ${state.org.name} on Tape: ${state.org.url}</p>`,
    smtp_account_id: null,
    sent_at: tapeDateTime(new Date(now)),
  });
}

/** A new user invited by email (docs/vendors/tape.md#record-permissions add_permissions, docs/vendors/tape.md#users): status "invited", invitation sent. */
export function inviteUser(state: TapeState, email: string, role: TapeUser['role'], now: number): TapeUser {
  const user: TapeUser = {
    user_id: state.nextId.user++,
    name: email.split('@')[0] ?? email,
    org_id: state.org.org_id,
    status: 'invited',
    email,
    phone: null,
    role,
    job_description: null,
  };
  state.users.set(user.user_id, user);
  sendInvitation(state, user, now);
  return user;
}
