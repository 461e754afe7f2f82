import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `npm run bench` (test/bench/run.ts) imports every module beside it to collect their benchRows()
 * in one process, so importing one must change nothing the later ones see: a module that set a
 * <PLATFORM>_BASE_URL in process.env once sent the soak's realty calls to a vendor process it had
 * already stopped (every one of them an INTERNAL_ERROR).
 */
const dir = fileURLToPath(new URL('./bench/', import.meta.url));
/** The entry scripts package.json runs (`npm run bench`, `bench:cold`, …): each runs its bench when loaded, none is imported by another. */
const scripts = Object.values((JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts).join(' ');
const entries = new Set([...scripts.matchAll(/test\/bench\/([\w.-]+\.ts)/g)].map((m) => m[1]!));
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !entries.has(f)).sort();

describe('bench modules imported by run.ts', () => {
  it('finds the modules run.ts scans, and leaves out the entry scripts', () => {
    expect([...entries]).toEqual(expect.arrayContaining(['run.ts', 'cold-run.ts']));
    expect(modules).toContain('soak.ts');
    expect(modules).toContain('mcp-first-list.ts');
  });

  it.each(modules)('%s leaves the environment as it found it', async (file) => {
    const before = { ...process.env };
    await import(/* @vite-ignore */ pathToFileURL(`${dir}${file}`).href);
    expect({ ...process.env }).toEqual(before);
  }, 60_000);
});
