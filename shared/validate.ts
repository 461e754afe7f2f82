import * as z from 'zod';
import { invalidParameter, type ToolError } from './errors';

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
 * Checks what no schema should have to: nesting deeper than MAX_NESTING (refused before anything
 * walks the input recursively, where it would exhaust the stack), a `__proto__` key (JSON.parse
 * makes it an own key that object spreads then drop silently), and text with control characters
 * or lone surrogates (a name of only control characters becomes an empty slug upstream).
 * Iterative: any depth is safe to check.
 */
export function checkParams(params: unknown, max = MAX_NESTING): void {
  const stack: { value: unknown; path: string[] }[] = [{ value: params, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (CONTROL.test(value) || LONE_SURROGATE.test(value)) {
        throw invalidParameter(
          at(path),
          'text without control characters or unpaired surrogates',
          `Parameter "${at(path)}" contains ${LONE_SURROGATE.test(value) ? 'an unpaired UTF-16 surrogate' : 'a control character'}; send plain text (tabs and line breaks are fine).`,
        );
      }
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= max) {
      throw invalidParameter(
        at(path),
        `at most ${max} levels of nested arrays and objects`,
        `Parameter "${path[0]}" is nested deeper than ${max} levels of arrays and objects (at "${at(path)}"). No parameter of this tool nests that deep: send the shape its description shows.`,
      );
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === '__proto__') {
        const where = at([...path, key]);
        throw invalidParameter(where, 'no "__proto__" key', `Parameter "${where}": "__proto__" is not accepted as a key anywhere in the parameters.`);
      }
      if (child !== null && (typeof child === 'object' || typeof child === 'string')) stack.push({ value: child, path: [...path, key] });
    }
  }
}

/** Parses tool input; the first problem becomes one INVALID_PARAMETER naming its path and the expected shape. */
export function parseInput<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  checkParams(params);
  const result = schema.safeParse(params, { reportInput: true });
  if (result.success) return result.data;
  throw issueToError(result.error.issues[0]!, schema);
}

export function issueToError(issue: z.core.$ZodIssue, schema: z.ZodType): ToolError {
  let path = issue.path.map(String);
  let expected: string;
  let problem: string;
  switch (issue.code) {
    case 'invalid_type': {
      const want = issue.expected === 'int' ? 'integer' : issue.expected;
      expected = want;
      problem = issue.input === undefined ? 'is required' : `must be ${article(want)}, got ${show(issue.input)}`;
      break;
    }
    case 'invalid_value':
      expected = `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      problem = `must be ${expected}, got ${show(issue.input)}`;
      break;
    case 'unrecognized_keys': {
      path = [...path, issue.keys[0]!];
      const known = Object.keys(shapeAt(schema, issue.path.map(String)) ?? {});
      expected = known.length ? `one of the parameters ${known.join(', ')}` : 'no such parameter';
      problem = `is not a parameter of this tool (${expected})`;
      break;
    }
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
      expected = issue.format === 'regex' && 'pattern' in issue ? `text matching ${String(issue.pattern)}` : issue.format;
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
