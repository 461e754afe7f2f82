import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { expect, it } from 'vitest';
import { outputSchemaFiles } from '../../infra/output-schemas';

/**
 * The committed shared/catalog/output/<platform>.json are what infra/output-schemas.ts makes from
 * the tools' result types now: a changed result type without `npm run schemas` fails here.
 */
it('the committed output schemas are up to date with the result types (npm run schemas)', async () => {
  const files = await outputSchemaFiles();
  expect(Object.keys(files).length).toBe(5);
  for (const [file, content] of Object.entries(files)) {
    const committed = await readFile(file, 'utf8').catch(() => '(missing)');
    expect(committed === content, `${relative(process.cwd(), file)} is stale: run npm run schemas`).toBe(true);
  }
}, 600_000);
