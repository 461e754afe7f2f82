/** Orgs and their spaces as getOrganizations and getUserStatus return them: the way to an app from nothing. */
import { invalidParameter, ToolError } from '../../../shared/core/errors';
import type { Ctx } from '../params';
import type { PodioOrg, PodioSpace } from '../wire';

export interface Space {
  space_id: number;
  name: string;
  url?: string;
}

export interface Org {
  org_id: number;
  name: string;
  url?: string;
  /** The key's user's role in the org (`admin` or `regular`), when Podio says. */
  role?: string;
  /** The spaces of the org the key's user sees. */
  spaces: Space[];
}

const toSpace = (s: PodioSpace): Space => ({ space_id: s.space_id, name: s.name, ...(s.url ? { url: s.url } : {}) });

/**
 * The orgs the key sees, each with its spaces. `GET /org/` lists an org's spaces with it; an org
 * listed without them is completed with `GET /org/{id}/space/`.
 */
export async function orgsWithSpaces(ctx: Pick<Ctx, 'client'>): Promise<Org[]> {
  const orgs = await ctx.client.listOrgs();
  return Promise.all(
    orgs.map(async (o: PodioOrg) => ({
      org_id: o.org_id,
      name: o.name,
      ...(o.url ? { url: o.url } : {}),
      ...(typeof o.role === 'string' ? { role: o.role } : {}),
      spaces: (Array.isArray(o.spaces) ? o.spaces : await ctx.client.listOrgSpaces(o.org_id)).map(toSpace),
    })),
  );
}

/** `org #7001 Sandbox Co (admin): space #7101 Sales, space #7102 Operations` */
export const orgLine = (o: Org): string =>
  `org #${o.org_id} ${o.name}${o.role ? ` (${o.role})` : ''}: ${o.spaces.length ? o.spaces.map((s) => `space #${s.space_id} ${s.name}`).join(', ') : 'no spaces'}`;

/**
 * The org a tool works on when `org_id` is left out: the key's only org. With several, the caller
 * must choose: INVALID_PARAMETER listing them.
 */
export async function defaultOrgId(ctx: Pick<Ctx, 'client'>, parameter = 'org_id'): Promise<number> {
  const orgs = await ctx.client.listOrgs();
  if (orgs.length === 1) return orgs[0]!.org_id;
  if (!orgs.length) throw new ToolError('NOT_FOUND', 'The key belongs to no Podio organization.', { parameter });
  const list = orgs.map((o) => `${o.org_id} (${o.name})`).join(', ');
  throw invalidParameter(parameter, 'an org id', `Parameter "${parameter}" is required: the key sees ${orgs.length} organizations: ${list}. Pass one of them.`);
}
