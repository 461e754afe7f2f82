import { isId, isObject, show } from '../../../../shared/fields/engine';
import type { CollabEntry } from '../entry';
import { listOf } from './common';

/**
 * image: file ids or https URLs (downloaded and uploaded by finishItemFields) → [{file_id, name}].
 * embed: link URLs, turned into embeds through Podio's embed endpoint by finishItemFields and sent as
 * [{embed: embed_id}] (an existing embed id is taken as it is) → [{embed_id, url, title}].
 */

export interface FileValue { file_id: number; name: string; mimetype?: string; size?: number }
export interface EmbedValue { embed_id: number; url: string; title?: string }

const isHttpUrl = (s: string) => /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(s);

export const MEDIA_TYPES: Record<string, CollabEntry> = {
  image: {
    expected: () => 'a file id or an https URL, or an array of them (URLs are downloaded and uploaded for you), e.g. ["https://example.com/photo.jpg"] or [5001]',
    input: (value, cx) => {
      const sources = listOf(value, cx, true).map(({ item, path }) => {
        if (isId(item)) return { source: item, path };
        if (typeof item === 'string' && /^https:\/\//i.test(item.trim()) && isHttpUrl(item.trim())) return { source: item.trim(), path };
        const why = typeof item === 'string' && /^http:\/\//i.test(item.trim()) ? 'only https URLs are downloaded' : `got ${show(item)}`;
        return cx.fail(`each image is a file id (from uploadFiles or getItem) or an https URL; ${why}.`, path);
      });
      // URLs are uploaded, ids checked (attached to one object only) by finishItemFields.
      if (sources.length) cx.plan.uploads.push({ fieldId: cx.info.field_id, sources });
      return sources.map((s) => s.source);
    },
    output: (values) =>
      values
        .map((v) => (isObject(v.value) ? v.value : {}))
        .filter((f) => isId(f.file_id))
        .map((f): FileValue => ({
          file_id: f.file_id as number,
          name: String(f.name ?? ''),
          ...(typeof f.mimetype === 'string' ? { mimetype: f.mimetype } : {}),
          ...(typeof f.size === 'number' ? { size: f.size } : {}),
        })),
    text: (v, o) => (v as FileValue[]).map((f) => (o.verbose ? `${f.name} #${f.file_id}` : f.name)).join(', '),
  },
  embed: {
    expected: () => 'a link URL or an array of them (turned into embeds for you), e.g. "https://www.youtube.com/watch?v=dQw4w9WgXcQ"',
    input: (value, cx) => {
      const urls: { url: string; path: string }[] = [];
      const wire = listOf(value, cx, true).map(({ item, path }) => {
        if (isId(item)) return { embed: item };
        if (typeof item === 'string' && isHttpUrl(item.trim())) {
          urls.push({ url: item.trim(), path });
          return { embed: item.trim() };
        }
        return cx.fail(`each embed is a link URL (http or https), got ${show(item)}.`, path);
      });
      if (urls.length) cx.plan.embeds.push({ fieldId: cx.info.field_id, urls });
      return wire;
    },
    output: (values) =>
      values
        .map((v) => (isObject(v.embed) ? v.embed : {}))
        .filter((e) => isId(e.embed_id))
        .map((e): EmbedValue => {
          const url = String(e.original_url ?? e.url ?? e.resolved_url ?? '');
          return { embed_id: e.embed_id as number, url, ...(typeof e.title === 'string' && e.title ? { title: e.title } : {}) };
        }),
    text: (v, o) => (v as EmbedValue[]).map((e) => (o.verbose && e.title ? `${e.url} "${e.title}"` : e.url)).join(', '),
  },
};
