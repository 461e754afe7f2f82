/**
 * Result shapes that list their fields: every listed field is present in a tool's JSON answer,
 * with its value or `null` where the vendor has none — never left out. A caller (or a model)
 * then reads one shape whatever the record holds, and tells "empty" from "not asked for".
 */

/** The listed keys of T, each required: an optional one becomes its value or null. */
export type Listed<T, K extends keyof T> = { -readonly [P in K]-?: undefined extends T[P] ? Exclude<T[P], undefined> | null : T[P] };

/** The listed keys of `source`, each its value or null (undefined and null alike become null). */
export function listed<T extends object, K extends keyof T>(source: T | null | undefined, keys: readonly K[]): Listed<T, K> {
  const out = {} as Record<K, unknown>;
  for (const k of keys) out[k] = source?.[k] ?? null;
  return out as Listed<T, K>;
}
