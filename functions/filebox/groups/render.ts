import { listed, type Listed } from '../../../shared/core/listed';
import { isUserId } from '../params';
import type { SfContact, SfGroup } from '../wire';

/** Groups as the filebox tools return them (docs/spec.md#filebox-group), members by id or email. */

/** A member's fields (docs/spec.md#filebox-group), each present, null when ShareFile gives none. */
const CONTACT = ['Id', 'Name', 'FirstName', 'LastName', 'Email', 'Company', 'IsConfirmed', 'IsDisabled', 'LastAnyLogin', 'CreatedDate', 'url'] as const;
export type GroupContact = Listed<SfContact, (typeof CONTACT)[number]>;

/** The summary form of a group; the full form adds FULL_ONLY. */
const SUMMARY = ['Id', 'Name', 'IsShared', 'NumberOfContacts'] as const;
const FULL_ONLY = ['odata.type', 'url', 'Contacts'] as const;

/**
 * A group in JSON mode: every field of docs/spec.md#filebox-group present (null when ShareFile
 * gives none, e.g. Contacts unless include_contacts); the summary form carries only its own.
 */
export type Group = Listed<SfGroup, (typeof SUMMARY)[number]> &
  Partial<Omit<Listed<SfGroup, (typeof FULL_ONLY)[number]>, 'Contacts'>> & { Contacts?: GroupContact[] | null };

export const toContact = (c: SfContact): GroupContact => listed(c, CONTACT);

export function toGroup(w: SfGroup, summary = false): Group {
  const g: Group = listed(w, SUMMARY);
  if (summary) return g;
  return { ...g, ...listed(w, ['odata.type', 'url'] as const), Contacts: w.Contacts ? w.Contacts.map(toContact) : null };
}

/** `g123 Partners (shared, 2 members)`, then one line per member when listed. */
export function groupText(g: Group): string {
  const tags = [g.IsShared ? 'shared' : g.IsShared === false ? 'personal' : '', g.NumberOfContacts != null ? `${g.NumberOfContacts} member${g.NumberOfContacts === 1 ? '' : 's'}` : ''].filter(Boolean);
  const head = `${g.Id} ${g.Name}${tags.length ? ` (${tags.join(', ')})` : ''}`;
  return [head, ...(g.Contacts ?? []).map((c) => `  ${c.Id}${c.Name ? ` ${c.Name}` : ''}${c.Email ? ` <${c.Email}>` : ''}`)].join('\n');
}

/** What became of each member asked for: added, already in the group, or no such user. */
export interface MemberResult {
  member: string;
  status: 'added' | 'already_member' | 'not_found';
  user_id?: string;
}

/** Compares the members before and after an add: one result per member asked for. */
export function memberResults(asked: string[], before: SfContact[], after: SfContact[]): MemberResult[] {
  const find = (list: SfContact[], m: string) => list.find((c) => (isUserId(m) ? c.Id === m : (c.Email ?? '').toLowerCase() === m.toLowerCase()));
  return asked.map((m) => {
    const was = find(before, m);
    if (was) return { member: m, status: 'already_member', user_id: was.Id };
    const now = find(after, m);
    return now ? { member: m, status: 'added', user_id: now.Id } : { member: m, status: 'not_found' };
  });
}

export const resultLine = (r: MemberResult) =>
  `${r.member}: ${r.status === 'added' ? 'added' : r.status === 'already_member' ? 'already a member' : 'no such user (create it with createUser)'}${r.user_id && r.user_id !== r.member ? ` (${r.user_id})` : ''}`;
