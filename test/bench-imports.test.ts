import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `npm run bench` (test/bench/run.ts) imports every module beside it to collect their benchRows()
 * in one process, so importing one must change nothing the later ones see: a module that set a
 * <PLATFORM>_BASE_URL in process.env once sent the soak's realty calls to a vendor process it had
 * already stopped (every one of them an INTERNAL_ERROR).
 */
const dir = fileURLToPath(new URL('./bench/', import.meta.url));
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'run.ts').sort();

describe('bench modules imported by run.ts', () => {
  it('finds the modules run.ts scans', () => {
    expect(modules).toContain('soak.ts');
    expect(modules).toContain('mcp-first-list.ts');
  });

  it.each(modules)('%s leaves the environment as it found it', async (file) => {
    const before = { ...process.env };
    await import(/* @vite-ignore */ pathToFileURL(`${dir}${file}`).href);
    expect({ ...process.env }).toEqual(before);
  }, 60_000);
});
