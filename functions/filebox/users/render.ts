import type { SfContact, SfUser } from '../wire';

/** Users as the filebox tools return them (docs/spec.md#filebox-user), and their one-line text. */

export interface User {
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

const FIELDS = [
  'Id', 'FullName', 'FirstName', 'LastName', 'Company', 'DateCreated', 'FullNameShort', 'Initials', 'Emails', 'Email', 'Username', 'Domain', 'IsConfirmed',
  'IsDeleted', 'IsBillingContact', 'IsAdministrator', 'IsEmployee', 'Roles', 'CanCreateFolders', 'CanUseFileBox', 'CanManageUsers', 'IsVirtualClient',
  'TotalSharedFiles', 'Contacted', 'ReferredBy', 'url', 'Security', 'Preferences', 'DiskSpace',
] as const;
/** getCurrentUser / getUser summary (docs/spec.md#filebox-user). */
export const USER_SUMMARY = ['Id', 'Email', 'FullName'] as const;
/** listUsers summary (docs/spec.md#filebox-user). */
export const LIST_SUMMARY = ['Id', 'Email', 'FullName', 'IsEmployee', 'IsConfirmed'] as const;

function pick<T extends object>(o: T, keys: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if ((o as Record<string, unknown>)[k] !== undefined) out[k] = (o as Record<string, unknown>)[k];
  return out as Partial<T>;
}

export function toUser(w: SfUser, summary = false): User {
  const u = pick(w, summary ? USER_SUMMARY : FIELDS) as User;
  if (!summary) {
    u.IsEmployee ??= /AccountUser$/.test(w['odata.type']);
    if (w.Security?.IsDisabled !== undefined) u.IsDisabled = w.Security.IsDisabled;
  }
  return u;
}

/** A Contact of an account list as a user entry: its kind is the list it came from. */
export function contactToUser(c: SfContact, employee: boolean, summary: boolean): User {
  const u: User = { Id: c.Id, Email: c.Email, FullName: c.Name ?? `${c.FirstName ?? ''} ${c.LastName ?? ''}`.trim(), FirstName: c.FirstName, LastName: c.LastName, Company: c.Company, IsEmployee: employee, IsConfirmed: c.IsConfirmed, IsDisabled: c.IsDisabled, DateCreated: c.CreatedDate };
  return pick(u, summary ? LIST_SUMMARY : Object.keys(u)) as User;
}

/** `<id> Ana Lopez <ana@x.com> employee, admin, unconfirmed, disabled`. */
export function userLine(u: User): string {
  const tags = [
    u.IsEmployee === undefined ? '' : u.IsEmployee ? 'employee' : 'client',
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
