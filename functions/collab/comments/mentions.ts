/**
 * Mentions in a comment: `@[Full Name](user:<user_id>)`. Podio drops a mention it cannot resolve
 * without an error (docs/spec.md#collab-comment, #errors), so the person is silently not notified. Every mention is checked
 * before the write instead: the target must be `user:` and a number (refused with no call at all),
 * and that number the user id of a member of the object's org (a profile id gets the right user id
 * in the hint). The members are read only when the text has mentions.
 */
import { invalidParameter } from '../../../shared/core/errors';
import type { OrgMember } from '../fields';
import { appOrgMembers, appSchema, membersOfMyOrgs, orgMembers, spaceOrgId } from '../apps/lookups';
import type { Ctx } from '../params';
import type { PodioCommentRefType } from '../wire';

type MentionCtx = Pick<Ctx, 'client' | 'store' | 'keyHash'>;

/** The org members a comment may mention, loaded on demand. */
export type Mentionable = () => Promise<readonly OrgMember[]>;

export interface Mention {
  /** The markup as written, for messages. */
  markup: string;
  name: string;
  user_id: number;
}

const MARKUP = /@\[([^\]]*)\]\(([^)]*)\)/g;
const USER_TARGET = /^user:(\d+)$/;
const EXPECTED = '@[Full Name](user:<user_id>) with the numeric user_id of a member of the org, e.g. @[Ben Okafor](user:1002)';
const WHERE = 'getOrganizationMembers lists the user_id of each member';

function refuse(parameter: string, problems: readonly string[]): never {
  throw invalidParameter(
    parameter,
    EXPECTED,
    `Parameter "${parameter}": ${problems.join('; ')}. Podio drops such a mention silently (nobody is notified); write each mention as ${EXPECTED} (${WHERE}).`,
  );
}

/** Why a target that is not `user:<digits>` is wrong, with the fix where it is plain. */
function targetProblem(markup: string, name: string, target: string): string {
  const spaced = /^\s*user\s*:\s*(\d+)\s*$/i.exec(target);
  if (spaced) return `the mention ${markup} must be written exactly @[${name}](user:${spaced[1]})`;
  if (/^profile:/i.test(target)) return `the mention ${markup} names a profile; mentions take the user id: (user:<user_id>)`;
  const id = /^user:(.*)$/i.exec(target);
  if (id) return `the mention ${markup} has no numeric user id (${JSON.stringify(id[1])})`;
  return `the mention ${markup} does not point to a user: its target must be user:<user_id>`;
}

/** The mentions of a text; a target that is not `user:<digits>` is refused here, before any call. */
export function parseMentions(value: string, parameter: string): Mention[] {
  const mentions: Mention[] = [];
  const problems: string[] = [];
  for (const m of value.matchAll(MARKUP)) {
    const [markup, name, target] = [m[0], m[1]!, m[2]!];
    const id = USER_TARGET.exec(target);
    if (id) mentions.push({ markup, name, user_id: Number(id[1]) });
    else problems.push(targetProblem(markup, name, target));
  }
  if (problems.length) refuse(parameter, problems);
  return mentions;
}

/** Each mention must name the user id of a member; a profile id is answered with the member's user id. */
export function checkMentionTargets(mentions: readonly Mention[], members: readonly OrgMember[], parameter: string): void {
  const problems: string[] = [];
  for (const m of mentions) {
    if (members.some((u) => u.user_id === m.user_id)) continue;
    const byProfile = members.find((u) => u.profile_id === m.user_id);
    problems.push(
      byProfile
        ? `in ${m.markup}, ${m.user_id} is the profile id of ${byProfile.name}, not a user id: write @[${byProfile.name}](user:${byProfile.user_id})`
        : `in ${m.markup}, no member of the organization has user id ${m.user_id}`,
    );
  }
  if (problems.length) refuse(parameter, problems);
}

/** Checks every mention of `value`; the members are read only when there is a mention to check. */
export async function checkMentions(value: string, parameter: string, mentionable: Mentionable): Promise<void> {
  const mentions = parseMentions(value, parameter);
  if (!mentions.length) return;
  const members = await mentionable();
  // An org whose members cannot be listed cannot be judged: Podio decides.
  if (members.length) checkMentionTargets(mentions, members, parameter);
}

/** Who may be mentioned on an object: for an item, the members of its app's org (item → app → space → org). */
export const mentionableOn = (ctx: MentionCtx, ref: { type: PodioCommentRefType | string; id: number }): Mentionable => async () => {
  if (ref.type !== 'item') return membersOfMyOrgs(ctx);
  const item = await ctx.client.getItem(ref.id);
  if (!item.app) return [];
  return appOrgMembers(ctx, await appSchema(ctx, item.app.app_id));
};

/** Who may be mentioned in an existing comment: its space's org, else by what it is on. */
export const mentionableInComment = (ctx: MentionCtx, commentId: number): Mentionable => async () => {
  const c = await ctx.client.getComment(commentId);
  if (typeof c.space_id === 'number') return orgMembers(ctx, await spaceOrgId(ctx, c.space_id));
  return c.ref ? mentionableOn(ctx, c.ref)() : membersOfMyOrgs(ctx);
};
