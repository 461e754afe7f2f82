import * as z from 'zod';
import { ToolError } from '../core/errors';

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
  /**
   * Which calls wait for a person's approval before they run (shared/identity/approvals.ts): `none` (absent),
   * `destructive` (tools annotated destructive), `writes` (every tool that is not read-only), or a
   * list of tool names and toolsets (`createDeal`, `deals`, `crm:deals`). Dry runs and reads never wait.
   */
  approval: z.union([z.enum(['none', 'destructive', 'writes']), z.array(z.string().regex(/^([a-z][a-z0-9]*:)?[a-zA-Z][a-zA-Z0-9-]*$/, 'a tool name or toolset such as "createDeal" or "crm:deals"')).min(1)]).optional(),
  /** The key may sign in on approval pages to approve or reject other keys' calls of its tenant. */
  approver: z.boolean().optional(),
  /**
   * The key may sign in to the operator console (/console), as the admin credential does; what it
   * does there is audited under its id. It gives no access to the admin API itself.
   */
  admin: z.boolean().optional(),
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
  destructive?: boolean | undefined;
}

/** Whether the policy lets its key call the tool. */
export function allows(policy: Policy, tool: PolicyTool): boolean {
  if (!policy.platforms.includes(tool.platform)) return false;
  if (policy.read_only && !tool.readOnly) return false;
  if (!policy.toolsets) return true;
  const g = tool.group;
  return g !== undefined && (policy.toolsets.includes(g) || policy.toolsets.includes(`${tool.platform}:${g}`));
}

/** Whether the policy holds a call of the tool for a person's approval (reads never). */
export function needsApproval(policy: Policy, tool: PolicyTool): boolean {
  const rule = policy.approval ?? 'none';
  if (tool.readOnly || rule === 'none') return false;
  if (rule === 'writes') return true;
  if (rule === 'destructive') return tool.destructive === true;
  const g = tool.group;
  return rule.includes(tool.name) || rule.includes(`${tool.platform}:${tool.name}`) || (g !== undefined && (rule.includes(g) || rule.includes(`${tool.platform}:${g}`)));
}

/** An approval rule from a form or a CLI flag: `none`, `destructive`, `writes`, or comma-separated tools/toolsets. */
export function approvalRule(raw: string | undefined): Policy['approval'] {
  const v = raw?.trim();
  if (!v) return undefined;
  if (v === 'none' || v === 'destructive' || v === 'writes') return v;
  return v.split(',').map((x) => x.trim()).filter(Boolean);
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
  if (policy.approval && policy.approval !== 'none') parts.push(`approval for ${Array.isArray(policy.approval) ? policy.approval.join(', ') : policy.approval}`);
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
  throw new ToolError('INVALID_PARAMETER', `"${path}": ${issue.message}. A policy is {"platforms": ["crm"], "toolsets"?: ["deals"], "read_only"?: true, "rate_limit"?: {"max": 100, "window_seconds": 60}, "manage_connections"?: false, "approval"?: "none" | "destructive" | "writes" | ["createDeal", "deals"], "approver"?: true, "admin"?: true}.`, {
    parameter: path,
    expected: 'a policy {platforms, toolsets?, read_only?, rate_limit?, manage_connections?, approval?, approver?, admin?}',
  });
}

/**
 * A key's policy names only what exists (the admin API and the CLI): each platform a platform of
 * this service, each toolset one of a policy platform's (the platforms' descriptors).
 * A name mistyped would otherwise allow nothing, silently.
 */
export function checkKnown(policy: Policy, known: ReadonlyMap<string, readonly string[]>, parameter = 'policy'): Policy {
  const platforms = [...known.keys()];
  for (const p of policy.platforms) {
    if (!platforms.includes(p)) throw new ToolError('INVALID_PARAMETER', `"${parameter}.platforms": unknown platform "${p}"; the platforms are ${platforms.join(', ')}.`, { parameter: `${parameter}.platforms`, expected: `some of ${platforms.join(', ')}` });
  }
  for (const t of policy.toolsets ?? []) {
    const [platform, group] = t.includes(':') ? (t.split(':') as [string, string]) : [undefined, t];
    const on = platform === undefined ? policy.platforms : [platform];
    if (platform !== undefined && !policy.platforms.includes(platform)) {
      throw new ToolError('INVALID_PARAMETER', `"${parameter}.toolsets": "${t}" is on ${platform}, which the policy's platforms (${policy.platforms.join(', ')}) do not include.`, { parameter: `${parameter}.toolsets`, expected: 'toolsets of the policy\'s platforms' });
    }
    if (!on.some((p) => known.get(p)?.includes(group))) {
      const each = policy.platforms.map((p) => `${p}: ${(known.get(p) ?? []).join(' ')}`).join('; ');
      throw new ToolError('INVALID_PARAMETER', `"${parameter}.toolsets": unknown toolset "${t}" for platforms ${on.join(', ')}. The toolsets are ${each}.`, { parameter: `${parameter}.toolsets`, expected: 'toolsets of the policy\'s platforms' });
    }
  }
  return policy;
}
