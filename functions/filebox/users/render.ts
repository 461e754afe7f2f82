import { listed, type Listed } from '../../../shared/core/listed';
import type { SfContact, SfUser } from '../wire';

/** Users as the filebox tools return them (docs/spec.md#filebox-user), and their one-line text. */

interface UserFields {
  Id: string;
  FullName?: string;
  FirstName?: string;
  LastName?: string;
  Company?: string;
  Email?: string;
  Emails?: SfUser['Emails'];
  Username?: string;
  Domain?: string;
  DateCreated?: string;
  FullNameShort?: string;
  Initials?: string;
  IsConfirmed?: boolean;
  IsDeleted?: boolean;
  IsBillingContact?: boolean;
  IsAdministrator?: boolean;
  IsEmployee?: boolean;
  /** From Security (include_security, or a list entry): the user cannot sign in. */
  IsDisabled?: boolean;
  Roles?: string[];
  CanCreateFolders?: boolean;
  CanUseFileBox?: boolean;
  CanManageUsers?: boolean;
  IsVirtualClient?: boolean;
  TotalSharedFiles?: number;
  Contacted?: number;
  ReferredBy?: string | null;
  url?: string;
  Security?: SfUser['Security'];
  Preferences?: SfUser['Preferences'];
  DiskSpace?: SfUser['DiskSpace'];
}

/** The fields of docs/spec.md#filebox-user, each present in the full form (null when ShareFile gives none). */
const FIELDS = [
  'Id', 'FullName', 'FirstName', 'LastName', 'Company', 'DateCreated', 'FullNameShort', 'Initials', 'Emails', 'Email', 'Username', 'Domain', 'IsConfirmed',
  'IsDeleted', 'IsBillingContact', 'IsAdministrator', 'IsEmployee', 'Roles', 'CanCreateFolders', 'CanUseFileBox', 'CanManageUsers', 'IsVirtualClient', 'url',
] as const;
/** What createUser answers on top of FIELDS (docs/spec.md#filebox-user: "on creation also"). */
const ON_CREATION = ['TotalSharedFiles', 'Contacted', 'ReferredBy'] as const;
/** What the include_* options add, only when asked for. */
const EXPANDED = ['Security', 'Preferences', 'DiskSpace'] as const;
/** getCurrentUser / getUser summary (docs/spec.md#filebox-user). */
export const USER_SUMMARY = ['Id', 'Email', 'FullName'] as const;
/** listUsers summary (docs/spec.md#filebox-user). */
export const LIST_SUMMARY = ['Id', 'Email', 'FullName', 'IsEmployee', 'IsConfirmed'] as const;

type Summary = (typeof USER_SUMMARY)[number];
/**
 * A user in JSON mode: the summary's fields always, the full form's all present too (typed
 * optional for the summaries' sake), each null when ShareFile gives none.
 */
export type User = Listed<UserFields, Summary> &
  Partial<Listed<UserFields, Exclude<(typeof FIELDS | typeof LIST_SUMMARY | typeof ON_CREATION)[number], Summary>>> &
  Pick<UserFields, 'IsDisabled' | (typeof EXPANDED)[number]>;

/** `created`: createUser's answer, which lists the creation fields too. */
export function toUser(w: SfUser, summary = false, created = false): User {
  if (summary) return listed(w, USER_SUMMARY);
  const u: User = { ...listed(w, FIELDS), ...(created ? listed(w, ON_CREATION) : {}) };
  u.IsEmployee ??= /AccountUser$/.test(w['odata.type']);
  for (const k of EXPANDED) if (w[k] !== undefined) (u as Record<string, unknown>)[k] = w[k];
  if (w.Security?.IsDisabled !== undefined) u.IsDisabled = w.Security.IsDisabled;
  return u;
}

/** A Contact of an account list as a user entry: its kind is the list it came from. */
export function contactToUser(c: SfContact, employee: boolean, summary: boolean): User {
  const u: UserFields = { Id: c.Id, Email: c.Email, FullName: c.Name ?? `${c.FirstName ?? ''} ${c.LastName ?? ''}`.trim(), FirstName: c.FirstName, LastName: c.LastName, Company: c.Company, IsEmployee: employee, IsConfirmed: c.IsConfirmed, DateCreated: c.CreatedDate, url: c.url };
  if (summary) return listed(u, LIST_SUMMARY);
  return { ...listed(u, FIELDS), ...(c.IsDisabled != null ? { IsDisabled: c.IsDisabled } : {}) };
}

/** `<id> Ana Lopez <ana@x.com> employee, admin, unconfirmed, disabled`. */
export function userLine(u: User): string {
  const tags = [
    u.IsEmployee == null ? '' : u.IsEmployee ? 'employee' : 'client',
    u.IsAdministrator ? 'admin' : '',
    u.IsConfirmed === false ? 'unconfirmed' : '',
    u.IsDisabled ? 'disabled' : '',
  ].filter(Boolean);
  return `${u.Id} ${u.FullName ?? ''}${u.Email ? ` <${u.Email}>` : ''}${u.Company ? `, ${u.Company}` : ''}${tags.length ? ` (${tags.join(', ')})` : ''}`.replace(/ {2,}/g, ' ');
}

/** The options that expand a user read: security (disabled flag), preferences, disk space. */
export function expandOf(o: { include_security?: boolean; include_preferences?: boolean; include_disk_space?: boolean }): string | undefined {
  const parts = [o.include_security ? 'Security' : '', o.include_preferences ? 'Preferences' : '', o.include_disk_space ? 'DiskSpace' : ''].filter(Boolean);
  return parts.length ? parts.join(',') : undefined;
}

/** A user with what the includes added, under its line. */
export function userDetail(u: User): string {
  const lines = [userLine(u)];
  if (u.Roles?.length) lines.push(`  roles: ${u.Roles.join(', ')}`);
  if (u.DateCreated) lines.push(`  created ${u.DateCreated.slice(0, 10)}`);
  if (u.Security) lines.push(`  security: ${Object.entries(u.Security).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k} ${String(v)}`).join(', ')}`);
  if (u.Preferences) lines.push(`  preferences: ${Object.entries(u.Preferences).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k} ${String(v)}`).join(', ')}`);
  if (u.DiskSpace) lines.push(`  disk space: ${u.DiskSpace.Used ?? 0} of ${u.DiskSpace.Max ?? 0} MB used`);
  return lines.join('\n');
}
