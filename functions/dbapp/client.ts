import { createUpstream, type VendorError } from '../../shared/upstream';
import type { PlatformEnv } from '../../shared/tool';

/** Tape's wire shapes (snake_case, as documented in vendor-docs/tape/resource/*.md). */
export interface TapeWorkspace {
  workspace_id: number;
  org_id: number;
  name: string;
  slug: string;
  type: 'private' | 'open' | 'default' | 'closed';
  description: string | null;
  icon?: { type: string; id?: string; emoji?: string; color?: string };
}

export interface TapeWorkspaceMember {
  workspace_id: number;
  user_id: number;
  role: 'admin' | 'member' | 'guest';
}

export const TAPE_BASE_URL = 'https://api.tapeapp.com';

/**
 * Tape's error body is {status_code, endpoint, error_code, error_message}. A malformed key is
 * answered 400 "Invalid user API key …" (authentication.md): that is an UNAUTHORIZED for us.
 */
function describeTapeError(body: unknown): VendorError {
  const b = (body ?? {}) as { error_code?: unknown; error_message?: unknown };
  const code = typeof b.error_code === 'string' ? b.error_code : undefined;
  const message = typeof b.error_message === 'string' ? b.error_message : undefined;
  const badKey = message !== undefined && /invalid user api key/i.test(message);
  return { code, message, ...(badKey ? { as: 'UNAUTHORIZED' as const } : {}) };
}

/** The only place that knows Tape's paths. One instance per call, bound to the caller's key. */
export function createTapeClient(key: string, env: PlatformEnv) {
  const request = createUpstream({
    baseUrl: env.baseUrl,
    fetch: env.fetch,
    timeoutMs: env.timeoutMs,
    headers: { authorization: `Bearer ${key}` },
    describeError: describeTapeError,
    vendor: 'Tape',
  });

  return {
    // --- workspaces (workspace.md) ---
    listWorkspaces: () => request<{ total: number; workspaces: TapeWorkspace[] }>({ method: 'GET', path: '/v1/workspace/org' }),
    createWorkspace: (body: { name: string; type: TapeWorkspace['type']; description?: string }) =>
      request<TapeWorkspace>({ method: 'POST', path: '/v1/workspace', body }),
    updateWorkspace: (id: number, body: { name?: string; description?: string | null }) =>
      request<TapeWorkspace>({ method: 'PUT', path: `/v1/workspace/${id}`, body, idempotent: true }),
    deleteWorkspace: (id: number) => request<TapeWorkspace>({ method: 'DELETE', path: `/v1/workspace/${id}` }),
    listWorkspaceMembers: (id: number) =>
      request<{ workspace_members: TapeWorkspaceMember[] }>({ method: 'GET', path: `/v1/workspace/${id}/member` }),
    // Tape adds or changes the role: sending it twice leaves the same state.
    addWorkspaceMember: (id: number, body: { user_id: number; role: 'admin' | 'member' }) =>
      request<TapeWorkspaceMember>({ method: 'POST', path: `/v1/workspace/${id}/member`, body, idempotent: true }),
    removeWorkspaceMember: (id: number, userId: number) =>
      request<TapeWorkspaceMember>({ method: 'DELETE', path: `/v1/workspace/${id}/member/${userId}` }),

    // --- apps, organization, users (app.md, organization.md, user.md) ---

    // --- records (record.md, record-revision.md, record-comment.md) ---

    // --- views (view.md) ---

    // --- webhooks (webhook.md) ---

    // --- files (file.md) ---
  };
}

export type TapeClient = ReturnType<typeof createTapeClient>;
