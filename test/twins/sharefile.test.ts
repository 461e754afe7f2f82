import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createShareFileTwin, SANDBOX_KEYS, SHAREFILE_DEMO as D } from '../../infra/twins/sharefile';
import { createClock } from '../../infra/twins/kit';
import { zipEntries } from '../helpers/zip';

const API = 'https://acme.sf-api.com/sf/v3';
const auth = (key: string = SANDBOX_KEYS.owner) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function call(twin: ReturnType<typeof createShareFileTwin>, path: string, init: RequestInit & { key?: string } = {}) {
  const res = await twin.fetch(`${API}/${path}`, { ...init, headers: { ...auth(init.key), ...(init.headers ?? {}) } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

describe('ShareFile twin', () => {
  it('is cheap to build', () => {
    createShareFileTwin();
    const started = performance.now();
    for (let i = 0; i < 20; i++) createShareFileTwin();
    expect((performance.now() - started) / 20).toBeLessThan(30);
  });

  it('answers entities and feeds in OData JSON Light: odata.metadata, odata.type, odata.count, odata.nextLink', async () => {
    const twin = createShareFileTwin();
    const one = await call(twin, `Items(${D.folders.contracts})`);
    expect(one.body).toMatchObject({
      'odata.metadata': `${API}/$metadata#Items/ShareFile.Api.Models.Folder@Element`,
      'odata.type': 'ShareFile.Api.Models.Folder',
      Id: D.folders.contracts,
      url: `${API}/Items(${D.folders.contracts})`,
      Parent: { Id: D.folders.oliviaHome },
    });
    const page = await call(twin, `Items(${D.folders.contracts})/Children?$top=1&$orderby=Name&$select=Name`);
    expect(page.body).toMatchObject({ 'odata.metadata': `${API}/$metadata#Items`, 'odata.count': 2, value: [{ 'odata.type': 'ShareFile.Api.Models.File', Name: 'nda-template.docx' }] });
    expect(Object.keys(page.body.value[0]).sort()).toEqual(['Id', 'Name', 'odata.type']);
    expect(page.body['odata.nextLink']).toBe(`${API}/Items(${D.folders.contracts})/Children?%24top=1&%24orderby=Name&%24select=Name&%24skip=1`);
  });

  it('answers errors in ShareFile\'s body {code, message:{lang, value}, reason}, and 401 without a valid bearer token', async () => {
    const twin = createShareFileTwin();
    const missing = await call(twin, 'Items(fo999999-0000)');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NotFound', message: { lang: 'en-US', value: 'Item fo999999-0000 not found.' } });
    const bad = await call(twin, `Items(${D.folders.contracts})/Children?$filter=Name eq`);
    expect(bad.body).toMatchObject({ code: 'BadRequest', message: { value: expect.stringMatching(/Invalid \$filter expression: .* at position 8/) } });
    const anon = await twin.fetch(`${API}/Items`);
    expect(anon.status).toBe(401);
    expect((await call(twin, 'Items', { key: 'nope' })).status).toBe(401);
  });

  it('honours X-Http-Method-Override on POST (PATCH and DELETE)', async () => {
    const twin = createShareFileTwin();
    const patched = await call(twin, `Items(${D.files.nda})`, { method: 'POST', headers: { 'x-http-method-override': 'PATCH' }, body: JSON.stringify({ Name: 'nda.docx' }) });
    expect(patched.body.Name).toBe('nda.docx');
    const deleted = await call(twin, `Items(${D.files.nda})`, { method: 'POST', headers: { 'x-http-method-override': 'DELETE' } });
    expect(deleted.status).toBe(204);
    expect(twin.state.items.get(D.files.nda)!.deleted).toBe(true);
  });

  it('seeds small but real files: a PDF with its xref, a DOCX zip, a PNG whose image data inflates', async () => {
    const twin = createShareFileTwin();
    const bytes = (id: string) => twin.state.items.get(id)!.content!;
    const pdf = bytes(D.files.proposal).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    const xref = Number(/startxref\n(\d+)/.exec(pdf)![1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    expect(pdf).toContain('(Estimated budget: 42,500 USD)');
    const docx = bytes(D.files.scope);
    expect(zipEntries(docx).map((e) => e.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    const png = bytes(D.files.sitePlan);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const idat = png.indexOf('IDAT');
    const len = png.readUInt32BE(idat - 4);
    expect(inflateSync(png.subarray(idat + 4, idat + 4 + len)).length).toBe(16 * (1 + 16 * 3));
  });

  it('serves a DownloadSpecification link without the key until the token expires (the twin\'s clock)', async () => {
    const twin = createShareFileTwin({ clock: createClock(Date.parse('2026-03-10T09:00:00Z')) });
    const spec = await call(twin, `Items(${D.files.offer})/Download?redirect=false`);
    expect(spec.body).toMatchObject({ 'odata.type': 'ShareFile.Api.Models.DownloadSpecification', DownloadToken: expect.any(String) });
    const file = await twin.fetch(spec.body.DownloadUrl);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="offer.pdf"');
    const redirect = await call(twin, `Items(${D.files.offer})/Download`);
    expect(redirect.status).toBe(302);
    twin.clock.advance(16 * 60_000);
    expect((await twin.fetch(spec.body.DownloadUrl)).status).toBe(410);
  });

  it('rate-limits with 429 and Retry-After', async () => {
    const twin = createShareFileTwin({ rateLimit: { limit: 2, windowMs: 60_000 }, clock: createClock(0) });
    await call(twin, 'Users');
    await call(twin, 'Users');
    const over = await call(twin, 'Users');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('60');
    expect(over.body.code).toBe('TooManyRequests');
  });
});

describe('ShareFile twin links', () => {
  it('points share Uris and download links at publicBase when given (the local server\'s mount)', async () => {
    const twin = createShareFileTwin({ publicBase: 'http://127.0.0.1:8787/twins/sharefile/' });
    const share = await call(twin, `Shares(${D.shares.proposalSend})`);
    expect(share.body.Uri).toMatch(/^http:\/\/127\.0\.0\.1:8787\/twins\/sharefile\/share\/view\/a\w+$/);
    const spec = await call(twin, `Items(${D.files.offer})/Download?redirect=false`);
    expect(spec.body.DownloadUrl).toMatch(/^http:\/\/127\.0\.0\.1:8787\/twins\/sharefile\/download\?dt=/);
    // The path part is the twin's own: served through the mount, it answers.
    expect((await twin.fetch(`https://acme.sf-api.com${new URL(spec.body.DownloadUrl).pathname.replace('/twins/sharefile', '')}${new URL(spec.body.DownloadUrl).search}`)).status).toBe(200);
  });
});

describe('ShareFile twin OData ($filter / $orderby, the twin\'s own parser)', () => {
  const names = async (twin: ReturnType<typeof createShareFileTwin>, folder: string, query: Record<string, string>) => {
    const r = await call(twin, `Items(${folder})/Children?${new URLSearchParams(query)}`);
    expect(r.status).toBe(200);
    return r.body.value.map((i: { Name: string }) => i.Name);
  };

  it('evaluates valid filters on the seed: comparisons, and/or/not, functions, isof, datetime and null, orderby lists', async () => {
    // On the seed's reference day, where its dates are as written (infra/twins/kit/seed-day.ts).
    const twin = createShareFileTwin({ clock: createClock(D.today) });
    expect(await names(twin, D.folders.contracts, { $filter: "startswith(Name,'OFFER') eq true" })).toEqual(['offer.pdf']);
    expect(await names(twin, D.folders.contracts, { $filter: "not (endswith(Name,'.pdf') eq true) and FileSizeBytes gt 0" })).toEqual(['nda-template.docx']);
    expect(await names(twin, D.folders.contracts, { $filter: "substringof('TEMPLATE',Name) eq true or Name eq 'offer.pdf'", $orderby: 'Name desc' })).toEqual(['offer.pdf', 'nda-template.docx']);
    expect(await names(twin, D.folders.contracts, { $filter: "Name eq 'O''Brien.pdf'" })).toEqual([]);
    expect(await names(twin, D.folders.oliviaHome, { $filter: "isof('ShareFile.Api.Models.Folder')", $orderby: 'Name' })).toEqual(['Contracts', 'Photos']);
    expect(await names(twin, D.folders.contracts, { $filter: "isof('ShareFile.Api.Models.Item') and Parent/Id eq '" + D.folders.contracts + "'", $orderby: 'Name' })).toEqual(['nda-template.docx', 'offer.pdf']);
    expect(await names(twin, D.folders.ortiz, { $filter: "CreationDate ge datetime'2026-03-06T00:00:00' and Description ne null", $orderby: 'CreationDate desc' })).toEqual(['scope-of-work.docx', 'floor-plan.png']);
    expect(await names(twin, D.folders.ortiz, { $filter: "length(Name) le 12 or tolower(Name) eq 'SCOPE-OF-WORK.DOCX'", $orderby: 'FileSizeBytes asc, Name desc' }).then((n) => n.sort())).toEqual(['proposal.pdf', 'scope-of-work.docx']);
    expect(await names(twin, D.folders.ortiz, { $filter: 'HasPendingDeletion eq false and not IsHidden and FileSizeBytes ge -1.5e3' })).toHaveLength(3);
  });

  it('refuses malformed filters and orderbys with ShareFile\'s error body and the 1-based position', async () => {
    const twin = createShareFileTwin();
    const refused: [option: '$filter' | '$orderby', src: string, message: RegExp][] = [
      ['$filter', "Name eq 'x' and", /ends too early at position 16\.$/],
      ['$filter', "Name eq 'open", /unterminated string at position 9\.$/],
      ['$filter', "Name = 'x'", /unexpected "=" at position 6\.$/],
      ['$filter', 'Name EQ 1', /expected "and", "or" or the end, got "EQ" at position 6\.$/],
      ['$filter', 'Name eq 1 )', /expected "and", "or" or the end, got "\)" at position 11\.$/],
      ['$filter', "(Name eq 'x'", /ends before "\)" at position 13\.$/],
      ['$filter', "foo(Name) eq true", /unknown function "foo" at position 1\.$/],
      ['$filter', "startswith(Name) eq true", /startswith takes 2 arguments, got 1 at position 1\.$/],
      ['$filter', "Name eq 'a' and 'b'", /expected a condition .* at position 17\.$/],
      ['$filter', 'tolower(Name)', /expected a condition .* at position 1\.$/],
      ['$filter', 'isof(Name)', /type name in quotes.* at position 6\.$/],
      ['$filter', "eq 'x'", /"eq" needs an operand before it at position 1\.$/],
      ['$filter', "'a' eq 1", /cannot compare a string with a number at position 5\.$/],
      ['$filter', 'FileSizeBytes gt null', /cannot compare with null .* at position 15\.$/],
      ['$filter', "CreationDate gt datetime'soon'", /not an ISO 8601 date at position 17\.$/],
      ['$filter', 'Size gt 1', /unknown property "Size" at position 1\.$/],
      ['$orderby', 'Name sideways', /expected "," or the end, got "sideways" at position 6\.$/],
      ['$orderby', 'Name,', /a property is missing at position 6\.$/],
      ['$orderby', 'Size desc', /unknown property "Size" at position 1\.$/],
    ];
    for (const [option, src, message] of refused) {
      const r = await call(twin, `Items(${D.folders.contracts})/Children?${new URLSearchParams({ [option]: src })}`);
      expect(r.status, src).toBe(400);
      expect(r.body, src).toEqual({ code: 'BadRequest', message: { lang: 'en-US', value: expect.stringMatching(message) }, reason: 'Invalid request', errorLog: [] });
      expect(r.body.message.value, src).toMatch(new RegExp(`^Invalid \\${option} expression: `));
    }
  });

  it('knows the item properties from its own model: every property an item is rendered with, and no more', async () => {
    const { ITEM_PROPERTIES } = await import('../../infra/twins/sharefile/model');
    const twin = createShareFileTwin();
    const rendered = new Set<string>();
    for (const folder of [D.folders.oliviaHome, D.folders.contracts]) {
      for (const item of (await call(twin, `Items(${folder})/Children`)).body.value) Object.keys(item).forEach((k) => rendered.add(k));
    }
    expect([...ITEM_PROPERTIES].sort()).toEqual([...rendered].filter((k) => k !== 'url' && !k.startsWith('odata.')).sort());
  });

  it('shares no code with the product it judges: nothing under infra/twins/sharefile imports functions/', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(__dirname, '../../infra/twins/sharefile');
    const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(/from\s+['"][^'"]*\/functions\//);
  });
});
