import { pathToFileURL } from 'node:url';

/**
 * Runs a bench script's `main` only when that module is the script started (`npm run bench:cold`,
 * `npx tsx test/bench/warm-run.ts`): `npm run bench` (run.ts) imports every module beside it, and
 * an import must change nothing. A failure is printed and makes the exit code 1.
 */
export async function runWhenStarted(moduleUrl: string, name: string, main: () => Promise<void>): Promise<void> {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  try {
    await main();
  } catch (err) {
    console.error(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  }
}
