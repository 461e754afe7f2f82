import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expected, groupIndex, readmeTables } from '../infra/gen-tools';

const root = new URL('..', import.meta.url).pathname;

describe('generated tool lists (npm run gen)', async () => {
  const files = await expected();

  it.each([...files.keys()].map((p) => [p.slice(root.length)]))('%s agrees with the registry and the tool files', (rel) => {
    const path = join(root, rel);
    expect(readFileSync(path, 'utf8'), `run npm run gen: ${rel} is out of date`).toBe(files.get(path));
  });

  it('adds a new tool file to its group index and drops the loader of a deleted one, keeping the order of the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gen-tools-'));
    try {
      cpSync(join(root, 'functions/filebox/tools/access'), dir, { recursive: true });
      rmSync(join(dir, 'createAccessControl.ts'));
      writeFileSync(join(dir, 'aNewTool.ts'), 'export const aNewTool = {};\n');
      const before = readFileSync(join(dir, 'index.ts'), 'utf8');
      const keys = (s: string) => [...s.matchAll(/^ {2}(\w+): \(\) => import/gm)].map((m) => m[1]);
      const after = groupIndex(dir);
      expect(keys(after)).toEqual([...keys(before).filter((k) => k !== 'createAccessControl'), 'aNewTool']);
      expect(after).toContain("aNewTool: () => import('./aNewTool').then((m) => m.aNewTool),");
      expect(after.split('\n').slice(0, 4)).toEqual(before.split('\n').slice(0, 4));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rewrites a stale README table between its markers and leaves the prose around it', async () => {
    const stale = ['intro', '<!-- tools:realty -->', '### realty (BatchData) — 1 tools', '| old |', '<!-- /tools:realty -->', 'after'].join('\n');
    const others = ['dbapp', 'collab', 'filebox', 'crm'].map((p) => `<!-- tools:${p} -->\n<!-- /tools:${p} -->`).join('\n');
    const out = await readmeTables(`${stale}\n${others}`);
    expect(out.startsWith('intro\n<!-- tools:realty -->\n### realty (BatchData) — 3 tools\n\n| tool | kind | what it does |')).toBe(true);
    expect(out).toContain('| `lookupProperty` | read | ');
    expect(out).not.toContain('| old |');
    expect(out).toContain('<!-- /tools:realty -->\nafter');
  });

  it('names the missing markers of a platform', async () => {
    await expect(readmeTables('no markers')).rejects.toThrow(/<!-- tools:\w+ -->/);
  });
});
