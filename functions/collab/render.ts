import type { PodioByLine, PodioFile } from './wire';

/** Text and shapes the collab groups share. */

/** Who did something, as the spec shows it: `{user_id, name}` (an app or a hook as actor has no user_id). */
export interface Person {
  user_id: number | null;
  name: string;
}

/** Podio's "by" object → {user_id, name}: a user's id is `user_id`, or `id` when `type` is user. */
export function person(by: PodioByLine | undefined | null): Person {
  if (!by) return { user_id: null, name: 'unknown' };
  const userId = typeof by.user_id === 'number' ? by.user_id : by.type === 'user' && typeof by.id === 'number' ? by.id : null;
  return { user_id: userId, name: typeof by.name === 'string' ? by.name : 'unknown' };
}

/** A file as the collab tools show it (item files; comments have the same shape): id, name, type, size, link. */
export interface FileRef {
  file_id: number;
  name: string;
  mimetype?: string;
  size?: number;
  link?: string;
}

export const fileRef = (f: PodioFile): FileRef => ({
  file_id: f.file_id,
  name: f.name,
  ...(f.mimetype ? { mimetype: f.mimetype } : {}),
  ...(typeof f.size === 'number' ? { size: f.size } : {}),
  ...(f.link ? { link: f.link } : {}),
});
