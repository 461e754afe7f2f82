import * as z from 'zod';
import { numericId } from '../../../../shared/core/ids';
import { invalidParameter, ToolError } from '../../../../shared/core/errors';
import { plural } from '../../../../shared/core/render';
import { collabTool } from '../../tool';
import { silentInput } from '../../params';
import { alreadyAttached, explainAttachError } from '../../files/attach';
import { entrySources, fileEntriesInput } from '../../../../shared/files/entries';
import { contextText, toFile } from '../../files/render';
import { attachToInput, checkTarget } from '../../files/target';
import { uploadSources } from '../../files/uploads';

interface UploadedFile {
  file_id: number;
  filename: string;
  status: 'attached' | 'failed';
  /** Why a file uploaded (or given) could not be attached; it stays unattached for a few hours. */
  error?: string;
}

interface Result {
  attached_to: { ref_type: string; ref_id: number };
  files: UploadedFile[];
}

export const uploadFiles = collabTool({
  name: 'uploadFiles',
  description:
    'Upload files and attach them to an existing item, comment or space in one call. files: each a filename plus exactly one of url (an https link the service ' +
    'downloads; public hosts, at most 25 MB) or content (base64). existing_file_ids: numeric ids of files already uploaded and still unattached (uploadFile). ' +
    'Give files, existing_file_ids or both. The target and every existing id are checked before anything is uploaded; an attached id is refused (copyFile it first). ' +
    'Returns {attached_to, files: [{file_id, filename, status}]}; a file that could not be attached is listed as failed with its id, to attach later with attachFile.',
  input: z.strictObject({
    attach_to: attachToInput,
    files: fileEntriesInput(20).optional().describe('New files, 1-20: each {filename, url} or {filename, content}.'),
    existing_file_ids: z.array(numericId()).min(1).max(50).optional().describe('Numeric ids of unattached files uploaded earlier (uploadFile).'),
    silent: silentInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ attach_to, files, existing_file_ids, silent }, ctx): Promise<Result> {
    if (!files?.length && !existing_file_ids?.length) {
      throw invalidParameter('files', 'files or existing_file_ids', 'Give "files" (new files: filename plus url or content) or "existing_file_ids" (unattached file ids from uploadFile), or both.');
    }
    const sources = entrySources(files ?? [], 'files');
    await checkTarget(attach_to, ctx);
    const existing = await Promise.all((existing_file_ids ?? []).map((id) => ctx.client.getFile(id)));
    existing.forEach((f, i) => {
      if (f.context) throw alreadyAttached(f.file_id, `existing_file_ids.${i}`, contextText(toFile(f).context));
    });
    const uploaded = await uploadSources(sources, ctx);
    const out: UploadedFile[] = [];
    for (const f of [...existing, ...uploaded]) {
      try {
        await ctx.client.attachFile(f.file_id, attach_to, { silent });
        out.push({ file_id: f.file_id, filename: f.name, status: 'attached' });
      } catch (err) {
        // The others are attached already: report this one (it stays unattached for a few hours) rather than lose the rest.
        const e = explainAttachError(err, f.file_id, 'existing_file_ids');
        out.push({ file_id: f.file_id, filename: f.name, status: 'failed', error: e instanceof ToolError ? `${e.code}: ${e.message}` : 'unexpected error' });
      }
    }
    return { attached_to: { ref_type: attach_to.ref_type, ref_id: attach_to.ref_id }, files: out };
  },
  text: (r: Result) => {
    const ok = r.files.filter((f) => f.status === 'attached').length;
    return [
      ...r.files.map((f) => `#${f.file_id} ${f.filename} ${f.status}${f.error ? ` — ${f.error}` : ''}`),
      `attached ${plural(ok, 'file')} to ${r.attached_to.ref_type} #${r.attached_to.ref_id}${ok < r.files.length ? `; ${r.files.length - ok} failed (retry with attachFile)` : ''}`,
    ].join('\n');
  },
  example: {
    input: { attach_to: { ref_type: 'item', ref_id: 30061 }, files: [{ filename: 'offer.pdf', url: 'https://example.com/offers/northwind.pdf' }], existing_file_ids: [60016] },
    result: {
      attached_to: { ref_type: 'item', ref_id: 30061 },
      files: [
        { file_id: 60016, filename: 'notes.txt', status: 'attached' },
        { file_id: 60017, filename: 'offer.pdf', status: 'attached' },
      ],
    },
  },
});
