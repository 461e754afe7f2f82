import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from './helpers/harness';

/**
 * A mistaken parameter gets the sentence that fixes it, first in the message, where an agent reads
 * (not only inside details.errors): a near miss of a required key names the key meant; names given
 * beside the parameter that holds them (a CRM object's `values`, a record's `fields`) are told to go
 * inside it; a bare value where a list of files goes is told the list's shape. Through HTTP, on
 * every platform that has the mistake; nothing reaches the vendor.
 */
let h: Awaited<ReturnType<typeof harness>>;
beforeAll(async () => {
  h = await harness();
});

const CASES: [string, string, Record<string, unknown>, string[]][] = [
  // A near miss of a missing required key: "did you mean" leads.
  ['dbapp/uploadFiles', 'file for files', { file: [{ filename: 'a.txt', content: 'aGk=' }] }, ['Parameter "files" is required and "file" is not a parameter: did you mean "files"?']],
  ['collab/uploadFile', 'file for files', { file: [{ filename: 'a.txt', content: 'aGk=' }] }, ['did you mean "files"?']],
  ['filebox/uploadFile', 'file for files', { folder_id: 'home', file: [{ filename: 'a.txt', content: 'aGk=' }] }, ['did you mean "files"?']],
  ['crm/createContact', 'value for values', { value: { email: 'a@b.test' } }, ['did you mean "values"?']],
  ['dbapp/createRecord', 'field for fields', { app_id: 1, field: { title: 'x' } }, ['did you mean "fields"?']],
  // Names beside the parameter that holds them.
  ['crm/createContact', 'properties at the top level', { email: 'ada@example.test', firstname: 'Ada' }, ['"email", "firstname" are not parameters of this tool: put them inside "values"']],
  ['crm/updateDeal', 'a property at the top level', { deal_id: '123', amount: 5000 }, ['"amount" is not a parameter of this tool: put it inside "values"']],
  ['crm/createCompany', 'properties at the top level', { name: 'Acme', domain: 'acme.test' }, ['put them inside "values"', '"name", "domain"']],
  ['dbapp/createRecord', 'fields outside fields', { app_id: 1, title: 'Deal', amount: 5 }, ['"title", "amount" are not parameters of this tool: put them inside "fields"']],
  ['dbapp/updateRecord', 'a field outside fields', { record_id: 1, status: 'Won' }, ['"status" is not a parameter of this tool: put it inside "fields"']],
  // A bare string where a list of files goes.
  ['dbapp/uploadFiles', 'a bare string for files', { files: 'report.pdf' }, ['"files": must be an array, got "report.pdf": give a list of objects, each {filename', 'even for one']],
  ['collab/uploadFile', 'a bare string for files', { files: 'report.pdf' }, ['give a list of objects, each {filename']],
  ['filebox/uploadFile', 'a bare string for files', { folder_id: 'home', files: 'https://example.test/a.pdf' }, ['give a list of objects, each {filename']],
];

describe('the next step after a wrong parameter', () => {
  it.each(CASES)('%s, %s: the message says the fix first', async (tool, _case, params, phrases) => {
    const sent = h.recordRequests(tool.split('/')[0]!);
    const { status, body } = await h.call(tool, params);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.error.code).toBe('INVALID_PARAMETER');
    for (const phrase of phrases) expect(body.error.message).toContain(phrase);
    // The fix is the first sentence, not a problem listed after another.
    expect(body.error.message.indexOf(phrases[0]!), body.error.message).toBeLessThan(120);
    expect(sent).toEqual([]);
  });

  it('still lists every other problem of the request after the fix', async () => {
    const { body } = await h.call('crm/createContact', { email: 'ada@example.test', limt: 3, vlaues: 1 });
    expect(body.error.message).toMatch(/^"email", "limt" are not parameters|^Parameter "values" is required and "vlaues"/);
  });
});
