/** A JSON object: not null, not an array (what `typeof v === 'object'` alone lets through). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
