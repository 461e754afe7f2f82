import { Hono } from 'hono';
import { idParam, jsonBody, restricted, validation, type TwinEnv } from '../http';
import { inviteUser } from '../invitations';
import { canManageApps, findRecord, readableApp, recordFollowers, recordShares, recordWritableApp } from '../records';
import type { TapeState, TapeUser } from '../state';
import { isObject } from '../../kit/request';

const MAX_INPUTS = 50;

/** docs/vendors/tape.md#record-follow and #record-permissions: who follows a record, who it is shared with. */
export function recordAccessRoutes(state: TapeState, now: () => number) {
  const r = new Hono<TwinEnv>();

  // docs/vendors/tape.md#record-follow: every follow edge of every record of the app goes; "full access" on the app needed.
  r.put('/record/app/unfollow-all/:appId', (c) => {
    const u = c.get('user');
    const app = readableApp(state, idParam(c, 'appId'), u);
    if (!canManageApps(state, app.workspace_id, u)) throw restricted(`User ${u.user_id} needs full access on app ${app.app_id} to unfollow all its records.`);
    let total = 0;
    for (const row of state.records.values()) {
      if (row.app_id !== app.app_id) continue;
      const followers = recordFollowers(state, row.record_id);
      total += followers.size;
      followers.clear();
    }
    return c.json({ total_unfollowed_count: total });
  });

  r.put('/record/permission/batch', async (c) => {
    const u = c.get('user');
    const body = await jsonBody(c);
    const inputs = body.inputs;
    if (!Array.isArray(inputs) || inputs.length === 0) throw validation('"inputs" is required: an array of {record_id, add_permissions?, update_permissions?, remove_permissions?}.');
    if (inputs.length > MAX_INPUTS) throw validation(`"inputs" holds ${inputs.length} records; at most ${MAX_INPUTS} can be updated at once.`);
    // Everything is checked before anything changes: a bad entry leaves every record as it was.
    const plans = inputs.map((input, i) => plan(input, `inputs[${i}]`, u));
    for (const p of plans) {
      const shares = recordShares(state, p.recordId);
      for (const { who, level } of p.add) {
        const user = who.user ?? inviteUser(state, who.email!, 'guest', now());
        shares.set(user.user_id, level);
      }
      for (const { who, level } of p.update) if (who.user) shares.set(who.user.user_id, level);
      for (const who of p.remove) if (who.user) shares.delete(who.user.user_id);
    }
    return c.json({});
  });

  interface Who { user?: TapeUser; email?: string }

  function userBy(v: unknown, path: string): Who {
    if (typeof v === 'number' && Number.isInteger(v)) {
      const user = state.users.get(v);
      if (!user) throw validation(`${path}: user ${v} does not exist in this organization.`);
      return { user };
    }
    if (typeof v === 'string' && /^[^@\s]+@[^@\s]+$/.test(v)) return { user: [...state.users.values()].find((x) => x.email.toLowerCase() === v.toLowerCase()), email: v };
    throw validation(`${path} must be a user id or an email address.`);
  }

  function entries(v: unknown, path: string): { who: Who; level: number }[] {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw validation(`"${path}" must be an array of {user_id | email, permission_level}.`);
    return v.map((e, j) => {
      const at = `${path}[${j}]`;
      if (!isObject(e)) throw validation(`"${at}" must be an object {user_id | email, permission_level}.`);
      const level = e.permission_level;
      if (typeof level !== 'number' || !Number.isInteger(level) || level < 0 || level > 5) throw validation(`"${at}.permission_level" must be 0 (no access) … 5 (full access).`);
      const who = e.user_id !== undefined ? userBy(e.user_id, `"${at}.user_id"`) : userBy(e.email, `"${at}.email"`);
      return { who, level };
    });
  }

  function plan(input: unknown, path: string, u: TapeUser) {
    if (!isObject(input) || typeof input.record_id !== 'number' || !Number.isInteger(input.record_id)) throw validation(`"${path}.record_id" is required and must be a record id.`);
    const { row } = findRecord(state, input.record_id, u);
    // Sharing needs "can share" (4) on the record, or write access to its app.
    if ((recordShares(state, row.record_id).get(u.user_id) ?? 0) < 4) recordWritableApp(state, row.app_id, u);
    const remove = input.remove_permissions ?? [];
    if (!Array.isArray(remove)) throw validation(`"${path}.remove_permissions" must be an array of user ids or emails.`);
    return {
      recordId: row.record_id,
      add: entries(input.add_permissions, `${path}.add_permissions`),
      update: entries(input.update_permissions, `${path}.update_permissions`),
      remove: remove.map((v, j) => userBy(v, `"${path}.remove_permissions[${j}]"`)),
    };
  }

  return r;
}
