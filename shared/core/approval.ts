import { ToolError } from './errors';
import type { DryRunPlan } from './dry-run';

/**
 * The core's side of approvals (docs/architecture.md#layers): what a held call is, what a caller is
 * told, and the gate the runtime hands the core. The requests themselves are kept and decided by
 * shared/identity/approvals.ts.
 */

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'executed' | 'expired';

/** A request's fields as the API shows them (no sealed data, no link or CSRF token). */
export interface ApprovalFields {
  id: string;
  tenant: string;
  key_id: string;
  connection: string;
  platform: string;
  tool: string;
  /** SHA-256 of the canonical arguments (shared/core/idempotency.ts fingerprint). */
  args_hash: string;
  /** Writes in the plan, and whether the tool stopped at one (a batch's plan counts every item's write). */
  writes: number;
  created_at: string;
  expires_at: string;
  decided_at?: string;
  /** `key:<id>` of the approver who signed in, `link` (the capability link alone), or `elicitation` (the person answering the MCP host's form). */
  decided_by?: string;
  executed_at?: string;
}

/** A request as the API shows it. */
export type ApprovalView = ApprovalFields & { status: ApprovalStatus };

/** What the core knows of a held call. */
export interface HeldCall {
  tenant: string;
  keyId: string;
  connection: string;
  platform: string;
  tool: string;
  argsHash: string;
  arguments: unknown;
  plan: DryRunPlan;
  /** Where the call came from (rest, mcp, mcp-task, direct): its approval's steps say so in the audit trail. */
  surface: string;
}

/** What requireApproval answers: the request, and what a surface shows its caller. */
export interface ApprovalRequest {
  approval: ApprovalView;
  approval_url: string;
  /** The plan in words (shared/core/dry-run.ts planText): an elicitation's message, the page's preview. */
  preview: string;
}

/** Keeps and spends approvals: set on the runtime by createRuntime (shared/identity's Approvals). */
export interface ApprovalGate {
  create(held: HeldCall): Promise<ApprovalRequest>;
  use(id: string, call: Omit<HeldCall, 'arguments' | 'plan'>): Promise<ApprovalView>;
  /**
   * A person's answer given through the caller's own host (an MCP form elicitation whose sealed
   * state names the request): approved or rejected, once, in the audit trail. Undefined when the
   * request is unknown or no longer pending (decided, used, expired): nothing changes then.
   */
  answer(id: string, decision: 'approved' | 'rejected', by: string, surface: 'mcp' | 'mcp-task'): Promise<ApprovalView | undefined>;
}

const ID = /^apr_[0-9a-f]{24}$/;

/** Whether `id` has an approval id's shape (apr_ and 24 hex digits). */
export const isApprovalId = (id: string): boolean => ID.test(id);

/** The approval id a retry carries (REST header, MCP _meta, direct-invocation field), checked for shape. */
export function checkApprovalId(raw: unknown, parameter = 'Approval-Id'): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' || !ID.test(raw)) {
    throw new ToolError('INVALID_PARAMETER', `"${parameter}" must be the approval_id a held call answered (apr_ and 24 hex digits).`, { parameter, expected: 'apr_…' });
  }
  return raw;
}
