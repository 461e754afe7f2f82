import { cached } from '../../../shared/core/cache';
import type { OrgMember } from '../fields';
import type { Ctx } from '../params';
import type { PodioApp } from '../wire';

/**
 * Reads many collab tools need before their own call, cached per key in the Store: the app schema
 * every item write is checked against, the org a space belongs to, and the org's members (contact
 * values and comment mentions are checked against them).
 */

type LookupCtx = Pick<Ctx, 'client' | 'store' | 'keyHash'>;

/** Short: an app edited in Podio is seen within a minute, while a batch or an agent's burst of writes reads it once. */
export const APP_SCHEMA_TTL = 60;
/** Spaces do not move between orgs. */
const SPACE_ORG_TTL = 3600;
/** Members change rarely; a new colleague is seen within five minutes. */
const MEMBERS_TTL = 300;
/** Podio pages org members; 500 per page keeps a mid-size org to one call. */
const MEMBER_PAGE = 500;

export const appSchema = (ctx: LookupCtx, appId: number): Promise<PodioApp> => cached(ctx, `collab:app:${appId}`, APP_SCHEMA_TTL, () => ctx.client.getApp(appId));

/** The org of a space (an app names only its space). */
export const spaceOrgId = (ctx: LookupCtx, spaceId: number): Promise<number> =>
  cached(ctx, `collab:space_org:${spaceId}`, SPACE_ORG_TTL, async () => {
    const space = await ctx.client.getSpace(spaceId);
    if (typeof space.org_id !== 'number') throw new Error(`Podio's space ${spaceId} names no org_id`);
    return space.org_id;
  });

/** Every member of an org, as user_id and profile_id (they differ), name, email and role. */
export const orgMembers = (ctx: LookupCtx, orgId: number): Promise<(OrgMember & { role?: string })[]> =>
  cached(ctx, `collab:members:${orgId}`, MEMBERS_TTL, async () => {
    const out: (OrgMember & { role?: string })[] = [];
    for (let offset = 0; ; offset += MEMBER_PAGE) {
      const page = await ctx.client.listOrgMembers(orgId, { limit: MEMBER_PAGE, offset });
      for (const m of page) {
        out.push({ user_id: m.user.user_id, profile_id: m.profile.profile_id, name: m.profile.name, email: m.user.mail ?? m.profile.mail?.[0] ?? null, ...(m.role ? { role: m.role } : {}) });
      }
      if (page.length < MEMBER_PAGE) return out;
    }
  });

/** The members of the org an app lives in. */
export async function appOrgMembers(ctx: LookupCtx, app: PodioApp): Promise<(OrgMember & { role?: string })[]> {
  if (typeof app.space_id !== 'number') return [];
  return orgMembers(ctx, await spaceOrgId(ctx, app.space_id));
}

/** A key's orgs change rarely: five minutes. */
const MY_ORGS_TTL = 300;

/** The members of every org the key belongs to: conversations, tasks and status messages name no app to find the org by. */
export const membersOfMyOrgs = (ctx: LookupCtx): Promise<(OrgMember & { role?: string })[]> =>
  cached(ctx, 'collab:my_org_ids', MY_ORGS_TTL, async () => (await ctx.client.listOrgs()).map((o) => o.org_id)).then(async (ids) => (await Promise.all(ids.map((id) => orgMembers(ctx, id)))).flat());
