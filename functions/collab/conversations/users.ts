/**
 * Who the key is and whom it may name. Conversations and tasks take people as user ids (the
 * account), never profile ids (the contact) — Podio gives every person both (docs/vendors/podio.md#apps-spaces-orgs-and-contacts) and the
 * two are easily swapped. Every id is checked against the members of the key's orgs before the
 * write: a profile id is refused with the member's user id in the hint, an unknown id is refused.
 */
import { cached } from '../../../shared/core/cache';
import { invalidParameter } from '../../../shared/core/errors';
import { membersOfMyOrgs } from '../apps/lookups';
import type { Ctx } from '../params';

type UserCtx = Pick<Ctx, 'client' | 'store' | 'keyHash'>;

/** The key's own account: ids and the timezone task due times are read in. */
export interface Me {
  user_id: number;
  profile_id: number;
  name: string;
  timezone: string;
}

/** A key's user does not change; its timezone rarely: five minutes. */
const ME_TTL = 300;

export const me = (ctx: UserCtx): Promise<Me> =>
  cached(ctx, 'collab:me', ME_TTL, async () => {
    const s = await ctx.client.userStatus();
    // Podio always names a timezone; UTC is the safe reading when it does not.
    return { user_id: s.user.user_id, profile_id: s.profile.profile_id, name: s.profile.name, timezone: s.user.timezone || 'UTC' };
  });

const HINT = 'getOrganizationMembers lists the user_id (and profile_id) of each member';

/**
 * User ids → the same ids, each checked: a profile id is refused naming the member's user id, an id
 * no member has is refused. `parameter` names the list (`participants`) or the single value
 * (`user_id`, `tasks.2.responsible`); entries are named `<parameter>.<i>` when `list` is set.
 * An org that lists no members cannot be judged: Podio decides.
 */
export async function checkUserIds(ctx: UserCtx, ids: readonly number[], parameter: string, list = true): Promise<void> {
  if (!ids.length) return;
  const members = await membersOfMyOrgs(ctx);
  if (!members.length) return;
  for (const [i, id] of ids.entries()) {
    if (members.some((m) => m.user_id === id)) continue;
    const path = list ? `${parameter}.${i}` : parameter;
    const byProfile = members.find((m) => m.profile_id === id);
    if (byProfile) {
      throw invalidParameter(path, 'a user_id, not a profile_id', `Parameter "${path}": ${id} is the profile id of ${byProfile.name}; people are named by user id here — use ${byProfile.user_id} (${HINT}).`);
    }
    throw invalidParameter(path, 'the user_id of a member of your organization', `Parameter "${path}": no member of your organization has user id ${id} (${HINT}).`);
  }
}
