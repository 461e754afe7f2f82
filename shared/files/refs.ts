import { invalidParameter } from '../core/errors';
import type { FileSource } from '../vendor/download';

/**
 * Where a vendor takes file ids, callers may also pass https URLs: each is downloaded (through the
 * SSRF-guarded fetch of shared/vendor/download.ts) and uploaded to the vendor, and its new id goes where
 * the URL was. The algorithm is the same for every platform; what an id looks like and how files
 * go up is the vendor's.
 */
export interface FileRefRules<Id> {
  /** The vendor's id for a value that is one already (a number, a numeric string, a vendor token); undefined when it is not. */
  asId(value: number | string): Id | undefined;
  /** What the parameter takes, in words ("a numeric Podio file id or an https URL"). */
  expected: string;
  /** Why `value` is neither an id nor a URL, and what to pass instead. */
  refused(path: string, value: number | string): string;
  /** Downloads and uploads the URL sources (all checked before anything is fetched); the new ids in source order. */
  upload(sources: FileSource[]): Promise<Id[]>;
}

/** Anything with a scheme is taken as a URL: the download's checks then say what is wrong with it (http, private host). */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * File ids or URLs → ids. Every value is checked before anything is downloaded; errors name
 * `<parameter>.<i>`. The URLs are uploaded together, once, in their order.
 */
export async function resolveFileRefs<Id>(values: readonly (number | string)[], parameter: string, rules: FileRefRules<Id>): Promise<Id[]> {
  const out: Id[] = [];
  const urls: { index: number; source: FileSource }[] = [];
  values.forEach((v, index) => {
    const path = `${parameter}.${index}`;
    if (typeof v === 'string' && URL_LIKE.test(v)) {
      urls.push({ index, source: { url: v, parameter: path } });
      return;
    }
    const id = rules.asId(v);
    if (id === undefined) throw invalidParameter(path, rules.expected, rules.refused(path, v));
    out[index] = id;
  });
  if (urls.length) {
    const ids = await rules.upload(urls.map((u) => u.source));
    urls.forEach((u, k) => (out[u.index] = ids[k]!));
  }
  return out;
}

/** A positive whole number, from a number or a string of digits; undefined otherwise. */
export function positiveId(value: number | string): number | undefined {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
