import { createRegistry } from '../shared/registry';
import { platforms } from './local/platforms';

/**
 * Prints the README's tool tables from the registry: one row per tool with its annotations and
 * the first sentence of its description. `npx tsx infra/tool-list.ts` after adding tools.
 */
const flag = (a: { readOnly: boolean; destructive: boolean }) => (a.readOnly ? 'read' : a.destructive ? 'write, destructive' : 'write');
const registry = createRegistry(platforms);
for (const p of platforms) {
  const tools = await registry.list(p);
  console.log(`### ${p.name} (${p.vendor}) — ${tools.length} tools\n`);
  console.log('| tool | kind | what it does |\n|---|---|---|');
  for (const t of tools) {
    const first = t.description.split(/(?<=\.)\s(?=[A-Z])/)[0]!.replace(/\|/g, '\\|');
    console.log(`| \`${t.name}\` | ${flag(t.annotations)} | ${first} |`);
  }
  console.log('');
}
