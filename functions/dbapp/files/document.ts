import * as z from 'zod';
import { invalidParameter, ToolError } from '../../../shared/core/errors';
import { id } from '../../../shared/core/params';
import { mediaTypeOf, type DocumentSource } from '../../../shared/files/read';
import type { ToolContext } from '../../../shared/core/tool';
import type { TapeClient } from '../client';
import { recordId } from '../records/inputs';

/** The inputs of fileToMarkdown and analyzeFile: Tape serves an attached file only in the context of its record (docs/vendors/tape.md#files). */
const recordFileInput = {
  record_id: recordId,
  file_id: id('Numeric id of the attached file: the file_id of an attachment or image field value in getRecord\'s answer.'),
};

interface Attached {
  id?: unknown;
  filename?: unknown;
  size?: unknown;
  download_url?: unknown;
}

/**
 * A file attached to a Tape record, as fileToMarkdown and analyzeFile read it: found among the
 * record's attachment and image values, then fetched by its `download_url`
 * (docs/vendors/tape.md#fields-and-values), a signed link.
 */
export async function documentSource(recordIdValue: number, fileId: number, { client }: Pick<ToolContext<TapeClient>, 'client'>): Promise<DocumentSource> {
  const record = await client.getRecord(recordIdValue);
  const files = (record.fields ?? []).filter((f) => f.type === 'attachment' || f.type === 'image').flatMap((f) => f.values.map((v) => (v.value ?? {}) as Attached));
  const file = files.find((f) => f.id === fileId);
  if (!file) {
    const ids = files.map((f) => `${String(f.id)} (${String(f.filename)})`);
    throw invalidParameter(
      'file_id',
      ids.length ? `one of the record's file ids: ${ids.join(', ')}` : 'the id of a file attached to the record',
      ids.length
        ? `Record ${recordIdValue} has no attached file ${fileId}; its files: ${ids.join(', ')}.`
        : `Record ${recordIdValue} has no attached files. Attach one with updateRecord (an attachment field takes https URLs or ids from uploadFiles).`,
    );
  }
  const name = typeof file.filename === 'string' ? file.filename : `file-${fileId}`;
  if (typeof file.download_url !== 'string') throw new ToolError('INTERNAL_ERROR', `Tape named no download_url for file ${fileId} of record ${recordIdValue}.`, { upstream_status: 200 });
  const url = file.download_url;
  return {
    parameter: 'file_id',
    label: `File #${fileId}`,
    name,
    mimetype: mediaTypeOf(name),
    ...(typeof file.size === 'number' ? { size: file.size } : {}),
    instead: 'Open it from Tape instead.',
    bytes: () => client.downloadBytes(url),
  };
}

export const recordFileSchema = z.strictObject(recordFileInput);
