import { encode } from 'gpt-tokenizer';
import { SANDBOX_KEYS, SHAREFILE_DEMO as D, type ShareFileTwin } from '../../infra/twins/sharefile';
import { nextId } from '../../infra/twins/sharefile/state';
import { harness } from '../helpers/harness';
import type { BenchRow } from './rows';
import { hostTokens } from './host-views';

const COUNT = 100;
const EXT = ['pdf', 'docx', 'xlsx', 'png', 'jpg', 'txt'];
const WORDS = ['invoice', 'contract', 'minutes', 'site-photo', 'permit', 'estimate', 'schedule', 'report', 'letter', 'scan'];

/** A folder of 100 children (10 subfolders, 90 files of varied names, sizes and dates), written straight into the twin. */
function seedFolder(twin: ShareFileTwin): string {
  const s = twin.state;
  const folderId = nextId(s, 'folder');
  const day = Date.parse('2026-01-05T09:00:00Z');
  const base = { description: '', creatorId: D.users.olivia, expiration: null, deleted: false, version: 1 };
  s.items.set(folderId, { ...base, id: folderId, kind: 'folder', name: 'Bench', parentId: D.folders.oliviaHome, created: day, edited: day, streamId: `st${folderId}` });
  for (let i = 0; i < COUNT; i++) {
    const folder = i < 10;
    const id = nextId(s, folder ? 'folder' : 'file');
    const when = day + i * 7_200_000;
    const name = folder ? `Project ${String(i + 1).padStart(2, '0')}` : `${WORDS[i % WORDS.length]}-${2026 - (i % 3)}-${String(i).padStart(3, '0')}.${EXT[i % EXT.length]}`;
    s.items.set(id, { ...base, id, kind: folder ? 'folder' : 'file', name, parentId: folderId, created: when, edited: when, streamId: `st${id}`, ...(folder ? {} : { content: Buffer.alloc(1_000 + ((i * 7_919) % 900_000)) }) });
  }
  return folderId;
}

/** Tokens of listChildren's default text for 100 items against ShareFile's raw feed JSON of the same page. */
export async function measureFileboxTokens() {
  const h = await harness({ env: { RATE_LIMIT_MAX: '100000000' } });
  const twin = h.twin<ShareFileTwin>('filebox');
  const folderId = seedFolder(twin);
  const params = { folder_id: folderId, top: COUNT };
  const text = await h.call('filebox/listChildren', params);
  if (text.status !== 200) throw new Error(`listChildren failed: ${text.text.slice(0, 300)}`);
  const raw = await twin.fetch(`https://acme.sf-api.com/sf/v3/Items(${folderId})/Children?$top=${COUNT}`, { headers: { authorization: `Bearer ${SANDBOX_KEYS.owner}` } });
  const rawText = await raw.text();
  const feed = JSON.parse(rawText) as { value: { 'odata.type': string; Id: string; Name: string; CreationDate: string; FileCount?: number }[] };
  const shown = text.body.data as string;
  // What a reader needs of each entry (the line format): a folder's id, name and file count; a
  // file's id, name and date (its size is rendered, e.g. "240 KB").
  const missing = feed.value
    .flatMap((i) => (/Folder$/.test(i['odata.type']) ? [i.Id, `${i.Name}/ (${i.FileCount} file`] : [i.Id, i.Name, i.CreationDate.slice(0, 10)]))
    .filter((v) => !shown.includes(v));
  const textTokens = encode(shown).length;
  const rawTokens = encode(rawText).length;
  return { items: feed.value.length, textTokens, rawTokens, ratio: rawTokens / textTokens, missing, hosts: await hostTokens(h, 'filebox/listChildren', params) };
}

export async function benchRows(): Promise<BenchRow[]> {
  const t = await measureFileboxTokens();
  if (t.missing.length) throw new Error(`listChildren text lacks ${t.missing.length} listed values, e.g. ${t.missing.slice(0, 3).join(', ')}`);
  return [
    {
      figure: `filebox listChildren text, ${t.items} items: tokens vs ShareFile raw feed JSON`,
      value: Math.round(t.ratio * 10) / 10,
      unit: '×',
      goal: 3,
      better: 'higher',
      detail: `${t.textTokens.toLocaleString('en-US')} vs ${t.rawTokens.toLocaleString('en-US')} tokens; every id and name shown, with folders' file counts and files' sizes and dates`,
    },
  ];
}
