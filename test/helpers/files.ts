import { expect } from 'vitest';
import type { harness } from './harness';

type H = Awaited<ReturnType<typeof harness>>;

/**
 * Uploads one file through a platform's uploadFile tool (`tool`, e.g. 'collab/uploadFile', with
 * its other arguments in `args`) and answers the first entry of its `files`.
 */
export async function uploadOne(h: H, tool: string, filename: string, bytes: Uint8Array, args: Record<string, unknown> = {}): Promise<any> {
  const r = await h.call(tool, { ...args, files: [{ filename, content: Buffer.from(bytes).toString('base64') }] }, { query: 'format=json' });
  expect(r.status).toBe(200);
  return r.body.data.files[0];
}

/** The markdown every platform's fileToMarkdown makes of test/collab/files-fixtures.ts `docxFile()`. */
export const REPORT_DOCX_MARKDOWN = [
  '# Quarterly Report',
  'Revenue grew strongly in the northern region this quarter.',
  '## Highlights',
  '- New customers in Hamburg\n- Support tickets halved',
  '| Region | Revenue |\n| --- | --- |\n| North | 1200 |\n| South | 800 |',
  'Prepared by the finance team.',
].join('\n\n');
