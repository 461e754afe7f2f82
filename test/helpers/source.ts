import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** Every .ts file under `dir` (node_modules left out). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The text of every comment of a TypeScript file, with its 1-based line (and its place, `pos`–`end`). */
export function comments(text: string, fileName = 'x.ts'): { line: number; text: string; pos: number; end: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const seen = new Set<number>();
  const out: { line: number; text: string; pos: number; end: number }[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end), pos: r.pos, end: r.end });
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return out.sort((a, b) => a.line - b.line);
}


/** The code of a TypeScript file with every comment blanked (line breaks kept, so lines keep their numbers). */
export function withoutComments(text: string, fileName = 'x.ts'): string {
  let code = text;
  for (const c of comments(text, fileName)) code = code.slice(0, c.pos) + code.slice(c.pos, c.end).replace(/[^\n]/g, ' ') + code.slice(c.end);
  return code;
}
