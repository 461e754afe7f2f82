/** Workspaces and their members as the tools return them, and their one-line text. */
import type { TapeWorkspace, TapeWorkspaceMember } from '../wire';

/** Workspace as the spec (docs/spec.md#dbapp-workspace) shapes it; `icon` only when set. */
export interface Workspace {
  workspace_id: number;
  org_id: number;
  name: string;
  description: string | null;
  slug: string;
  type: TapeWorkspace['type'];
  icon?: { type: string; id?: string; color?: string };
}

export interface WorkspaceMember {
  user_id: number;
  workspace_id: number;
  role: TapeWorkspaceMember['role'];
}

export function toWorkspace(w: TapeWorkspace): Workspace {
  return {
    workspace_id: w.workspace_id,
    org_id: w.org_id,
    name: w.name,
    description: w.description ?? null,
    slug: w.slug,
    type: w.type,
    ...(w.icon ? { icon: { type: w.icon.type, ...(w.icon.id ? { id: w.icon.id } : {}), ...(w.icon.color ? { color: w.icon.color } : {}) } } : {}),
  };
}

export function toMember(m: TapeWorkspaceMember): WorkspaceMember {
  return { user_id: m.user_id, workspace_id: m.workspace_id, role: m.role };
}

/** One line: id first, then name, type and slug, then the description. */
export function workspaceLine(w: Pick<Workspace, 'workspace_id' | 'name' | 'type' | 'slug'> & { description?: string | null }): string {
  const description = w.description ? ` — ${w.description}` : '';
  return `#${w.workspace_id} ${w.name} (${w.type}, slug ${w.slug})${description}`;
}
