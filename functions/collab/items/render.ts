/**
 * The compact item of docs/spec.md#collab-item and its text (docs/architecture.md#text-output), for every item read: `item_id,
 * app_item_id, title, link, created_by {user_id, name}, created_on, tags, fields [{field_id,
 * external_id, label, type, value}]` with the values in the spec's shapes (text string, category
 * [{id, text}], money {value, currency}, date {start, end}, contacts by name…), empty fields left out;
 * title, app_item_id, link and created_on are present as null when Podio gives none.
 * Text: ids first, `Label: value` pairs by each type's `text` (money `12.50 EUR`, contacts by name,
 * categories by text), one line per item in lists; `verbose` adds field ids and types and metadata.
 */
import { byteSize, shortDate } from '../../../shared/core/render';
import { fieldText, itemFieldPairs, itemFieldValues, type FieldValue, type ItemFieldSelection } from '../fields';
import { listed } from '../../../shared/core/listed';
import { fileRef, person, type FileRef, type Person } from '../render';
import type { PodioFile, PodioItem } from '../wire';

export type ItemFile = FileRef;

export interface Item {
  item_id: number;
  app_item_id: number | null;
  title: string | null;
  link: string | null;
  created_by: Person;
  created_on: string | null;
  tags: string[];
  fields: FieldValue[];
  /** The files attached to the item (getItem always when there are any; lists with verbose). */
  files?: ItemFile[];
  // --- verbose only ---
  app?: { app_id: number; name?: string };
  external_id?: string;
  revision?: number;
  last_event_on?: string;
}

export interface ItemOptions {
  select?: ItemFieldSelection;
  /** Keep the item's files (and the files of its image fields). */
  files?: boolean;
  verbose?: boolean;
}

/**
 * The item's files: those attached to it and those of its image fields (Podio lists an image
 * field's files in the field, not always in `files`), each once.
 */
export function itemFiles(raw: PodioItem): ItemFile[] {
  const out = new Map<number, ItemFile>();
  for (const f of raw.files ?? []) out.set(f.file_id, fileRef(f));
  for (const field of raw.fields ?? []) {
    if (field.type !== 'image') continue;
    for (const v of field.values) {
      const f = v.value as PodioFile | undefined;
      if (f && typeof f.file_id === 'number' && !out.has(f.file_id)) out.set(f.file_id, fileRef(f));
    }
  }
  return [...out.values()];
}

/** Podio's item → the compact item (docs/spec.md#collab-item). */
export function toItem(raw: PodioItem, o: ItemOptions = {}): Item {
  const files = o.files || o.verbose ? itemFiles(raw) : [];
  const by = person(raw.created_by);
  return {
    item_id: raw.item_id,
    ...listed(raw, ['app_item_id', 'link', 'created_on'] as const),
    // Podio answers a null title for an item whose title field is empty.
    title: (raw.title as string | null) ?? null,
    created_by: by,
    tags: [...(raw.tags ?? [])],
    fields: itemFieldValues(raw.fields, o.select),
    ...(files.length ? { files } : {}),
    ...(o.verbose
      ? {
          ...(raw.app ? { app: { app_id: raw.app.app_id, ...(raw.app.name ? { name: raw.app.name } : {}) } } : {}),
          ...(raw.external_id ? { external_id: raw.external_id } : {}),
          ...(typeof raw.current_revision?.revision === 'number' ? { revision: raw.current_revision.revision } : {}),
          ...(raw.last_event_on ? { last_event_on: raw.last_event_on } : {}),
        }
      : {}),
  };
}

const fileText = (f: ItemFile, verbose: boolean | undefined): string =>
  `${f.name} #${f.file_id}${verbose && (f.mimetype || f.size !== undefined) ? ` (${[f.mimetype, f.size !== undefined ? byteSize(f.size) : ''].filter(Boolean).join(', ')})` : ''}`;

/** `files: a.pdf #60001, b.png #60002` (verbose adds type and size). */
export const filesText = (files: readonly ItemFile[], verbose?: boolean): string => `files: ${files.map((f) => fileText(f, verbose)).join(', ')}`;

/** `#30061 [12] Title` (the app's number in brackets when Podio gives one). */
const headText = (i: Item): string => `#${i.item_id}${i.app_item_id != null ? ` [${i.app_item_id}]` : ''} ${i.title || '(untitled)'}`;

const tagsText = (tags: readonly string[]): string => (tags.length ? `tags: ${tags.join(', ')}` : '');

/** `created 2025-01-07 10:00 by Ben Okafor`. */
const made = (i: Item): string => [i.created_on ? `created ${shortDate(i.created_on)}` : '', i.created_by.user_id !== null || i.created_by.name !== 'unknown' ? `by ${i.created_by.name}` : ''].filter(Boolean).join(' ');

/** Verbose metadata: app, revision, last change, external id. */
const more = (i: Item): string[] => [
  i.app ? `app #${i.app.app_id}${i.app.name ? ` ${i.app.name}` : ''}` : '',
  i.revision !== undefined ? `revision ${i.revision}` : '',
  i.last_event_on ? `last change ${shortDate(i.last_event_on)}` : '',
  i.external_id ? `external_id ${i.external_id}` : '',
];

/**
 * One item, a few lines: `#item_id [app_item_id] Title · created … by … · tags`, its link, then
 * every field as `Label: value` (texts whole), then its files.
 */
export function itemText(i: Item, o: { verbose?: boolean; filesOnly?: boolean } = {}): string {
  const head = [headText(i), made(i), tagsText(i.tags), ...(o.verbose ? more(i) : [])].filter(Boolean).join(' · ');
  const lines = [head, i.link];
  if (!o.filesOnly) {
    const pairs = itemFieldPairs(i.fields, { verbose: o.verbose });
    lines.push(pairs.length ? pairs.join(' · ') : '(no field values)');
  }
  if (i.files?.length) lines.push(filesText(i.files, o.verbose));
  else if (o.filesOnly) lines.push('no files');
  return lines.filter(Boolean).join('\n');
}

/** In a list the text field that only repeats the title is left out (unless verbose). */
function listFields(i: Item, verbose?: boolean): FieldValue[] {
  if (verbose) return i.fields;
  const dup = i.fields.findIndex((f) => f.type === 'text' && fieldText(f, { list: true }) === i.title);
  return dup < 0 ? i.fields : i.fields.filter((_, n) => n !== dup);
}

/** One line per item: `#30061 [12] Title · Label: value · … · tags: …` (verbose adds creation, the link, field ids and types). */
export function itemLine(i: Item, o: { verbose?: boolean } = {}): string {
  const opts = { list: true, verbose: o.verbose };
  return [
    headText(i),
    ...(o.verbose ? [made(i), ...more(i), i.link] : []),
    ...itemFieldPairs(listFields(i, o.verbose), opts),
    tagsText(i.tags),
    ...(o.verbose && i.files?.length ? [filesText(i.files, true)] : []),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The link of a list's items, told once under it instead of on every line:
 * `open one at https://podio.com/o/s/apps/a/items/<n> (n = the [number] after its #item_id)`.
 */
export function linkHint(items: readonly Item[]): string | undefined {
  const link = items.find((i) => i.link)?.link;
  return link && /\/\d+$/.test(link) ? `open one at ${link.replace(/\/\d+$/, '/<n>')} (n = the [number] after its #item_id)` : undefined;
}
