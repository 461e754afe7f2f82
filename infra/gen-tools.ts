import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Derives what lists the tools from the tools themselves, so adding a tool is one file
 * (`functions/<p>/tools/<group>/<tool>.ts`) plus its test, then `npm run gen`:
 * - each group index `functions/<p>/tools/<group>/index.ts` gets one loader per tool file of its
 *   folder (existing entries keep their order, which is the order of every listing; new files
 *   are appended by name; loaders of deleted files go);
 * - the README's tool tables, between `<!-- tools:<p> -->` and `<!-- /tools:<p> -->`, are
 *   printed from the registry: heading with the count, then tool, kind and the first sentence
 *   of the description.
 * `npm run gen -- --check` only compares, and test/gen-tools.test.ts fails on any difference.
 * The layout convention it relies on is checked by test/registry.test.ts.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOADER = /^\s*(\w+): \(\) => import\('\.\/(\w+)'\)\.then\(\(m\) => m\.(\w+)\),?\s*$/;

/** The index of one group folder, its loader lines derived from the folder's tool files. */
export function groupIndex(dir: string): string {
  const path = join(dir, 'index.ts');
  if (!existsSync(path)) throw new Error(`${path} is missing: write its header (toolGroup call) once, then run npm run gen`);
  const src = readFileSync(path, 'utf8');
  const lines = src.split('\n');
  const open = lines.findIndex((l) => /toolGroup<[^>]*>\('[\w-]+', \{\s*$/.test(l));
  const close = lines.findIndex((l, i) => i > open && /^\}\);\s*$/.test(l));
  if (open < 0 || close < 0) throw new Error(`${path}: no "toolGroup<Client>('<group>', {" … "});" block to fill`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.slice(0, -3));
  const listed = lines
    .slice(open + 1, close)
    .map((l) => LOADER.exec(l)?.[1])
    .filter((k): k is string => k !== undefined);
  const order = [...listed.filter((k) => files.includes(k)), ...files.filter((f) => !listed.includes(f)).sort()];
  const body = order.map((k) => `  ${k}: () => import('./${k}').then((m) => m.${k}),`);
  return [...lines.slice(0, open + 1), ...body, ...lines.slice(close)].join('\n');
}

/** Every group index of every platform: path → expected content. */
export function groupIndexes(root = ROOT): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of readdirSync(join(root, 'functions'))) {
    const tools = join(root, 'functions', p, 'tools');
    if (!existsSync(tools)) continue;
    for (const g of readdirSync(tools, { withFileTypes: true })) {
      if (g.isDirectory()) out.set(join(tools, g.name, 'index.ts'), groupIndex(join(tools, g.name)));
    }
  }
  return out;
}

const kind = (a: { readOnly: boolean; destructive: boolean }) => (a.readOnly ? 'read' : a.destructive ? 'write, destructive' : 'write');

/** The README with every marked tool table printed from the registry. */
export async function readmeTables(readme: string): Promise<string> {
  const [{ createRegistry }, { platforms }] = await Promise.all([import('../shared/core/registry'), import('./local/platforms')]);
  const registry = createRegistry(platforms);
  let out = readme;
  for (const p of platforms) {
    const tools = await registry.list(p);
    const rows = tools.map((t) => {
      const first = t.description.split(/(?<=\.)\s(?=[A-Z])/)[0]!.replace(/\|/g, '\\|');
      return `| \`${t.name}\` | ${kind(t.annotations)} | ${first} |`;
    });
    const table = [`### ${p.name} (${p.vendor}) — ${tools.length} tools`, '', '| tool | kind | what it does |', '|---|---|---|', ...rows].join('\n');
    const start = `<!-- tools:${p.name} -->`;
    const end = `<!-- /tools:${p.name} -->`;
    const a = out.indexOf(start);
    const b = out.indexOf(end);
    if (a < 0 || b < a) throw new Error(`README.md has no "${start}" … "${end}" section for the ${p.name} tools`);
    out = `${out.slice(0, a + start.length)}\n${table}\n${out.slice(b)}`;
  }
  return out;
}

/** Every file the generator owns, with the content it should have. */
export async function expected(root = ROOT): Promise<Map<string, string>> {
  const files = groupIndexes(root);
  const readme = join(root, 'README.md');
  files.set(readme, await readmeTables(readFileSync(readme, 'utf8')));
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [path, content] of await expected()) {
    if (readFileSync(path, 'utf8') === content) continue;
    stale.push(path.slice(ROOT.length));
    if (!check) writeFileSync(path, content);
  }
  console.log(stale.length ? `${check ? 'out of date' : 'rewrote'}: ${stale.join(', ')}` : 'tool indexes and README tables are up to date');
  if (check && stale.length) process.exit(1);
}
