import { alreadyAttached, invalid, notFound } from './http';
import { nextId, podioDateTime, type PodioEmbedRow, type PodioState } from './state';

/**
 * Files and embeds (docs/vendors/podio.md#files, #field-types embed). An uploaded file stays unattached until it is attached
 * to one object (POST /file/{id}/attach, or `file_ids` of an item or comment write); docs/spec.md#collab-hook: "must
 * be attached within a few hours or it is garbage-collected" — four hours of the twin's clock here.
 */
export const UNATTACHED_FILE_TTL_MS = 4 * 3_600_000;

/** Drops the unattached uploads older than UNATTACHED_FILE_TTL_MS. */
export function collectGarbage(state: PodioState, now: number): void {
  for (const [id, f] of state.files) if (f.context === null && now - f.uploaded_at >= UNATTACHED_FILE_TTL_MS) state.files.delete(id);
}

/** Refuses a file attached to another object than `ref` (null: not yet created) with 400 file.already_attached. */
export function checkAttachable(state: PodioState, fileId: number, ref: { type: string; id: number | null }): void {
  const f = state.files.get(fileId)!;
  if (f.context && !(f.context.type === ref.type && f.context.id === ref.id)) throw alreadyAttached(fileId);
}

/** `file_ids` of an item or comment write: integer ids of existing files (404) attachable to `ref`; undefined when absent. */
export function checkedFileIds(state: PodioState, raw: unknown, ref: { type: string; id: number | null }): number[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((id) => !(Number.isInteger(id) && id > 0))) throw invalid(`"file_ids" must be a list of integer file ids, got ${JSON.stringify(raw)}.`);
  for (const id of raw as number[]) if (!state.files.has(id)) throw notFound();
  for (const id of raw as number[]) checkAttachable(state, id, ref);
  return [...new Set(raw as number[])];
}

/** Marks a file attached to an object (checked first). */
export function attachFile(state: PodioState, fileId: number, ref: { type: string; id: number }): void {
  checkAttachable(state, fileId, ref);
  state.files.get(fileId)!.context = { type: ref.type, id: ref.id };
}

const MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv',
  json: 'application/json', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', zip: 'application/zip',
};

/** The mimetype of an upload: its part's type when given, else by the file name's extension. */
export function mimetypeOf(name: string, given: string): string {
  if (given && given !== 'application/octet-stream') return given.split(';')[0]!.trim();
  return MIME[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** POST /embed/ {url}: a link embed (the twin fetches nothing; the title is made from the URL). */
export function createEmbed(state: PodioState, raw: unknown, now: number): PodioEmbedRow {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw invalid(`"url" must be an absolute http or https URL, got ${JSON.stringify(raw)}.`);
  }
  if (typeof raw !== 'string' || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalid(`"url" must be an absolute http or https URL, got ${JSON.stringify(raw)}.`);
  const path = url.pathname.replace(/\/$/, '');
  const embed: PodioEmbedRow = { embed_id: nextId(state, 'embed'), url: raw, title: `${url.hostname}${path}`, description: null, created_on: podioDateTime(now) };
  state.embeds.set(embed.embed_id, embed);
  return embed;
}

/** Where a file is shown: an item, a comment (on an item), or a space. */
export interface FilePlace {
  /** The space the file lies in; null: unattached (or on an object of no space). */
  space_id: number | null;
  /** The app, when the file is on an item or on a comment on an item. */
  app_id: number | null;
  /** The item it belongs to (its own, or the one its comment is on). */
  item_id: number | null;
  /** The context's title, as file listings show it. */
  title: string | null;
}

/** The space, app and item a file belongs to, through its context. */
export function placeOf(state: PodioState, context: { type: string; id: number } | null, titleOfItem: (itemId: number) => string): FilePlace {
  if (!context) return { space_id: null, app_id: null, item_id: null, title: null };
  const onItem = (itemId: number, title?: string): FilePlace => {
    const item = state.items.get(itemId);
    if (!item) return { space_id: null, app_id: null, item_id: null, title: null };
    return { space_id: state.apps.get(item.app_id)!.space_id, app_id: item.app_id, item_id: itemId, title: title ?? titleOfItem(itemId) };
  };
  switch (context.type) {
    case 'item':
      return onItem(context.id);
    case 'comment': {
      const comment = state.comments.get(context.id);
      if (comment?.ref.type !== 'item') return { space_id: null, app_id: null, item_id: null, title: null };
      return onItem(comment.ref.id, comment.value.slice(0, 80));
    }
    case 'space':
      return { space_id: context.id, app_id: null, item_id: null, title: state.spaces.get(context.id)?.name ?? null };
    default:
      return { space_id: null, app_id: null, item_id: null, title: null };
  }
}

/** Removes a file from every object it is on (item files, comment files, image field values) and from the state. */
export function removeFile(state: PodioState, fileId: number): void {
  state.files.delete(fileId);
  for (const item of state.items.values()) {
    if (item.file_ids.includes(fileId)) item.file_ids = item.file_ids.filter((id) => id !== fileId);
    for (const [fieldId, values] of item.values) {
      const kept = values.filter((v) => v.file_id !== fileId || 'embed_id' in v);
      if (kept.length !== values.length) {
        if (kept.length) item.values.set(fieldId, kept);
        else item.values.delete(fieldId);
      }
    }
  }
  for (const comment of state.comments.values()) if (comment.file_ids.includes(fileId)) comment.file_ids = comment.file_ids.filter((id) => id !== fileId);
  for (const task of state.tasks.rows.values()) if (task.file_ids.includes(fileId)) task.file_ids = task.file_ids.filter((id) => id !== fileId);
}

/** POST /file/{id}/copy: a new, unattached file with the same bytes; its external_id is `file_<id>` (docs/spec.md#collab-file). */
export function copyFile(state: PodioState, fileId: number, userId: number, now: number): number {
  const f = state.files.get(fileId)!;
  const file_id = nextId(state, 'file');
  state.files.set(file_id, { file_id, name: f.name, mimetype: f.mimetype, content: f.content, description: f.description, created_on: podioDateTime(now), uploaded_at: now, created_by: userId, context: null, external_id: `file_${fileId}` });
  return file_id;
}

/**
 * POST /file/{new}/replace {old_file_id}: Podio replaces attachments only, with a new file not
 * attached anywhere; the new file takes the old one's place on its object (same position) and the
 * old one is removed. A file in an image field is no attachment: 400.
 */
export function replaceFile(state: PodioState, newId: number, oldId: number): { type: string; id: number } {
  const fresh = state.files.get(newId)!;
  const old = state.files.get(oldId);
  if (!old) throw notFound();
  if (newId === oldId) throw invalid('A file cannot replace itself.');
  if (fresh.context) throw alreadyAttached(newId);
  const ctx = old.context;
  if (!ctx) throw invalid(`The file ${oldId} is not attached to anything: only attachments can be replaced.`);
  const holder = ctx.type === 'item' ? state.items.get(ctx.id) : ctx.type === 'comment' ? state.comments.get(ctx.id) : undefined;
  if (ctx.type !== 'space' && !holder?.file_ids.includes(oldId)) throw invalid(`The file ${oldId} is not of type "attachment" (it is the value of a field): only attachments can be replaced.`);
  if (holder) holder.file_ids = holder.file_ids.map((id) => (id === oldId ? newId : id));
  fresh.context = { ...ctx };
  fresh.replaces = [...(old.replaces ?? []), oldId];
  state.files.delete(oldId);
  return ctx;
}
