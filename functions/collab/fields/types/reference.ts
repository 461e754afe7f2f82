import { isId, isObject, show } from '../../../../shared/fields/engine';
import { EMAIL_PATTERN } from '../../../../shared/fields/values';
import type { PodioAppField } from '../../wire';
import type { CollabEntry, CollabFilter, ContactRef } from '../entry';
import { listOf, settingsOf } from './common';

/**
 * app (relation): item ids of the referenced apps (settings.referenced_apps) → [{item_id, title}].
 * contact: profile ids — never user ids, which make Podio answer 404 — or {user_id} / {email}
 * objects, resolved to profile ids against the org members by finishItemFields; a bare number that
 * is a member's user id and no profile id is refused there. Out as [{profile_id, user_id, name}].
 */

const referencedApps = (f: PodioAppField): number[] => {
  const refs = settingsOf(f).referenced_apps;
  return Array.isArray(refs) ? refs.map((r) => (isObject(r) ? r.app_id : r)).filter(isId) : [];
};

const idsFilter = (what: string, example: string): CollabFilter => ({
  expected: () => `${what} (one or an array), e.g. ${example}`,
  input: (value, cx) => {
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0) cx.fail(`pass at least one of the ${what}.`);
    return [...new Set(list.map((v, i) => (isId(v) ? v : cx.fail(`${show(v)} is not one of the ${what} (positive integers).`, Array.isArray(value) ? `${cx.path}.${i}` : cx.path))))];
  },
});

export interface ContactValue { profile_id: number; user_id: number | null; name: string }

function contactRef(item: unknown, path: string, fail: (problem: string, at?: string) => never): ContactRef {
  if (isId(item)) return item;
  if (isObject(item)) {
    const keys = Object.keys(item);
    if (keys.length === 1 && keys[0] === 'profile_id' && isId(item.profile_id)) return item.profile_id;
    if (keys.length === 1 && keys[0] === 'user_id') {
      if (!isId(item.user_id)) fail(`"user_id" is a positive integer, got ${show(item.user_id)}.`, `${path}.user_id`);
      return { user_id: item.user_id as number };
    }
    if (keys.length === 1 && keys[0] === 'email') {
      if (typeof item.email !== 'string' || !EMAIL_PATTERN.test(item.email.trim())) fail(`${show(item.email)} is not an email address.`, `${path}.email`);
      return { email: (item.email as string).trim() };
    }
    return fail(`a contact object has exactly one key, "user_id" or "email" (or "profile_id"), got ${show(item)}.`, path);
  }
  const hint = typeof item === 'string' && /^\d+$/.test(item.trim()) ? ` Send it as a number: ${item.trim()}.` : typeof item === 'string' && item.includes('@') ? ` Write {"email": ${show(item)}}.` : '';
  return fail(`each contact is a profile id, {"user_id": …} or {"email": …}, got ${show(item)}.${hint}`, path);
}

export const REFERENCE_TYPES: Record<string, CollabEntry> = {
  app: {
    expected: (f) => {
      const apps = referencedApps(f);
      const many = settingsOf(f).multiple !== false;
      return `${many ? 'an item id or an array of item ids' : 'one item id'}${apps.length ? ` of app ${apps.join(', ')}` : ''} (findReferenceableItems finds them), e.g. ${many ? '[1001, 1002]' : '1001'}`;
    },
    input: (value, cx) => {
      // Podio's relation settings say `multiple`; refuse several only where it is explicitly false.
      const ids = listOf(value, cx, settingsOf(cx.field).multiple !== false).map(({ item, path }) => {
        if (isId(item)) return item;
        const hint = typeof item === 'string' && /^\d+$/.test(item.trim()) ? ` Send it as a number: ${item.trim()}.` : '';
        return cx.fail(`each entry is an item id (a positive integer, the global item_id — not the number in an item URL), got ${show(item)}.${hint}`, path);
      });
      return [...new Set(ids)];
    },
    output: (values) =>
      values.map((v) => {
        const r = isObject(v.value) ? v.value : {};
        return { item_id: r.item_id as number, title: String(r.title ?? '') };
      }),
    text: (v) => (v as { item_id: number; title: string }[]).map((r) => `${r.title} #${r.item_id}`).join(', '),
    filter: idsFilter('item ids', '[1001, 1002]'),
  },
  contact: {
    expected: () =>
      'profile ids (one or an array; not user ids — getOrganizationMembers lists both), or {"user_id": …} / {"email": …} objects resolved to profile ids for you, e.g. [2001] or [{"email": "ada@example.com"}]',
    input: (value, cx) => {
      const refs = listOf(value, cx, true).map(({ item, path }) => ({ ref: contactRef(item, path, cx.fail), path }));
      // The profile ids are settled by finishItemFields, which needs the org members.
      cx.plan.contacts.push({ fieldId: cx.info.field_id, refs });
      return refs.map((r) => r.ref);
    },
    output: (values) =>
      values
        .map((v) => (isObject(v.value) ? v.value : {}))
        .filter((c) => isId(c.profile_id))
        .map((c): ContactValue => ({ profile_id: c.profile_id as number, user_id: isId(c.user_id) ? c.user_id : null, name: String(c.name ?? '') })),
    text: (v, o) => (v as ContactValue[]).map((c) => (o.verbose ? `${c.name} (profile ${c.profile_id}${c.user_id ? `, user ${c.user_id}` : ''})` : c.name)).join(', '),
    filter: idsFilter('profile ids', '[2001]'),
  },
};
