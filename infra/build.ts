import { build } from 'esbuild';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

export interface BundleInfo {
  name: string;
  file: string;
  bytes: number;
  gzipBytes: number;
}

const root = new URL('..', import.meta.url).pathname;

/** Platforms = folders of functions/ that have a handler.ts. */
export async function functionNames(): Promise<string[]> {
  const dirs = await readdir(join(root, 'functions'), { withFileTypes: true });
  const names: string[] = [];
  for (const d of dirs) {
    if (!d.isDirectory()) continue;
    if (await stat(join(root, 'functions', d.name, 'handler.ts')).catch(() => undefined)) names.push(d.name);
  }
  return names.sort();
}

/**
 * One minified CommonJS file per function: dist/<name>/handler.js. The AWS SDK stays external:
 * the nodejs20.x runtime provides it, and CommonJS `require` finds it there.
 */
export async function buildAll(outDir = join(root, 'dist')): Promise<BundleInfo[]> {
  const infos: BundleInfo[] = [];
  for (const name of await functionNames()) {
    const dir = join(outDir, name);
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'handler.js');
    await build({
      entryPoints: [join(root, 'functions', name, 'handler.ts')],
      outfile: file,
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      external: ['@aws-sdk/*'],
      // Lazy `import('@aws-sdk/…')` must become `require`: a native import() resolves as ESM,
      // which ignores NODE_PATH, so it would not find the runtime's SDK from /var/task.
      supported: { 'dynamic-import': false },
      legalComments: 'none',
      logLevel: 'warning',
    });
    // The repo is "type": "module"; this marks the bundle as CommonJS wherever it is loaded.
    await writeFile(join(dir, 'package.json'), '{"type":"commonjs"}\n');
    const code = await readFile(file);
    infos.push({ name, file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length });
  }
  return infos;
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const infos = await buildAll();
  for (const i of infos) console.log(`${i.name.padEnd(10)} ${String(i.bytes).padStart(9)} B  ${String(i.gzipBytes).padStart(8)} B gzip  ${i.file.replace(root, '')}`);
}
