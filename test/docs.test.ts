import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { comments, sourceFiles } from './helpers/source';
import { platforms } from '../functions/platforms';

/**
 * Every reference in a code comment can be followed from a clone: comments cite files of the
 * repository (docs/… with a section that exists) or public URLs — never the specification's or a
 * vendor's documents kept elsewhere, the design guide, or issue numbers (docs/layout.md#names).
 */

const ROOT = join(__dirname, '..');
const SOURCE_DIRS = ['functions', 'shared', 'infra', 'test'];

/** Citations of documents that are not in the repository. */
const OUTSIDE = [
  { pattern: /(?<!docs\/vendors\/)\b(podio|sharefile|batchdata|hubspot|tape|NOTES)\.md/, what: 'a vendor notes file outside the repository (cite docs/vendors/<vendor>.md)' },
  { pattern: /vendor-docs/, what: 'the vendor-docs folder outside the repository' },
  { pattern: /\.\.\/shared\//, what: 'a path outside the repository' },
  { pattern: /[\w-]+\/\*\.md|\.md\*/, what: 'a set of documents outside the repository (cite the docs/ section)' },
  { pattern: /spec §|spec [0-9]{3}|(?<!RFC \d+\b[^()]{0,60})§ ?\d/, what: 'a section of the specification (cite docs/spec.md#<section>)' },
  { pattern: /DESIGN/, what: 'the design guide (cite docs/architecture.md or docs/layout.md)' },
  { pattern: /\b[Ii]ssue [0-9]+/, what: 'an issue number (they belong in commit messages)' },
];

/** A `.md` file named in a comment: a path with at least one letter before `.md`, optionally `#anchor`. */
const MD_REF = /(?<![\w./-])((?:[\w.-]+\/)*[\w.-]*[A-Za-z][\w.-]*\.md)(#[\w-]+)?/g;

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (!found) {
    found = new Set(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => slug(l.replace(/^#+ /, ''))),
    );
    anchorsOf.set(file, found);
  }
  return found;
}

/** Problems of one comment of `file` (a path under ROOT): each a sentence naming the citation. */
export function problems(comment: string, file: string): string[] {
  const out: string[] = [];
  for (const { pattern, what } of OUTSIDE) {
    const m = pattern.exec(comment);
    if (m) out.push(`"${m[0]}" cites ${what}`);
  }
  for (const m of comment.matchAll(MD_REF)) {
    const [, path, anchor] = m;
    const candidates = [join(ROOT, path!), join(dirname(file), path!)];
    const target = candidates.find((c) => existsSync(c));
    if (!target) {
      out.push(`"${path}" is not a file of the repository (cite docs/… or a public URL)`);
      continue;
    }
    if (anchor && !anchors(target).has(anchor.slice(1))) out.push(`"${path}${anchor}": ${relative(ROOT, target)} has no section "${anchor.slice(1)}"`);
  }
  return out;
}

describe('docs: references in code comments', () => {
  it('finds the comments of a file, and only them', () => {
    const found = comments(['// one', 'const a = "// not a comment";', '/** two', ' * lines */', 'const b = `/* nor this */`; // three'].join('\n'));
    expect(found.map((c) => c.line)).toEqual([1, 3, 5]);
    expect(found.map((c) => c.text)).toEqual(['// one', '/** two\n * lines */', '// three']);
  });

  it('flags citations of documents outside the repository, and docs/ pages or sections that do not exist', () => {
    const file = join(ROOT, 'functions/collab/client.ts');
    for (const bad of ['// podio.md §1', '// see vendor-docs/tape', '// spec §2.3', '// DESIGN §5', '// issue 13', '// Issue 22: x', '// the spec (§2.4)', '// record.md "Create"', '// field-value/*.md', '// docs/vendors/nowhere.md', '// docs/vendors/podio.md#no-such-section']) {
      expect(problems(bad, file), bad).not.toEqual([]);
    }
    for (const good of ['// docs/vendors/podio.md#rate-limits', '// docs/spec.md#errors', '// https://developers.podio.com/doc/items', '// shared/vendor/upstream.ts retries it', '// RFC 7493 §2.3', '// (RFC 6749 §4.1.3 code, §6 refresh)']) {
      expect(problems(good, file), good).toEqual([]);
    }
  });

  it('every comment under functions/, shared/, infra/ and test/ cites only the repository or public URLs', () => {
    const found: string[] = [];
    for (const dir of SOURCE_DIRS) {
      for (const file of sourceFiles(join(ROOT, dir))) {
        for (const c of comments(readFileSync(file, 'utf8'), file)) {
          for (const p of problems(c.text, file)) found.push(`${relative(ROOT, file)}:${c.line}: ${p}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('docs/, the README and the twins\' READMEs link only to files and sections that exist', () => {
    const found: string[] = [];
    const pages = (dir: string): string[] => readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? pages(join(dir, e)) : e.endsWith('.md') ? [join(dir, e)] : []));
    const twinReadmes = readdirSync(join(ROOT, 'infra/twins')).map((t) => join(ROOT, 'infra/twins', t, 'README.md')).filter((p) => existsSync(p));
    for (const page of [...pages(join(ROOT, 'docs')), join(ROOT, 'README.md'), ...twinReadmes]) {
      for (const m of readFileSync(page, 'utf8').matchAll(/\]\(((?![a-z][a-z0-9+.-]*:)[^)#\s]*)(#[^)\s]+)?\)/g)) {
        const [, path, anchor] = m;
        const target = path ? join(dirname(page), path) : page;
        if (!existsSync(target)) found.push(`${relative(ROOT, page)}: ${path} does not exist`);
        else if (anchor && target.endsWith('.md') && !anchors(target).has(anchor.slice(1))) found.push(`${relative(ROOT, page)}: ${path}${anchor} has no such section`);
      }
    }
    expect(found).toEqual([]);
  });

  it('every repository path docs/ and the README name in backticks exists', () => {
    const missing: string[] = [];
    const pages = [...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f)), join(ROOT, 'README.md')];
    for (const page of pages) {
      const paths = repositoryPaths(readFileSync(page, 'utf8'), platforms.map((p) => p.name));
      for (const path of paths) if (!existsSync(join(ROOT, path))) missing.push(`${relative(ROOT, page)}: \`${path}\``);
    }
    expect(missing).toEqual([]);
    expect(repositoryPaths('`shared/core/execute.ts#x` `functions/<p>/index.ts` `collab/apps/lookups.ts:3` `npm test`', ['collab'])).toEqual(['shared/core/execute.ts', 'functions/collab/apps/lookups.ts']);
  });
});

/**
 * The repository paths a Markdown page names in backticks: under one of the top folders, or under
 * a platform's folder by its name (`collab/apps/lookups.ts` is functions/collab/apps/lookups.ts);
 * none with a placeholder (`functions/<platform>/`, `{p}`, `*`, `…`); a `#section` or `:line` after
 * one is dropped.
 */
export function repositoryPaths(markdown: string, platformNames: readonly string[]): string[] {
  const out = new Set<string>();
  const top = ['shared', 'functions', 'infra', 'test', 'docs', '\\.ci', ...platformNames].join('|');
  for (const m of markdown.matchAll(new RegExp(`\`((?:${top})/[^\`\\s]*)\``, 'g'))) {
    const path = m[1]!.replace(/#.*$/, '').replace(/:\d+$/, '');
    if (/[<>{}*…]/.test(path)) continue;
    out.add(platformNames.some((p) => path.startsWith(`${p}/`)) ? `functions/${path}` : path);
  }
  return [...out];
}
