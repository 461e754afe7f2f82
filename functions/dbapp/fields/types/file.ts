import { isId, isObject, show } from '../../../../shared/fields/engine';
import { byteSize } from '../../../../shared/core/render';
import type { TapeEntry } from '../entry';
import { TEXT_OPS } from './text';
import { SINGLE, elementPath, listOf, shaped } from './common';

/** single_attachment, multi_attachment, multi_image: file ids or https URLs (uploaded by finishFields); output [{file_id, name, size, download_url}]. */

function file(single: boolean): TapeEntry {
  return {
    expected: () => `an array of file ids or https URLs${single ? ' (at most one)' : ''} (URLs are uploaded), e.g. ["https://example.com/report.pdf"]`,
    input: (value, cx) => {
      const list = listOf(value, cx).map((item, i) => {
        const ok = isId(item) || (typeof item === 'string' && item.trim() !== '');
        if (!ok) cx.fail(`each entry must be a file id or an https URL, got ${show(item)}.`, elementPath(cx, value, i));
        return item as string | number;
      });
      // Resolved by finishFields (URLs uploaded); the array path names each element in errors.
      cx.plan.uploads.push({ fieldId: cx.field.field_id, values: list, path: cx.path, single: SINGLE.has(cx.field.field_type) });
      return shaped(cx.field, list);
    },
    output: (values) =>
      values.map((v) => {
        const f = isObject(v.value) ? v.value : {};
        // Tape's download_url is a signed link that works without the key (the twin's points at its mount on the local server).
        return { file_id: f.id as number, name: String(f.filename ?? ''), size: Number(f.size ?? 0), download_url: typeof f.download_url === 'string' ? f.download_url : null };
      }),
    text: (v, o) => (v as { file_id: number; name: string; size: number }[]).map((a) => (o.verbose ? `${a.name} #${a.file_id} (${byteSize(a.size)})` : a.name)).join(', '),
    filter: { type: 'file', match_types: TEXT_OPS, operand: 'file_name' },
  };
}

export const FILE_TYPES: Record<string, TapeEntry> = {
  single_attachment: file(true),
  multi_attachment: file(false),
  multi_image: file(false),
};
