import { Hono } from 'hono';
import { jsonBody, tapeDateTime, validation, type TwinEnv } from '../http';
import { automationStore } from '../automation/store';
import type { TapeState } from '../state';
import { lookupFile } from '../values';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/** `to`/`cc`/`bcc`/`reply_to`: one address or a list (docs/vendors/tape.md#email shows both). */
function addresses(body: Record<string, unknown>, key: string, required: boolean): string[] {
  const v = body[key];
  if (v === undefined || v === null) {
    if (required) throw validation(`"${key}" is required: one email address or an array of them.`);
    return [];
  }
  const list = Array.isArray(v) ? v : [v];
  if (required && list.length === 0) throw validation(`"${key}" needs at least one email address.`);
  for (const a of list) if (typeof a !== 'string' || !EMAIL.test(a)) throw validation(`"${key}": ${JSON.stringify(a)} is not an email address.`);
  return list as string[];
}

function text(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  if (typeof v !== 'string' || v.trim() === '') throw validation(`"${key}" is required and must be a non-empty string.`);
  return v;
}

/**
 * POST /v1/email/send (docs/vendors/tape.md#email): queued, never delivered: the email lands in the twin's outbox
 * (GET /_twin/outbox), beside what automations sent.
 */
export function emailRoutes(state: TapeState, now: () => number) {
  const r = new Hono<TwinEnv>();
  r.post('/email/send', async (c) => {
    const body = await jsonBody(c);
    const to = addresses(body, 'to', true);
    const cc = addresses(body, 'cc', false);
    const bcc = addresses(body, 'bcc', false);
    const replyTo = addresses(body, 'reply_to', false);
    const subject = text(body, 'subject');
    const html = text(body, 'html');
    const ids = body.attachment_ids ?? [];
    if (!Array.isArray(ids)) throw validation('"attachment_ids" must be an array of file ids.');
    let bytes = 0;
    for (const id of ids) {
      // docs/vendors/tape.md#email: existing file ids only ("temporary file ids are not yet supported").
      if (typeof id !== 'number' || !Number.isInteger(id)) throw validation(`"attachment_ids": ${JSON.stringify(id)} is not a file id; temporary file ids are not supported, attach the file to a record first.`);
      const file = lookupFile(state, id);
      if (!file) throw validation(`"attachment_ids": file ${id} does not exist.`);
      bytes += file.size;
    }
    if (bytes > MAX_ATTACHMENT_BYTES) throw validation(`The attachments total ${bytes} bytes; the maximum is 20MB.`);
    const from = body.from_address;
    if (from !== undefined && (typeof from !== 'string' || !EMAIL.test(from))) throw validation('"from_address" must be an email address.');
    automationStore(state).outbox.push({
      source: 'api',
      run_id: null,
      automation_id: null,
      action_id: null,
      record_id: null,
      to,
      cc,
      bcc,
      reply_to: replyTo.join(', ') || null,
      from_address: typeof from === 'string' ? from : null,
      from_name: null,
      subject,
      body: html,
      smtp_account_id: typeof body.smtp_settings_id === 'number' ? body.smtp_settings_id : null,
      ...(ids.length ? { attachment_ids: ids as number[] } : {}),
      sent_at: tapeDateTime(new Date(now())),
    });
    return c.json({ status: 'SUCCESSFULLY_SCHEDULED' });
  });
  return r;
}
