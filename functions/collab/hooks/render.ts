import type { PodioHook } from '../wire';

export interface Hook {
  hook_id: number;
  status: 'active' | 'inactive';
  type: string;
  url: string;
  created_by: { type: string; id: number } | null;
  created_on: string | null;
}

export function toHook(h: PodioHook): Hook {
  const by = h.created_by;
  return {
    hook_id: h.hook_id,
    status: h.status,
    type: h.type,
    url: h.url,
    created_by: by && typeof by.id === 'number' ? { type: by.type ?? 'user', id: by.id } : null,
    created_on: h.created_on || null,
  };
}

export const hookLine = (h: Hook) => `#${h.hook_id} ${h.type} → ${h.url} (${h.status}${h.status === 'inactive' ? ': verify it' : ''})`;

/** What to do with an inactive hook: the verification flow in one sentence. */
export const VERIFY_STEPS = 'call requestHookVerification (Podio posts a code to the URL), then validateHookVerification with that code';
