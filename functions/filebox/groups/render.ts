import { isUserId } from '../params';
import type { SfContact, SfGroup } from '../wire';

/** Groups as the filebox tools return them (docs/spec.md#filebox-group), members by id or email. */

export interface GroupContact {
  Id: string;
  Name?: string;
  FirstName?: string;
  LastName?: string;
  Email?: string;
  Company?: string;
  IsConfirmed?: boolean;
  IsDisabled?: boolean;
  LastAnyLogin?: string;
  CreatedDate?: string;
  url?: string;
}

export interface Group {
  Id: string;
  Name: string;
  IsShared?: boolean;
  NumberOfContacts?: number;
  'odata.type'?: string;
  url?: string;
  Contacts?: GroupContact[];
}

export function toContact(c: SfContact): GroupContact {
  const out: Record<string, unknown> = {};
  for (const k of ['Id', 'Name', 'FirstName', 'LastName', 'Email', 'Company', 'IsConfirmed', 'IsDisabled', 'LastAnyLogin', 'CreatedDate', 'url'] as const) {
    if (c[k] !== undefined && c[k] !== null) out[k] = c[k];
  }
  return out as unknown as GroupContact;
}

export function toGroup(w: SfGroup, summary = false): Group {
  const g: Group = { Id: w.Id, Name: w.Name, ...(w.IsShared !== undefined ? { IsShared: w.IsShared } : {}), ...(w.NumberOfContacts !== undefined ? { NumberOfContacts: w.NumberOfContacts } : {}) };
  if (summary) return g;
  return { ...g, 'odata.type': w['odata.type'], ...(w.url ? { url: w.url } : {}), ...(w.Contacts ? { Contacts: w.Contacts.map(toContact) } : {}) };
}

/** `g123 Partners (shared, 2 members)`, then one line per member when listed. */
export function groupText(g: Group): string {
  const tags = [g.IsShared ? 'shared' : g.IsShared === false ? 'personal' : '', g.NumberOfContacts !== undefined ? `${g.NumberOfContacts} member${g.NumberOfContacts === 1 ? '' : 's'}` : ''].filter(Boolean);
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
