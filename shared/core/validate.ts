import * as z from 'zod';
import { invalidParameter, ToolError } from './errors';

/**
 * How deep arrays and objects may nest in a tool's parameters. No tool needs more than a few levels
 * (an automation's filter tree is the deepest); far deeper input is refused before anything walks
 * it recursively (zod, error messages, field checks), where it would exhaust the stack.
 */
export const MAX_NESTING = 64;

/** C0 and C1 control characters other than tab, line feed and carriage return, and DEL. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A UTF-16 surrogate without its pair: not a character, and not encodable as UTF-8 for the vendor. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const at = (path: string[]) => {
  const p = path.join('.') || '(body)';
  return p.length > 80 ? `${p.slice(0, 77)}...` : p;
};

/**
 * Keys refused anywhere in the parameters: `__proto__` (JSON.parse makes it an own key that object
 * spreads then drop silently, or that pollutes a prototype where assigned), and `constructor` and
 * `prototype`, which mean something to every JavaScript object. No tool has a parameter, field or
 * property of these names; refused by name, they never reach code (or a vendor) that would look them up.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The longest text and the longest list a parameter may hold when its schema sets no bound of its
 * own (file content in base64 does, and so do batches): far above any name, note or id list a
 * vendor takes, far below what would cost memory or echo megabytes back in an error message.
 */
export const MAX_TEXT = 100_000;
export const MAX_ITEMS = 1_000;

/** Any control character or surrogate: one test that clears nearly every text before the two exact ones. */
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/;

const badText = (text: string) =>
  !SUSPECT.test(text) ? undefined : LONE_SURROGATE.test(text) ? 'an unpaired UTF-16 surrogate' : CONTROL.test(text) ? 'a control character' : undefined;

/**
 * Checks what no schema should have to: nesting deeper than MAX_NESTING (refused before anything
 * walks the input recursively, where it would exhaust the stack), reserved keys (RESERVED_KEYS),
 * text with control characters or lone surrogates, in values and keys alike (a name of only
 * control characters becomes an empty slug upstream), and text or lists longer than MAX_TEXT or
 * MAX_ITEMS where `schema` sets no bound of its own at that path. Iterative: any depth is safe.
 */
export function checkParams(params: unknown, schema?: z.ZodType, max = MAX_NESTING): void {
  // A node links to its parent rather than carrying its path: the path is spelled out only for an error.
  type Node = { value: unknown; key: string; parent: Node | undefined; depth: number };
  const pathOf = (node: Node): string[] => {
    const path: string[] = [];
    for (let n: Node | undefined = node; n?.parent; n = n.parent) path.push(n.key);
    return path.reverse();
  };
  const stack: Node[] = [{ value: params, key: '', parent: undefined, depth: 0 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      const bad = badText(value);
      if (bad) {
        const where = at(pathOf(node));
        throw invalidParameter(where, 'text without control characters or unpaired surrogates', `Parameter "${where}" contains ${bad}; send plain text (tabs and line breaks are fine).`);
      }
      if (value.length > MAX_TEXT && declaredMaximum(schema, pathOf(node)) === undefined) {
        const where = at(pathOf(node));
        throw invalidParameter(where, `at most ${MAX_TEXT} characters`, `Parameter "${where}" is ${value.length} characters long; at most ${MAX_TEXT} are accepted here.`);
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (node.depth >= max) {
      const path = pathOf(node);
      throw invalidParameter(
        at(path),
        `at most ${max} levels of nested arrays and objects`,
        `Parameter "${path[0]}" is nested deeper than ${max} levels of arrays and objects (at "${at(path)}"). No parameter of this tool nests that deep: send the shape its description shows.`,
      );
    }
    if (Array.isArray(value) && value.length > MAX_ITEMS && declaredMaximum(schema, pathOf(node)) === undefined) {
      const where = at(pathOf(node));
      throw invalidParameter(where, `at most ${MAX_ITEMS} items`, `Parameter "${where}" has ${value.length} items; at most ${MAX_ITEMS} are accepted here.`);
    }
    for (const key of Object.keys(value)) {
      if (RESERVED_KEYS.has(key)) {
        const where = at([...pathOf(node), key]);
        throw invalidParameter(where, `no "${key}" key`, `Parameter "${where}": "${key}" is not accepted as a key anywhere in the parameters.`);
      }
      const bad = badText(key);
      if (bad) {
        const where = at([...pathOf(node), key]);
        throw invalidParameter(where, 'keys without control characters or unpaired surrogates', `Parameter "${where}": the key contains ${bad}; use plain text for keys.`);
      }
      const child = (value as Record<string, unknown>)[key];
      if (child !== null && (typeof child === 'object' || typeof child === 'string')) stack.push({ value: child, key, parent: node, depth: node.depth + 1 });
    }
  }
}

/** The maximum length the schema itself sets at `path` (a string's or an array's `.max()`), if any. */
function declaredMaximum(schema: z.ZodType | undefined, path: string[]): number | undefined {
  const s = schema && unwrap(schemaAt(schema, path));
  const checks = (s as { _zod?: { def: { checks?: { _zod: { def: { check: string; maximum?: number; length?: number } } }[] } } } | undefined)?._zod?.def.checks ?? [];
  for (const c of checks) {
    const def = c._zod.def;
    if (def.check === 'max_length' && typeof def.maximum === 'number') return def.maximum;
    if (def.check === 'length_equals' && typeof def.length === 'number') return def.length;
  }
  return undefined;
}

/**
 * How many problems one INVALID_PARAMETER lists in `details.errors`: every problem of a request in
 * one answer, so a caller fixes them all at once, yet a huge bad batch answers in a few lines.
 */
export const MAX_PROBLEMS = 20;

/** One problem of a request, as `details.errors` lists it. */
export interface Problem {
  parameter: string;
  expected: string;
  message: string;
}

const problemOf = (e: ToolError): Problem => ({ parameter: String(e.details.parameter ?? '(body)'), expected: String(e.details.expected ?? ''), message: e.message });

/**
 * One INVALID_PARAMETER for every problem found: the first one's message, `parameter`, `expected`
 * and other details as a single problem carries them, and, when there are several, all of them (up
 * to MAX_PROBLEMS) in `details.errors`, with `more_errors: true` when there were more.
 */
export function invalidParameters(errors: readonly ToolError[]): ToolError {
  const first = errors[0]!;
  const listed = errors.slice(0, MAX_PROBLEMS).map(problemOf);
  const more = errors.length - 1;
  const message = more === 0 ? first.message : `${first.message} And ${more} more problem${more === 1 ? '' : 's'}: ${listed.slice(1).map((p) => p.parameter).join(', ')}${errors.length > MAX_PROBLEMS ? ', …' : ''} (details.errors says each).`;
  if (more === 0) return first;
  return new ToolError('INVALID_PARAMETER', message, { ...first.details, errors: listed, ...(errors.length > MAX_PROBLEMS ? { more_errors: true } : {}) }, first.headers);
}

/**
 * `check` for each of `items` (the records of a batch, the fields of a record), collecting every
 * INVALID_PARAMETER rather than stopping at the first; any other error ends the walk at once.
 * Answers the results in order, or throws the collected problems as one (invalidParameters).
 * Stops collecting after MAX_PROBLEMS + 1, which is enough to say there are more.
 */
export function eachChecked<T, R>(items: readonly T[], check: (item: T, index: number) => R): R[] {
  const out: R[] = [];
  const errors: ToolError[] = [];
  for (let i = 0; i < items.length && errors.length <= MAX_PROBLEMS; i++) {
    try {
      out.push(check(items[i]!, i));
    } catch (e) {
      if (!(e instanceof ToolError) || e.code !== 'INVALID_PARAMETER') throw e;
      // A check that already collected several problems (a record's fields) adds each of them.
      const listed = Array.isArray(e.details.errors) ? (e.details.errors as Problem[]) : undefined;
      if (listed && listed.length > 1) errors.push(e, ...listed.slice(1).map((p) => invalidParameter(p.parameter, p.expected, p.message)));
      else errors.push(e);
    }
  }
  if (errors.length > 0) throw invalidParameters(errors);
  return out;
}

/** Parses tool input; every problem (up to MAX_PROBLEMS) becomes one INVALID_PARAMETER, the first naming its path and the expected shape. */
export function parseInput<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  checkParams(params, schema);
  const result = schema.safeParse(params, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  // The mistakes whose fix is one sentence come first, in place of the problems they explain:
  // a near miss of a required key, and values given beside the parameter that holds them.
  const { first, explained } = nextSteps(issues, schema);
  const errors: ToolError[] = [...first];
  for (const issue of issues) {
    if (errors.length > MAX_PROBLEMS) break;
    // Each unknown key is a problem of its own, with its nearest valid name.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) if (!explained.has([...issue.path.map(String), key].join('.'))) errors.push(unknownKeyError(issue.path.map(String), key, schema));
    } else if (!explained.has(issue.path.map(String).join('.'))) errors.push(issueToError(issue, schema));
  }
  throw invalidParameters(errors);
}

/** A required key the request left out: its parent path and name. */
const missingKeys = (issues: readonly z.core.$ZodIssue[]) =>
  issues.filter((i) => i.code === 'invalid_type' && i.input === undefined && i.path.length > 0).map((i) => ({ at: i.path.slice(0, -1).map(String), key: String(i.path[i.path.length - 1]) }));

/**
 * The sentences that fix the commonest wrong shapes, each first in the answer:
 * - an unknown key that is a near miss of a required key left out (`file` for `files`): "did you
 *   mean" in the message itself, the missing key not reported again;
 * - keys beside a parameter that holds free-form names (a record's `fields`, a CRM object's
 *   `values`): "put them inside `values`", naming them.
 * Returns those errors and the paths (joined by dots) of the problems they explain.
 */
function nextSteps(issues: readonly z.core.$ZodIssue[], schema: z.ZodType): { first: ToolError[]; explained: Set<string> } {
  const first: ToolError[] = [];
  const explained = new Set<string>();
  const missing = missingKeys(issues);
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const at = issue.path.map(String);
    const prefix = at.length ? `${at.join('.')}.` : '';
    const missingHere = missing.filter((m) => m.at.join('.') === at.join('.')).map((m) => m.key);
    const loose: string[] = [];
    for (const key of issue.keys) {
      const near = nearestName(key, missingHere);
      if (near) {
        explained.add(prefix + key).add(prefix + near);
        const about = describeAt(schema, [...at, near]);
        first.push(
          invalidParameter(
            prefix + near,
            expectedAt(schema, [...at, near]),
            `Parameter "${prefix + near}" is required and "${prefix + key}" is not a parameter: did you mean "${prefix + near}"? Rename "${key}" to "${near}".${about ? ` Parameter "${prefix + near}": ${about}` : ''}`,
            { did_you_mean: near, unknown: prefix + key },
          ),
        );
      } else loose.push(key);
    }
    // Free-form names (a record's field ids, an object's property names) beside the one parameter that takes them.
    const holders = Object.entries(shapeAt(schema, at) ?? {}).filter(([, s]) => unwrap(s as z.ZodType) instanceof z.ZodRecord).map(([name]) => name);
    if (loose.length > 0 && holders.length === 1) {
      const holder = holders[0]!;
      for (const key of loose) explained.add(prefix + key);
      explained.add(prefix + holder);
      const names = loose.map((k) => `"${k}"`).join(', ');
      const example = `{"${holder}": {${loose.slice(0, 3).map((k) => `"${k}": …`).join(', ')}}}`;
      first.push(
        // The parameter named is the one sent by mistake (as for any unknown key); the message says where it belongs.
        invalidParameter(
          prefix + loose[0]!,
          `${names} inside "${prefix + holder}"`,
          `${loose.length === 1 ? `${names} is not a parameter` : `${names} are not parameters`} of this tool: put ${loose.length === 1 ? 'it' : 'them'} inside "${prefix + holder}", as ${example}.`,
          { misplaced: loose.map((k) => prefix + k) },
        ),
      );
    }
  }
  return { first, explained };
}

/** What a parameter takes, in a few words: its JSON type, or its description's first words. */
function expectedAt(schema: z.ZodType, path: string[]): string {
  const s = unwrap(schemaAt(schema, path));
  if (s instanceof z.ZodArray) return 'array';
  if (s instanceof z.ZodObject || s instanceof z.ZodRecord) return 'object';
  return s ? String((s as { _zod: { def: { type: string } } })._zod.def.type) : 'a value';
}

/** The closest of `known` to `wanted` (case-insensitive edit distance), when close enough to be what was meant. */
export function nearestName(wanted: string, known: readonly string[]): string | undefined {
  const w = wanted.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = editDistance(w, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  // Near: a few edits for a long name, one or two for a short one; or one name inside the other (name → file_name).
  const near = best !== undefined && (bestDistance <= Math.max(2, Math.floor(w.length / 3)) || (w.length >= 3 && best.toLowerCase().includes(w)) || (best.length >= 3 && w.includes(best.toLowerCase())));
  return near ? best : undefined;
}

/** Levenshtein distance (one row kept); a length gap over 20 is answered as that gap, so long inputs cost nothing. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 20) return Math.abs(a.length - b.length);
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

function unknownKeyError(at: string[], key: string, schema: z.ZodType): ToolError {
  const parameter = [...at, key].join('.');
  const known = Object.keys(shapeAt(schema, at) ?? {});
  const expected = known.length ? `one of the parameters ${known.join(', ')}` : 'no such parameter';
  const near = nearestName(key, known);
  const guess = near ? ` Did you mean \`${near}\`?` : '';
  return invalidParameter(parameter, expected, `Invalid parameter "${parameter}": is not a parameter of this tool (${expected}).${guess}`, near ? { did_you_mean: near } : {});
}

export function issueToError(issue: z.core.$ZodIssue, schema: z.ZodType): ToolError {
  if (issue.code === 'unrecognized_keys') return unknownKeyError(issue.path.map(String), issue.keys[0]!, schema);
  const path = issue.path.map(String);
  let expected: string;
  let problem: string;
  switch (issue.code) {
    case 'invalid_type': {
      const want = issue.expected === 'int' ? 'integer' : issue.expected;
      expected = want;
      problem = issue.input === undefined ? 'is required' : `must be ${article(want)}, got ${show(issue.input)}`;
      // A bare value where a list of objects goes ("files": "report.pdf"): the list's entry shape is the fix.
      const entry = want === 'array' && issue.input !== undefined && !Array.isArray(issue.input) ? listEntry(schema, path) : undefined;
      if (entry) problem += `: give a list of objects, each ${entry}, even for one`;
      break;
    }
    case 'invalid_value':
      expected = `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      problem = `must be ${expected}, got ${show(issue.input)}`;
      break;
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const cmp = issue.code === 'too_small' ? (issue.inclusive ? 'at least' : 'more than') : issue.inclusive ? 'at most' : 'less than';
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      expected = `${issue.origin} with ${cmp} ${String(bound)}${unit}`.replace('number with', 'number');
      problem = `must be ${expected}`;
      break;
    }
    case 'invalid_format':
      // A schema's own words ("digits (a HubSpot record id)") say it better than the pattern.
      expected = !issue.message.startsWith('Invalid') ? issue.message : issue.format === 'regex' && 'pattern' in issue ? `text matching ${String(issue.pattern)}` : issue.format;
      problem = `must be ${expected}, got ${show(issue.input)}`;
      break;
    default:
      expected = issue.message;
      problem = issue.message;
  }
  const parameter = path.join('.') || '(body)';
  const about = describeAt(schema, path);
  const hint = about ? ` Parameter "${parameter}": ${about}` : '';
  return invalidParameter(parameter, expected, `Invalid parameter "${parameter}": ${problem}.${hint}`);
}

/** The keys of a list's entries where they are objects, as "{filename, url or content}"-like words; undefined otherwise. */
function listEntry(schema: z.ZodType, path: string[]): string | undefined {
  const list = unwrap(schemaAt(schema, path));
  if (!(list instanceof z.ZodArray)) return undefined;
  const entry = unwrap(list.element as z.ZodType);
  if (!(entry instanceof z.ZodObject)) return undefined;
  const keys = Object.entries(entry.shape as Record<string, z.ZodType>);
  const required = keys.filter(([, s]) => !s.safeParse(undefined).success).map(([k]) => k);
  const optional = keys.filter(([k]) => !required.includes(k)).map(([k]) => k);
  return `{${[...required, ...(optional.length ? [`and ${optional.join(' or ')} as needed`] : [])].join(', ')}}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Unwraps optional/default/nullable wrappers to reach the schema that carries the shape. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema as { _zod?: { def: { innerType?: z.ZodType; type: string } } } | undefined;
  while (s?._zod?.def.innerType) s = s._zod.def.innerType as typeof s;
  return s as z.ZodType | undefined;
}

function schemaAt(schema: z.ZodType, path: string[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    const inner = unwrap(current);
    if (inner instanceof z.ZodObject) current = inner.shape[key] as z.ZodType | undefined;
    else if (inner instanceof z.ZodArray) current = inner.element as z.ZodType;
    else return undefined;
  }
  return current;
}

function shapeAt(schema: z.ZodType, path: string[]): Record<string, unknown> | undefined {
  const s = unwrap(schemaAt(schema, path));
  return s instanceof z.ZodObject ? s.shape : undefined;
}

function describeAt(schema: z.ZodType, path: string[]): string | undefined {
  const s = schemaAt(schema, path);
  return s?.description ?? unwrap(s)?.description;
}

/**
 * The path of the first key that appears twice in one object of a JSON text, if any. JSON.parse
 * keeps the last value silently, so `{"record_id": 1, "record_id": 2}` would act on a record the
 * caller may not have meant (and a proxy reading the first would disagree with us): such a body is
 * refused by name (I-JSON, RFC 7493 §2.3). Expects text JSON.parse accepted; iterative, any depth.
 */
export function duplicateKeyPath(text: string): string[] | undefined {
  // An object frame holds its keys and the key being read; an array frame its index.
  const stack: { keys?: Set<string>; key?: string; expectKey?: boolean; index: number }[] = [];
  const pathTo = (depth: number) => stack.slice(0, depth).map((f) => (f.keys ? f.key! : String(f.index)));
  // Where the next backslash is (text.length when none is left): each found once, so the scan stays linear.
  let nextSlash = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      // The closing quote by indexOf when no backslash comes before it (most strings), else char by char past the escapes.
      let j = text.indexOf('"', i + 1);
      if (nextSlash <= i) {
        const k = text.indexOf('\\', i + 1);
        nextSlash = k < 0 ? text.length : k;
      }
      const escaped = nextSlash < j;
      if (escaped) {
        for (j = i + 1; text[j] !== '"'; j++) if (text[j] === '\\') j++;
      }
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (top.keys.has(key)) return [...pathTo(stack.length - 1), key];
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (ch === '{') stack.push({ keys: new Set(), expectKey: true, index: 0 });
    else if (ch === '[') stack.push({ index: 0 });
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') {
      const top = stack[stack.length - 1]!;
      if (top.keys) top.expectKey = true;
      else top.index += 1;
    }
  }
  return undefined;
}

/** INVALID_PARAMETER for a body with a key given twice (see duplicateKeyPath). */
export function duplicateKeyError(path: string[]): ToolError {
  const where = at(path);
  return invalidParameter(where, 'each key once per object', `Parameter "${where}" is given more than once in the same object; send each parameter once.`);
}
