import fc from 'fast-check';

/**
 * fast-check arbitraries from a tool's input JSON Schema (draft 2020-12 as `z.toJSONSchema` writes
 * it: type, enum, const, anyOf, properties/required/additionalProperties, items, min/max bounds,
 * pattern, format). `validInput` respects the schema; `invalidInput` breaks exactly one thing and
 * says which parameter paths may be named for it.
 */
export type Schema = Record<string, any>;

/** Text a valid input may hold: printable ASCII with some non-ASCII letters, an emoji (a surrogate pair), tab and line feed. */
const textUnit = fc.oneof({ weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.constantFrom('é', 'ß', '漢', 'Ж', '😀', '\t', '\n') });

/** Keys of free-form objects: plain names, never one a prototype chain gives meaning to. */
const keyArb = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((k) => !RESERVED_KEYS.includes(k));
export const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Any JSON value for a `{}` schema: small and free of control characters and reserved keys. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: textUnit, maxLength: 20 }),
    fc.integer({ min: -1000, max: 100000 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(keyArb, tie('v'), { maxKeys: 3 }),
  ),
})).v;

function typesOf(s: Schema): string[] {
  if (s.type) return [].concat(s.type);
  if (s.enum) return [...new Set((s.enum as unknown[]).map(jsonType))];
  if (s.const !== undefined) return [jsonType(s.const)];
  if (s.anyOf) return [...new Set((s.anyOf as Schema[]).flatMap(typesOf))];
  return [];
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function bounds(s: Schema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : 1e-6;
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + step : -1e6);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - step : 1e9);
  if (integer) {
    min = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
    max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
  }
  return { min, max };
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const minLength: number = s.minLength ?? 0;
  const maxLength: number = Math.min(s.maxLength ?? 40, minLength + 40);
  const fits = (v: string) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity);
  const pattern = s.pattern ? new RegExp(s.pattern) : undefined;
  // A format's own generator first (zod's email pattern admits addresses other validators refuse), held to the pattern too.
  switch (s.format) {
    // IP literals of private ranges: the service's URL guard refuses them without a DNS lookup.
    case 'uri':
      return fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }), keyArb).map(([a, b, p]) => `https://10.${a}.0.${b}/${p}.pdf`);
    case 'email':
      return keyArb.map((k) => `${k}@example.com`).filter((v) => fits(v) && (!pattern || pattern.test(v)));
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  }
  if (pattern) return fc.stringMatching(pattern).filter(fits);
  return fc.string({ unit: textUnit, minLength, maxLength }).filter(fits);
}

/** Small numbers first: the twins' seeded ids are small, so a valid input often finds something. */
function integerArb(s: Schema): fc.Arbitrary<number> {
  const { min, max } = bounds(s, true);
  const low = Math.max(min, Math.min(max, 0));
  return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: low, max: Math.min(max, low + 20) }) }, { weight: 1, arbitrary: fc.integer({ min, max }) });
}

export function validArb(s: Schema): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.anyOf) return fc.oneof(...(s.anyOf as Schema[]).map(validArb));
  const types = typesOf(s);
  if (types.length === 0) return anyJson;
  if (types.length > 1) return fc.oneof(...types.map((t) => validArb({ ...s, type: t })));
  switch (types[0]) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return integerArb(s);
    case 'number': {
      const { min, max } = bounds(s, false);
      return fc.oneof(integerArb(s), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter((n) => n > (s.exclusiveMinimum ?? -Infinity) && n < (s.exclusiveMaximum ?? Infinity)));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength: number = s.minItems ?? 0;
      return fc.array(s.items ? validArb(s.items) : anyJson, { minLength, maxLength: Math.min(s.maxItems ?? minLength + 3, minLength + 3) });
    }
    case 'object':
      return objectArb(s);
  }
  throw new Error(`schema-arb: unsupported type ${String(types[0])}`);
}

function objectArb(s: Schema): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, Schema> = s.properties ?? {};
  const required: string[] = s.required ?? [];
  const known = Object.keys(props).length
    ? fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, validArb(v)])), { requiredKeys: required })
    : fc.constant({});
  const extra = s.additionalProperties;
  if (extra === false || extra === undefined) return known as fc.Arbitrary<Record<string, unknown>>;
  const keys = s.propertyNames?.pattern ? fc.stringMatching(new RegExp(s.propertyNames.pattern)) : keyArb;
  const more = fc.dictionary(keys.filter((k) => !(k in props) && !RESERVED_KEYS.includes(k)), extra === true ? anyJson : validArb(extra), { maxKeys: 3 });
  return fc.tuple(known, more).map(([a, b]) => ({ ...b, ...a }));
}

/**
 * Variants of the tool's documented example (valid, and naming ids the twins hold): each top-level
 * parameter kept, replaced by a generated value, or left out when optional. The schema alone cannot
 * say what a tool's refinements want (a ShareFile item id, a date order): the example can.
 */
export function exampleArb(schema: Schema, example: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const props: Record<string, Schema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  type Choice = { keep: true } | { drop: true } | { value: unknown };
  const choices = Object.keys(props).map((k) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant<Choice>(k in example ? { keep: true } : { drop: true }) },
      { weight: 1, arbitrary: validArb(props[k]!).map((value): Choice => ({ value })) },
      ...(required.has(k) ? [] : [{ weight: 1, arbitrary: fc.constant<Choice>({ drop: true }) }]),
    ),
  );
  return fc.tuple(...choices).map((picked) => {
    const out: Record<string, unknown> = {};
    Object.keys(props).forEach((k, i) => {
      const c = picked[i]!;
      if ('value' in c) out[k] = c.value;
      else if ('keep' in c) out[k] = structuredClone(example[k]);
    });
    return out;
  });
}

/** Valid inputs: generated from the schema alone, or from the example. */
export function inputArb(schema: Schema, example: Record<string, unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(validArb(schema), exampleArb(schema, example));
}

/* ------------------------------------------------------------------ invalid inputs */

export type InvalidKind = 'wrong-type' | 'missing-required' | 'out-of-range' | 'unknown-key' | 'reserved-key' | 'control-char' | 'huge-string' | 'deep-nesting' | 'long-array';

/** One broken input: the params, what was broken, and the parameter paths an answer may name for it. */
export interface InvalidCase {
  kind: InvalidKind;
  params: Record<string, unknown>;
  /** The offending parameter's path (dot-joined; "(body)" for the whole body). */
  path: string;
  /** Nesting: the service may name the path where the limit is crossed, below `path`. */
  deeper?: boolean;
}

/** A place in a valid input where a mutation can go: the value at `path` with its schema. */
interface Site {
  path: string[];
  schema: Schema;
  value: unknown;
}

const join = (path: string[]) => path.join('.') || '(body)';

/** Walks a valid value along its schema; anyOf nodes are leaves (which branch matched is not tracked). */
function sites(schema: Schema, value: unknown, path: string[] = [], out: Site[] = []): Site[] {
  out.push({ path, schema, value });
  if (schema.anyOf) return out;
  if (Array.isArray(value) && schema.items) value.slice(0, 2).forEach((v, i) => sites(schema.items, v, [...path, String(i)], out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const sub = schema.properties?.[k] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (sub) sites(sub, v, [...path, k], out);
    }
  }
  return out;
}

/** Sets `value` at `path` in a deep copy of `root` (an empty path replaces the root). */
function setAt(root: Record<string, unknown>, path: string[], update: (parent: any, key: string) => void): Record<string, unknown> {
  const copy = structuredClone(root);
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  update(parent, path[path.length - 1]!);
  return copy;
}

/** Defines an own property, so that "__proto__" becomes a key JSON.stringify writes. */
function defineKey(obj: any, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const WRONG_VALUES: { type: string; value: unknown }[] = [
  { type: 'string', value: 'fuzz' },
  { type: 'number', value: 1.5 },
  { type: 'integer', value: 7 },
  { type: 'boolean', value: true },
  { type: 'array', value: [] },
  { type: 'object', value: {} },
];

function accepts(types: string[], type: string): boolean {
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

const CONTROL_TEXTS = ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\uD800', '\uDFFF', 'a\uDBFFb'];
export const MB = 1 << 20;

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? { d: v } : [v];
  return v;
}

/** The mutations possible at one site: each a function from the valid root to a broken case. */
interface Mutation {
  kind: InvalidKind;
  make: (pick: number) => InvalidCase;
}

function mutations(site: Site, root: Record<string, unknown>): Mutation[] {
  const { schema: s, value, path } = site;
  const at = join(path);
  const out: Mutation[] = [];
  const add = (kind: InvalidKind, make: (pick: number) => InvalidCase) => out.push({ kind, make });
  const replace = (kind: InvalidKind, v: unknown, extra: Partial<InvalidCase> = {}) => (): InvalidCase => ({
    kind,
    params: path.length === 0 ? (v as Record<string, unknown>) : setAt(root, path, (p, k) => (p[k] = v)),
    path: at,
    ...extra,
  });
  const types = typesOf(s);
  // A `{}` schema accepts any value: no wrong type for it. Null is never used: a null for an
  // optional parameter is read as its omission (shared/core/nulls.ts).
  if (path.length > 0 && types.length > 0) {
    const wrong = WRONG_VALUES.filter((w) => !accepts(types, w.type) && !(s.enum ?? []).includes(w.value));
    if (wrong.length) add('wrong-type', (pick) => replace('wrong-type', wrong[pick % wrong.length]!.value)());
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const present = (s.required ?? []).filter((k: string) => k in value);
    if (present.length) {
      add('missing-required', (pick) => {
        const key = present[pick % present.length]!;
        const params = path.length === 0 ? { ...(value as object) } : setAt(root, path, (p, k) => (p[k] = { ...p[k] }));
        const target: any = path.reduce((o: any, k) => o[k], params);
        delete target[key];
        return { kind: 'missing-required', params: params as Record<string, unknown>, path: join([...path, key]) };
      });
    }
    if (s.additionalProperties === false) {
      add('unknown-key', () => {
        const params = path.length === 0 ? { ...(value as object), zz_unknown: 1 } : setAt(root, path, (p, k) => (p[k] = { ...p[k], zz_unknown: 1 }));
        return { kind: 'unknown-key', params: params as Record<string, unknown>, path: join([...path, 'zz_unknown']) };
      });
    }
    add('reserved-key', (pick) => {
      const key = RESERVED_KEYS[pick % RESERVED_KEYS.length]!;
      const extra = key === '__proto__' ? { polluted: true } : 1;
      const add = (o: object) => {
        const c = { ...o };
        defineKey(c, key, extra);
        return c;
      };
      const params = path.length === 0 ? add(value as object) : setAt(root, path, (p, k) => (p[k] = add(p[k])));
      return { kind: 'reserved-key', params: params as Record<string, unknown>, path: join([...path, key]) };
    });
  }
  if (path.length > 0) {
    if (typeof value === 'string') {
      add('control-char', (pick) => {
        const bad = CONTROL_TEXTS[pick % CONTROL_TEXTS.length]!;
        const at2 = pick % (value.length + 1);
        return replace('control-char', value.slice(0, at2) + bad + value.slice(at2))();
      });
    }
    if (types.includes('string') && !((s.maxLength ?? 0) >= MB) && !s.anyOf) add('huge-string', () => replace('huge-string', 'x'.repeat(MB))());
    add('deep-nesting', replace('deep-nesting', nested(70), { deeper: true }));
    if (Array.isArray(value) && s.items && !((s.maxItems ?? 0) >= 100_000)) {
      add('long-array', () => replace('long-array', Array.from({ length: 100_000 }, () => value[0] ?? 1))());
    }
    const num = types.includes('number') || types.includes('integer');
    if (num && typeof value === 'number') {
      if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) add('out-of-range', replace('out-of-range', s.maximum + 1));
      if (s.exclusiveMaximum !== undefined) add('out-of-range', replace('out-of-range', s.exclusiveMaximum));
      if (s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER) add('out-of-range', replace('out-of-range', s.minimum - 1));
      if (s.exclusiveMinimum !== undefined) add('out-of-range', replace('out-of-range', s.exclusiveMinimum));
    }
    if (typeof value === 'string' && s.maxLength !== undefined && s.maxLength < MB) add('out-of-range', replace('out-of-range', 'y'.repeat(s.maxLength + 1)));
    if (typeof value === 'string' && (s.minLength ?? 0) > 0) add('out-of-range', replace('out-of-range', ''));
    if (Array.isArray(value) && s.maxItems !== undefined && s.maxItems < 100_000) add('out-of-range', replace('out-of-range', Array.from({ length: s.maxItems + 1 }, () => value[0] ?? 1)));
    if (Array.isArray(value) && (s.minItems ?? 0) > 0) add('out-of-range', replace('out-of-range', []));
  }
  return out;
}

/** Broken inputs: a valid input with exactly one thing wrong, at a site and of a kind chosen at random. */
/** Mutations that build megabyte bodies: each costs tens of milliseconds, so they get their own, smaller share of runs. */
export const HEAVY_KINDS: ReadonlySet<InvalidKind> = new Set(['huge-string', 'long-array']);

export function invalidArb(schema: Schema, example: Record<string, unknown>, accept: (params: unknown) => boolean, heavy = false): fc.Arbitrary<InvalidCase> {
  return fc
    .tuple(inputArb(schema, example), fc.nat(), fc.nat())
    // The base must pass the tool's own schema (refinements included), so the mutation is its only
    // fault; a generated one that does not gives way to the example, which always does.
    .map(([candidate, which, pick]) => {
      const root = accept(candidate) ? candidate : structuredClone(example);
      const all = sites(schema, root).flatMap((site) => mutations(site, root as Record<string, unknown>));
      const chosen = all.filter((m) => HEAVY_KINDS.has(m.kind) === heavy);
      // Every tool has a top-level site, so there is always a light mutation (a reserved key) to fall back on.
      return (chosen.length ? chosen : all)[which % (chosen.length || all.length)]!.make(pick);
    });
}
