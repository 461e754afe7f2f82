import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { platforms } from '../functions/platforms';
import type { Platform } from '../shared/core/tool';
import { sourceFiles, withoutComments } from './helpers/source';

/**
 * shared/ names no vendor (docs/layout.md#what-goes-in-shared-and-in-the-kit): what it needs of one
 * — its name, hosts, OAuth endpoints and scopes, toolsets — it reads from the platform's descriptor
 * (functions/<platform>/index.ts). What counts is code: identifiers, strings and regular
 * expressions of shared/**\/*.ts. Comments may say which vendor a rule was written for, as an
 * example. Left out as well: shared/catalog/output/<platform>.json, each platform's own generated
 * output schemas (npm run schemas), data rather than code.
 */

const ROOT = join(__dirname, '..');

/** The vendor names: each platform's `vendor` (its first word, "HubSpot CRM" → HubSpot) and the five this service was built over. */
export function vendorNames(list: readonly Platform<any>[]): string[] {
  return [...new Set(['Tape', 'Podio', 'ShareFile', 'HubSpot', 'BatchData', ...list.map((p) => p.vendor.split(' ')[0]!)])];
}

/** The vendors' domains (the last two labels of each host): of each platform's API base and OAuth endpoints. */
export function vendorDomains(list: readonly Platform<any>[]): string[] {
  const urls = list.flatMap((p) => [p.defaultBaseUrl, p.auth.oauth?.authorizeUrl, p.auth.oauth?.tokenUrl, p.auth.oauth?.revoke?.url('t')]);
  const hosts = urls.filter((u): u is string => u !== undefined && !u.includes('{')).map((u) => new URL(u).hostname);
  return [...new Set(hosts.map((h) => h.split('.').slice(-2).join('.')))];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A vendor's name as a word or as a part of an identifier, in the ways code spells it: as written
 * (`ShareFile`, `TapeClient`), lower-camel (`shareFile`), lower case (`podio`) and upper case
 * (`HUBSPOT_BASE_URL`); a longer word that only starts alike (`tapered`) is not it.
 */
function namePattern(name: string): string {
  const lowerFirst = name[0]!.toLowerCase() + name.slice(1);
  const spellings = [...new Set([name, lowerFirst, name.toLowerCase()])].map((v) => (/^[a-z]/.test(v) ? `(?<![A-Za-z])${escape(v)}(?![a-z])` : `(?<![A-Z])${escape(v)}(?![a-z])`));
  return [...spellings, `(?<![A-Za-z])${escape(name.toUpperCase())}(?![A-Za-z])`].join('|');
}

/** Where `code` names a vendor or one of its domains, outside comments: each hit as `line: text`. */
export function vendorMentions(code: string, names: readonly string[], domains: readonly string[]): string[] {
  const named = new RegExp(names.map(namePattern).join('|'));
  const namesOne = (line: string) => named.test(line) || domains.some((d) => line.toLowerCase().includes(d));
  return withoutComments(code).split('\n').flatMap((line, i) => (namesOne(line) ? [`${i + 1}: ${line.trim().slice(0, 160)}`] : []));
}

describe('shared/ names no vendor', () => {
  const names = vendorNames(platforms);
  const domains = vendorDomains(platforms);

  it('knows every vendor and its hosts from the descriptors', () => {
    expect(names).toEqual(expect.arrayContaining(['Tape', 'Podio', 'ShareFile', 'HubSpot', 'BatchData']));
    expect(domains).toEqual(expect.arrayContaining(['podio.com', 'hubapi.com', 'hubspot.com', 'sharefile.com']));
  });

  it('counts code, not comments', () => {
    expect(vendorMentions("// Podio's rule\nconst a = 1; /* HubSpot */", names, domains)).toEqual([]);
    expect(vendorMentions("const vendor = 'Podio';", names, domains)).toEqual(["1: const vendor = 'Podio';"]);
    expect(vendorMentions('const u = `https://api.hubapi.com/x`;', names, domains)).toHaveLength(1);
    expect(vendorMentions('const taped = 1;\nconst tapeClient = 2;\ntype T = PodioItem;\nconst HUBSPOT_URL = 3;\nconst x = "API.HUBAPI.COM";', names, domains)).toEqual(['2: const tapeClient = 2;', '3: type T = PodioItem;', '4: const HUBSPOT_URL = 3;', '5: const x = "API.HUBAPI.COM";']);
  });

  it('in every TypeScript file of shared/', () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'shared'))) {
      for (const hit of vendorMentions(readFileSync(file, 'utf8'), names, domains)) found.push(`${relative(ROOT, file)}:${hit}`);
    }
    expect(found).toEqual([]);
  });
});
