import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What serverless.yml deploys, read from the file itself (not copied), so the bench runs every
 * function the way Lambda does: provider.environment and the memory size. CloudFormation
 * references (`!Ref StoreTable`) take the value the bench gives for that resource; `${env:NAME,
 * 'default'}` takes the deployer's variable when set, else the default, as osls resolves it.
 */
const file = fileURLToPath(new URL('../../serverless.yml', import.meta.url));

/** The `key: value` lines directly under `provider:` → `<section>:` (two-space YAML, as the file is written). */
function providerSection(text: string, section: string): Map<string, string> {
  const out = new Map<string, string>();
  const lines = text.split('\n');
  let inProvider = false;
  let inSection = false;
  for (const line of lines) {
    if (/^\S/.test(line)) {
      inProvider = line.startsWith('provider:');
      inSection = false;
      continue;
    }
    if (!inProvider) continue;
    const top = /^ {2}(\w+):\s*(.*)$/.exec(line);
    if (top) {
      inSection = top[1] === section;
      if (section === '' || !inSection) out.set(`.${top[1]}`, top[2]!.replace(/\s+#.*$/, '').trim());
      continue;
    }
    const entry = inSection ? /^ {4}([A-Z0-9_]+):\s*(.*?)\s*(?:#.*)?$/.exec(line) : null;
    if (entry) out.set(entry[1]!, entry[2]!);
  }
  return out;
}

function resolveValue(raw: string, refs: Record<string, string>, env: NodeJS.ProcessEnv): string {
  const ref = /^!Ref\s+(\w+)$/.exec(raw);
  if (ref) {
    const value = refs[ref[1]!];
    if (value === undefined) throw new Error(`serverless.yml: the bench has no value for !Ref ${ref[1]}`);
    return value;
  }
  // CloudFormation attributes and substitutions (the API's URL, the vault key's ARN) exist only once
  // deployed: the bench stands in an address of its own for them, from refs when given.
  const att = /^!GetAtt\s+([\w.]+)$/.exec(raw);
  if (att) return refs[att[1]!] ?? `bench-${att[1]!.replace(/\W/g, '-').toLowerCase()}`;
  const sub = /^!Sub\s+'([^']*)'$/.exec(raw);
  if (sub) return sub[1]!.replace(/\$\{([\w:.]+)\}/g, (_, name: string) => refs[name] ?? name.replace(/\W/g, '-').toLowerCase());
  const variable = /^\$\{env:(\w+),\s*'([^']*)'\}$/.exec(raw);
  if (variable) return env[variable[1]!] ?? variable[2]!;
  // SSM parameter names under the service and stage: named for a stage of the bench's own.
  raw = raw.replace(/\$\{self:service\}/g, 'tool-execution-service').replace(/\$\{sls:stage\}/g, 'bench');
  if (raw.includes('${')) throw new Error(`serverless.yml: the bench cannot resolve ${raw}`);
  return raw.replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
}

/** provider.environment with its references resolved; empty values left out (osls sets none for them either: unset = each platform's default). */
export function deployedEnvironment(refs: Record<string, string>, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const text = readFileSync(file, 'utf8');
  const out: Record<string, string> = {};
  for (const [name, raw] of providerSection(text, 'environment')) {
    if (name.startsWith('.')) continue;
    const value = resolveValue(raw, refs, env);
    if (value !== '') out[name] = value;
  }
  if (Object.keys(out).length === 0) throw new Error('serverless.yml: no provider.environment found');
  return out;
}

/** provider.memorySize and provider.architecture. */
export function deployedFunction(): { memoryMb: number; architecture: string } {
  const top = providerSection(readFileSync(file, 'utf8'), '');
  const memoryMb = Number(top.get('.memorySize'));
  const architecture = top.get('.architecture') ?? '';
  if (!Number.isInteger(memoryMb) || !architecture) throw new Error('serverless.yml: provider.memorySize / architecture not found');
  return { memoryMb, architecture };
}
