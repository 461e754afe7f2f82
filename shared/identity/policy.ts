import * as z from 'zod';
import { ToolError } from '../errors';
import { TOOLSETS } from './mcp-oauth/scopes';

/**
 * What a service key may call. Every list is an allow-list; an absent `toolsets` allows every
 * toolset of the allowed platforms. Toolsets are the group folders of a platform's tools
 * (functions/<platform>/tools/<group>/), named `group` (any allowed platform) or `platform:group`.
 */
export const policySchema = z.strictObject({
  platforms: z.array(z.string().regex(/^[a-z][a-z0-9]*$/, 'a platform name such as "crm"')).min(1),
  toolsets: z.array(z.string().regex(/^([a-z][a-z0-9]*:)?[a-z][a-z0-9-]*$/, 'a toolset such as "records" or "dbapp:records"')).min(1).optional(),
  read_only: z.boolean().default(false),
  /** The key's own limit, over all platforms, on top of each platform's per-key limit. */
  rate_limit: z.strictObject({ max: z.number().int().positive(), window_seconds: z.number().int().positive() }).optional(),
  /** Whether the key may create, reconnect and delete connections (of its own platforms); see managesConnections. */
  manage_connections: z.boolean().optional(),
}).refine((p) => !(p.read_only && p.manage_connections === true), { message: 'a read-only key cannot manage connections (creating, reconnecting and deleting one are writes)', path: ['manage_connections'] });

export type Policy = z.output<typeof policySchema>;

/** A tool as the policy sees it. */
export interface PolicyTool {
  platform: string;
  name: string;
  group?: string | undefined;
  readOnly: boolean;
}

/** Whether the policy lets its key call the tool. */
export function allows(policy: Policy, tool: PolicyTool): boolean {
  if (!policy.platforms.includes(tool.platform)) return false;
  if (policy.read_only && !tool.readOnly) return false;
  if (!policy.toolsets) return true;
  const g = tool.group;
  return g !== undefined && (policy.toolsets.includes(g) || policy.toolsets.includes(`${tool.platform}:${g}`));
}

/**
 * Whether the key may create, reconnect and delete connections: never a read-only key (those are
 * writes); otherwise as `manage_connections` says, and when it says nothing, only a key without a
 * toolset limit — a restricted key is made for its tools, not to change the tenant's accounts.
 * Either way a key manages only connections of its own platforms (shared/identity/routes.ts).
 */
export function managesConnections(policy: Policy): boolean {
  if (policy.read_only) return false;
  return policy.manage_connections ?? policy.toolsets === undefined;
}

/** The policy in words, for a refusal: what the key may call instead. */
export function describePolicy(policy: Policy): string {
  const parts = [`platforms ${policy.platforms.join(', ')}`];
  if (policy.toolsets) parts.push(`toolsets ${policy.toolsets.join(', ')}`);
  if (policy.read_only) parts.push('read-only tools only');
  return parts.join('; ');
}

/** FORBIDDEN unless the policy allows the tool; raised before anything reaches the vendor. */
export function enforce(policy: Policy, tool: PolicyTool): void {
  if (allows(policy, tool)) return;
  const why = !policy.platforms.includes(tool.platform)
    ? `platform "${tool.platform}" is not allowed`
    : policy.read_only && !tool.readOnly
      ? `"${tool.name}" writes, and this key is read-only`
      : `toolset "${tool.group ?? '(none)'}" of "${tool.name}" is not allowed`;
  throw new ToolError('FORBIDDEN', `This service key may not call ${tool.platform}/${tool.name}: ${why}. Its policy allows ${describePolicy(policy)}.`, {
    platform: tool.platform,
    tool: tool.name,
    allowed: { platforms: policy.platforms, ...(policy.toolsets ? { toolsets: policy.toolsets } : {}), read_only: policy.read_only },
  });
}

/** A policy from untrusted input (admin API, CLI): INVALID_PARAMETER naming the field. */
export function parsePolicy(raw: unknown, parameter = 'policy'): Policy {
  const parsed = policySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [parameter, ...issue.path.map(String)].join('.');
  throw new ToolError('INVALID_PARAMETER', `"${path}": ${issue.message}. A policy is {"platforms": ["crm"], "toolsets"?: ["deals"], "read_only"?: true, "rate_limit"?: {"max": 100, "window_seconds": 60}, "manage_connections"?: false}.`, {
    parameter: path,
    expected: 'a policy {platforms, toolsets?, read_only?, rate_limit?, manage_connections?}',
  });
}

/**
 * A key's policy names only what exists (the admin API and the CLI): each platform a platform of
 * this service, each toolset one of a policy platform's (shared/identity/mcp-oauth/scopes.ts).
 * A name mistyped would otherwise allow nothing, silently.
 */
export function checkKnown(policy: Policy, parameter = 'policy'): Policy {
  const platforms = Object.keys(TOOLSETS);
  for (const p of policy.platforms) {
    if (!platforms.includes(p)) throw new ToolError('INVALID_PARAMETER', `"${parameter}.platforms": unknown platform "${p}"; the platforms are ${platforms.join(', ')}.`, { parameter: `${parameter}.platforms`, expected: `some of ${platforms.join(', ')}` });
  }
  for (const t of policy.toolsets ?? []) {
    const [platform, group] = t.includes(':') ? (t.split(':') as [string, string]) : [undefined, t];
    const on = platform === undefined ? policy.platforms : [platform];
    if (platform !== undefined && !policy.platforms.includes(platform)) {
      throw new ToolError('INVALID_PARAMETER', `"${parameter}.toolsets": "${t}" is on ${platform}, which the policy's platforms (${policy.platforms.join(', ')}) do not include.`, { parameter: `${parameter}.toolsets`, expected: 'toolsets of the policy\'s platforms' });
    }
    if (!on.some((p) => TOOLSETS[p]?.includes(group))) {
      const known = policy.platforms.map((p) => `${p}: ${(TOOLSETS[p] ?? []).join(' ')}`).join('; ');
      throw new ToolError('INVALID_PARAMETER', `"${parameter}.toolsets": unknown toolset "${t}" for platforms ${on.join(', ')}. The toolsets are ${known}.`, { parameter: `${parameter}.toolsets`, expected: 'toolsets of the policy\'s platforms' });
    }
  }
  return policy;
}
