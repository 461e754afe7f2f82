import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * shared/'s folders are layers, and imports only run down them: the order is the table of
 * docs/architecture.md#layers, read from there, and every import of shared/ (static, dynamic,
 * type-only and re-exports) is checked against it. Platforms stand beside each other over
 * shared/ and never import each other or the twins; shared/ never imports functions/ or infra/.
 */

const ROOT = join(__dirname, '..');

/** The layers, top first, as docs/architecture.md#layers lists them (one row per layer). */
function layerOrder(): string[][] {
  const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.split(/^## Layers\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*\d+\s*\|\s*([^|]+)\|/gm)].map((m) => [...m[1]!.matchAll(/`([\w-]+)\/`/g)].map((n) => n[1]!));
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.tsx?$/.test(path)) out.push(path);
  }
  return out;
}

/** Every module specifier a file imports (static, type-only, dynamic, re-exported). */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) out.push(node.arguments[0].text);
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) out.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The file a relative specifier names (file, .ts, or folder index). */
function target(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

/** The first path segment under `root`, or undefined for a file directly in it. */
function topFolder(root: string, file: string): string | undefined {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

describe('layers', () => {
  const order = layerOrder();
  const rank = new Map(order.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const shared = join(ROOT, 'shared');

  it('docs/architecture.md lists every folder of shared/ exactly once, and nothing else', () => {
    const folders = readdirSync(shared).filter((e) => statSync(join(shared, e)).isDirectory()).sort();
    expect(order.flat().sort()).toEqual(folders);
    expect(readdirSync(shared).filter((e) => !statSync(join(shared, e)).isDirectory())).toEqual([]);
  });

  it('every import in shared/ stays in its folder or runs down the layers', () => {
    const upward: string[] = [];
    for (const file of files(shared)) {
      const from = topFolder(shared, file)!;
      for (const spec of specifiers(file)) {
        if (!spec.startsWith('.')) continue;
        const to = target(file, spec);
        expect(to, `${relative(ROOT, file)} imports ${spec}, which does not exist`).toBeDefined();
        if (!to!.startsWith(shared + sep)) {
          upward.push(`${relative(ROOT, file)} → ${relative(ROOT, to!)} (outside shared/)`);
          continue;
        }
        const into = topFolder(shared, to!)!;
        if (into !== from && rank.get(into)! <= rank.get(from)!) upward.push(`${relative(ROOT, file)} (${from}/) → ${relative(ROOT, to!)} (${into}/)`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('a platform imports only itself and shared/, never another platform or a twin', () => {
    const functions = join(ROOT, 'functions');
    const stray: string[] = [];
    for (const file of files(functions)) {
      const own = topFolder(functions, file) ?? relative(functions, file);
      for (const spec of specifiers(file)) {
        if (!spec.startsWith('.')) continue;
        const to = target(file, spec) ?? resolve(dirname(file), spec);
        const inOwn = to.startsWith(join(functions, own) + sep) || to === join(functions, own);
        // functions/platforms.ts is the registry: it gathers the platforms' descriptors, and the
        // combined and identity functions take the list from it.
        const descriptor = (own === 'platforms.ts' && /functions[\\/]\w+[\\/]index\.ts$/.test(to)) || ((own === 'mcp' || own === 'identity') && to === join(functions, 'platforms.ts'));
        if (!inOwn && !descriptor && !to.startsWith(shared + sep)) stray.push(`${relative(ROOT, file)} → ${relative(ROOT, to)}`);
      }
    }
    expect(stray).toEqual([]);
  });
});
