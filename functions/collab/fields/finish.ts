import { fieldError } from '../../../shared/fields/engine';
import type { ContactRef, ItemFieldPlan } from './table';

/**
 * The network part of a planned item write, still before the write itself: contact values checked
 * or resolved against the org members, embed URLs turned into embed ids, image URLs downloaded and
 * uploaded. The tool supplies the port (its client and caches), so the table stays pure.
 */

/** An org member as getOrganizationMembers lists it: the account (user_id) and its contact (profile_id). */
export interface OrgMember {
  user_id: number;
  profile_id: number;
  name: string;
  email?: string | null;
}

/** What finishing a plan needs from the outside. */
export interface FieldPort {
  /** The members of the app's org (cached by the tool). */
  members(): Promise<readonly OrgMember[]>;
  /** A link → an embed id (POST /embed/ {url}); `path` names the value for errors. */
  embed(url: string, path: string): Promise<number>;
  /** An https URL → the id of an uploaded file (downloaded through the SSRF-guarded fetch, then POST /file/). */
  upload(url: string, path: string): Promise<number>;
  /** What a file is attached to (null: unattached, or not known to the key: the write judges it). */
  attachedTo(fileId: number): Promise<{ type: string; id: number; title?: string | null } | null>;
}

/** Whether finishing the plan calls the port at all (contacts, embeds, image URLs or file ids). */
export const needsFinish = (plan: ItemFieldPlan): boolean => plan.contacts.length + plan.embeds.length + plan.uploads.length > 0;

const TAKE_PROFILE = 'contact fields take profile_id; getOrganizationMembers lists both';

/** One contact value → its profile id, by the org members. */
export function profileIdOf(ref: ContactRef, path: string, members: readonly OrgMember[]): number {
  if (typeof ref === 'number') {
    if (members.some((m) => m.profile_id === ref)) return ref;
    const user = members.find((m) => m.user_id === ref);
    if (user) throw fieldError(path, 'a profile_id', `${ref} is the user id of ${user.name}, not a profile id: ${TAKE_PROFILE}. Use ${user.profile_id}, or {"user_id": ${ref}}.`);
    // Not an org member's: a contact of a space, say. Podio judges it.
    return ref;
  }
  if ('user_id' in ref) {
    const user = members.find((m) => m.user_id === ref.user_id);
    if (user) return user.profile_id;
    throw fieldError(`${path}.user_id`, 'the user_id of an org member', `no member of the organization has user id ${ref.user_id}; ${TAKE_PROFILE}.`);
  }
  const email = ref.email.toLowerCase();
  const user = members.find((m) => typeof m.email === 'string' && m.email.toLowerCase() === email);
  if (user) return user.profile_id;
  throw fieldError(`${path}.email`, 'the email of an org member', `no member of the organization has the email ${ref.email}; getOrganizationMembers lists the members with user_id, profile_id and email.`);
}

/**
 * An image value's file follows the rule of every Podio file: it is attached to one object only.
 * A file on another object is refused as file_ids refuses it (Podio: file.already_attached); one
 * already on the item being updated is its own.
 */
async function checkImageFiles(plan: ItemFieldPlan, port: FieldPort, itemId: number | undefined): Promise<void> {
  for (const u of plan.uploads) {
    for (const { source, path } of u.sources) {
      if (typeof source !== 'number') continue;
      const on = await port.attachedTo(source);
      if (!on || (on.type === 'item' && on.id === itemId)) continue;
      throw fieldError(
        path,
        'the id of an unattached file (uploadFile), or an https URL',
        `file ${source} is already attached to ${on.type} #${on.id}${on.title ? ` "${on.title}"` : ''} (Podio: file.already_attached); a file is attached to one object only. copyFile makes an unattached copy to give here instead; nothing was written.`,
      );
    }
  }
}

/**
 * Completes the plan's body: every contact settled to profile ids and every image file id checked
 * (before any embed or upload is made, so a wrong value costs nothing), then embeds and uploads,
 * each distinct URL once. `itemId`: the item an update writes (its own files are its own).
 * Returns Podio's `fields` body keyed by field_id.
 */
export async function finishItemFields(plan: ItemFieldPlan, port: FieldPort, itemId?: number): Promise<Record<string, unknown>> {
  if (plan.contacts.length) {
    const members = await port.members();
    for (const c of plan.contacts) plan.body[c.fieldId] = [...new Set(c.refs.map((r) => profileIdOf(r.ref, r.path, members)))];
  }
  await checkImageFiles(plan, port, itemId);
  for (const e of plan.embeds) {
    const ids = new Map<string, number>();
    for (const { url, path } of e.urls) if (!ids.has(url)) ids.set(url, await port.embed(url, path));
    plan.body[e.fieldId] = (plan.body[e.fieldId] as { embed: number | string }[]).map((v) => (typeof v.embed === 'string' ? { embed: ids.get(v.embed)! } : v));
  }
  for (const u of plan.uploads) {
    const ids = new Map<string, number>();
    for (const { source, path } of u.sources) if (typeof source === 'string' && !ids.has(source)) ids.set(source, await port.upload(source, path));
    plan.body[u.fieldId] = u.sources.map((s) => (typeof s.source === 'string' ? ids.get(s.source)! : s.source));
  }
  return plan.body;
}
