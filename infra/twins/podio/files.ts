import { alreadyAttached, invalid, notFound } from './http';
import { nextId, podioDateTime, type PodioEmbedRow, type PodioState } from './state';

/**
 * Files and embeds (podio.md §7, §2 embed). An uploaded file stays unattached until it is attached
 * to one object (POST /file/{id}/attach, or `file_ids` of an item or comment write); spec §3: "must
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
