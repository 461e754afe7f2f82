/** Comments and their revisions as the comment tools return them (docs/spec.md#collab-comment), and their text. */
import { shortDate } from '../../../shared/core/render';
import { fileRef, person, type FileRef } from '../render';
import type { PodioComment, PodioCommentRevision, PodioEmbed } from '../wire';

export interface CommentEmbed {
  embed_id: number;
  url: string;
  title?: string;
}

export interface Comment {
  comment_id: number;
  /** The text with mention markup `@[Full Name](user:<user_id>)` as written. */
  value: string;
  /** Podio's HTML rendering (mentions of real users as links); null when Podio gives none. */
  rich_value: string | null;
  created_by: { user_id: number | null; name: string; type: string };
  /** Null only when the comment could not be read back after adding it. */
  created_on: string | null;
  files: FileRef[];
  /** What the comment is on (add and get; a listing is on one object). */
  ref?: { type: string; id: number };
  like_count: number;
  is_liked: boolean;
  external_id?: string;
  /** The link embedded with the comment; null when there is none. */
  embed: CommentEmbed | null;
}

export interface CommentRevision {
  created_on: string;
  value: string;
  rich_value: string | null;
  embed: CommentEmbed | null;
  embed_file: FileRef | null;
}

const toEmbed = (e: PodioEmbed): CommentEmbed => ({ embed_id: e.embed_id, url: e.url, ...(e.title ? { title: e.title } : {}) });

/** Podio's comment → docs/spec.md#collab-comment; `withRef` keeps `ref` (add and get, not listings). */
export function toComment(c: PodioComment, withRef = true): Comment {
  const by = person(c.created_by);
  return {
    comment_id: c.comment_id,
    value: c.value,
    rich_value: typeof c.rich_value === 'string' ? c.rich_value : null,
    created_by: { ...by, type: typeof c.created_by?.type === 'string' ? c.created_by.type : 'user' },
    created_on: c.created_on,
    files: (c.files ?? []).map(fileRef),
    ...(withRef && c.ref ? { ref: { type: c.ref.type, id: c.ref.id } } : {}),
    like_count: c.like_count ?? 0,
    is_liked: c.is_liked === true,
    ...(c.external_id ? { external_id: c.external_id } : {}),
    embed: c.embed ? toEmbed(c.embed) : null,
  };
}

export function toRevision(r: PodioCommentRevision): CommentRevision {
  return {
    created_on: r.created_on,
    value: r.value,
    rich_value: typeof r.rich_value === 'string' ? r.rich_value : null,
    embed: r.embed ? toEmbed(r.embed) : null,
    embed_file: r.embed_file ? fileRef(r.embed_file) : null,
  };
}

/** A comment's text on one line: line breaks shown as " / ". */
export const oneLine = (value: string): string => value.trim().replace(/\s*\n\s*/g, ' / ');

const extras = (files: readonly FileRef[], embed: CommentEmbed | null | undefined): string =>
  `${files.length ? ` [files: ${files.map((f) => `${f.name} #${f.file_id}`).join(', ')}]` : ''}${embed ? ` [link: ${embed.url}]` : ''}`;

/** `#90001 2025-01-07 10:00 Ben Okafor: text [files: …] (2 likes)` */
export function commentLine(c: Comment): string {
  const likes = c.like_count ? ` (${c.like_count} like${c.like_count === 1 ? '' : 's'})` : '';
  return `#${c.comment_id}${c.created_on ? ` ${shortDate(c.created_on)}` : ''} ${c.created_by.name}: ${oneLine(c.value)}${extras(c.files, c.embed)}${likes}`;
}

/** A single comment: its line, then what it is on. */
export const commentText = (c: Comment): string => `${commentLine(c)}${c.ref ? `\non ${c.ref.type} #${c.ref.id}` : ''}${c.external_id ? `, external_id ${c.external_id}` : ''}`;

/** `v2 2025-01-08 09:12: text` */
export const revisionLine = (r: CommentRevision, i: number): string => `v${i + 1} ${shortDate(r.created_on)}: ${oneLine(r.value)}${extras(r.embed_file ? [r.embed_file] : [], r.embed)}`;
