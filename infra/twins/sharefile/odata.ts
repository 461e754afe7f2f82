import { badRequest } from './errors';

/**
 * ShareFile's OData v3 query options on feeds, evaluated on the twin's rendered entities:
 * `$filter`, `$orderby`, `$skip`, `$top`, `$select`. This is the twin's own reading of the
 * grammar (docs/vendors/sharefile.md#conventions; the OData v3 URL conventions), kept apart from the filebox tools'
 * parser on purpose: the twin stands for ShareFile and judges what the tools send, so it must not
 * share their mistakes. Operators bind as in OData v3: `not` tightest, then the comparisons,
 * then `and`, then `or`; keywords are lower case. String comparisons ignore case, as ShareFile's
 * SQL-backed search does (an assumption).
 */

type Entity = Record<string, unknown>;

/** A malformed expression: what is wrong, and where (1-based, as ShareFile's messages count). */
class Malformed extends Error {
  constructor(
    readonly at: number,
    readonly problem: string,
  ) {
    super(`${problem} at position ${at}`);
  }
}

// --- Tokens ---

type Token =
  | { t: 'punct'; v: '(' | ')' | ','; at: number }
  /** A name, a keyword or a property path (`Parent/Id`). */
  | { t: 'word'; v: string; at: number }
  | { t: 'string'; v: string; at: number }
  | { t: 'number'; v: number; at: number }
  | { t: 'datetime'; v: string; at: number }
  | { t: 'end'; at: number };

const WORD = /^[A-Za-z_][A-Za-z0-9_]*(?:\/[A-Za-z_][A-Za-z0-9_]*)*/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[LlMmDdFf]?/;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  /** Reads the quoted text whose opening quote is at `open`; '' is a quote. */
  const quoted = (start: number, open: number): [text: string, after: number] => {
    let text = '';
    for (let j = open + 1; ; ) {
      if (j >= src.length) throw new Malformed(start + 1, 'unterminated string');
      if (src[j] === "'") {
        if (src[j + 1] !== "'") return [text, j + 1];
        text += "'";
        j += 2;
      } else text += src[j++];
    }
  };
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    const rest = src.slice(i);
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')' || ch === ',') {
      out.push({ t: 'punct', v: ch, at: i + 1 });
      i++;
    } else if (ch === "'") {
      const [v, after] = quoted(i, i);
      out.push({ t: 'string', v, at: i + 1 });
      i = after;
    } else if (NUMBER.test(rest)) {
      const m = NUMBER.exec(rest)![0];
      out.push({ t: 'number', v: Number(m.replace(/[LlMmDdFf]$/, '')), at: i + 1 });
      i += m.length;
    } else if (WORD.test(rest)) {
      const w = WORD.exec(rest)![0];
      const prefix = w.toLowerCase();
      if ((prefix === 'datetime' || prefix === 'datetimeoffset' || prefix === 'guid') && src[i + w.length] === "'") {
        const [v, after] = quoted(i, i + w.length);
        out.push(prefix === 'guid' ? { t: 'string', v, at: i + 1 } : { t: 'datetime', v, at: i + 1 });
        i = after;
      } else {
        out.push({ t: 'word', v: w, at: i + 1 });
        i += w.length;
      }
    } else {
      throw new Malformed(i + 1, `unexpected "${ch}"`);
    }
  }
  out.push({ t: 'end', at: src.length + 1 });
  return out;
}

const describe = (tok: Token) => (tok.t === 'end' ? 'the end' : tok.t === 'string' ? `'${tok.v}'` : `"${tok.v}"`);

// --- Expressions ---

const COMPARISONS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
type Comparison = (typeof COMPARISONS)[number];
const KEYWORDS = new Set<string>([...COMPARISONS, 'and', 'or', 'not', 'true', 'false', 'null']);

/** What an expression yields, as far as the parser can tell; a property may be anything. */
type Kind = 'boolean' | 'string' | 'number' | 'datetime' | 'null' | 'property';

type Expr =
  | { k: 'literal'; value: string | number | boolean | null; kind: Kind; at: number }
  | { k: 'property'; path: string[]; at: number }
  | { k: 'not'; operand: Expr; at: number }
  /** A run of the same operator (`a and b and c`) as one node: evaluating it needs no recursion per term. */
  | { k: 'logic'; op: 'and' | 'or'; terms: Expr[]; at: number }
  | { k: 'compare'; op: Comparison; left: Expr; right: Expr; at: number }
  | { k: 'call'; name: string; args: Expr[]; at: number };

/** The functions ShareFile's OData v3 takes: the argument kinds and the result. `isof` is read apart. */
const FUNCTIONS: Record<string, { args: Kind[]; gives: Kind }> = {
  startswith: { args: ['string', 'string'], gives: 'boolean' },
  endswith: { args: ['string', 'string'], gives: 'boolean' },
  substringof: { args: ['string', 'string'], gives: 'boolean' },
  indexof: { args: ['string', 'string'], gives: 'number' },
  tolower: { args: ['string'], gives: 'string' },
  toupper: { args: ['string'], gives: 'string' },
  trim: { args: ['string'], gives: 'string' },
  length: { args: ['string'], gives: 'number' },
};

function kindOf(e: Expr): Kind {
  switch (e.k) {
    case 'literal':
      return e.kind;
    case 'property':
      return 'property';
    case 'call':
      return e.name === 'isof' ? 'boolean' : FUNCTIONS[e.name]!.gives;
    default:
      return 'boolean';
  }
}

/** An ISO 8601 date, with or without time and zone (no zone reads as UTC); epoch ms, or undefined. */
function isoTime(text: string): number | undefined {
  const m = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  if (!m) return undefined;
  const t = Date.parse(text.includes('T') && !m[1] ? `${text}Z` : text);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * How deep parentheses, `not` and function calls may nest: a recursive descent needs a bound, or
 * `((((…` exhausts the stack. Beyond it the expression is refused as malformed, as ShareFile
 * refuses what it cannot read (400).
 */
const MAX_DEPTH = 32;

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private nested<T>(at: number, read: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new Malformed(at, `the expression nests deeper than ${MAX_DEPTH} levels`);
    const out = read();
    this.depth--;
    return out;
  }

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private take(): Token {
    return this.tokens[this.i++]!;
  }
  private atWord(...words: string[]): string | undefined {
    const tok = this.peek();
    return tok.t === 'word' && words.includes(tok.v) ? tok.v : undefined;
  }
  private atPunct(v: string): boolean {
    const tok = this.peek();
    return tok.t === 'punct' && tok.v === v;
  }
  private expectPunct(v: ')' | ','): void {
    const tok = this.take();
    if (tok.t !== 'punct' || tok.v !== v) throw new Malformed(tok.at, tok.t === 'end' ? `the expression ends before "${v}"` : `expected "${v}", got ${describe(tok)}`);
  }

  /** A whole `$filter`: one condition, then the end. */
  filter(): Expr {
    if (this.peek().t === 'end') throw new Malformed(1, 'the expression is empty');
    const e = condition(this.or());
    const tok = this.peek();
    if (tok.t !== 'end') throw new Malformed(tok.at, `expected "and", "or" or the end, got ${describe(tok)}`);
    return e;
  }

  /** A whole `$orderby`: `Prop [asc|desc]`, comma-separated. */
  orderby(): OrderKey[] {
    const out: OrderKey[] = [];
    for (;;) {
      const tok = this.take();
      if (tok.t !== 'word' || KEYWORDS.has(tok.v)) throw new Malformed(tok.at, tok.t === 'end' ? 'a property is missing' : `expected a property, got ${describe(tok)}`);
      const dir = this.atWord('asc', 'desc');
      if (dir) this.take();
      out.push({ path: tok.v.split('/'), desc: dir === 'desc', at: tok.at });
      const next = this.take();
      if (next.t === 'end') return out;
      if (next.t !== 'punct' || next.v !== ',') throw new Malformed(next.at, `expected "," or the end, got ${describe(next)}`);
    }
  }

  private or(): Expr {
    const first = this.and();
    if (!this.atWord('or')) return first;
    const terms = [condition(first)];
    while (this.atWord('or')) {
      this.take();
      terms.push(condition(this.and()));
    }
    return { k: 'logic', op: 'or', terms, at: first.at };
  }

  private and(): Expr {
    const first = this.comparison();
    if (!this.atWord('and')) return first;
    const terms = [condition(first)];
    while (this.atWord('and')) {
      this.take();
      terms.push(condition(this.comparison()));
    }
    return { k: 'logic', op: 'and', terms, at: first.at };
  }

  private comparison(): Expr {
    const left = this.unary();
    const op = this.atWord(...COMPARISONS) as Comparison | undefined;
    if (!op) return left;
    const at = this.take().at;
    const right = this.unary();
    const [a, b] = [kindOf(left), kindOf(right)];
    const loose = (k: Kind) => k === 'property' || k === 'null';
    if (!loose(a) && !loose(b) && a !== b) throw new Malformed(at, `"${op}" cannot compare a ${a} with a ${b}`);
    if ((a === 'null' || b === 'null') && op !== 'eq' && op !== 'ne') throw new Malformed(at, `"${op}" cannot compare with null (only eq and ne can)`);
    return { k: 'compare', op, left, right, at: left.at };
  }

  private unary(): Expr {
    if (!this.atWord('not')) return this.primary();
    const at = this.take().at;
    return { k: 'not', operand: condition(this.nested(at, () => this.unary())), at };
  }

  private primary(): Expr {
    const tok = this.take();
    switch (tok.t) {
      case 'end':
        throw new Malformed(tok.at, 'the expression ends too early');
      case 'punct': {
        if (tok.v !== '(') throw new Malformed(tok.at, `unexpected "${tok.v}"`);
        return this.nested(tok.at, () => {
          const inner = this.or();
          this.expectPunct(')');
          return { ...inner, at: tok.at };
        });
      }
      case 'string':
        return { k: 'literal', value: tok.v, kind: 'string', at: tok.at };
      case 'number':
        return { k: 'literal', value: tok.v, kind: 'number', at: tok.at };
      case 'datetime': {
        const t = isoTime(tok.v);
        if (t === undefined) throw new Malformed(tok.at, `datetime'${tok.v}' is not an ISO 8601 date`);
        return { k: 'literal', value: t, kind: 'datetime', at: tok.at };
      }
      case 'word': {
        if (tok.v === 'true' || tok.v === 'false') return { k: 'literal', value: tok.v === 'true', kind: 'boolean', at: tok.at };
        if (tok.v === 'null') return { k: 'literal', value: null, kind: 'null', at: tok.at };
        if (KEYWORDS.has(tok.v)) throw new Malformed(tok.at, `"${tok.v}" needs an operand before it`);
        if (this.atPunct('(')) return this.nested(tok.at, () => this.call(tok.v, tok.at));
        return { k: 'property', path: tok.v.split('/'), at: tok.at };
      }
    }
  }

  private call(name: string, at: number): Expr {
    this.take(); // (
    const args: Expr[] = [];
    if (!this.atPunct(')')) {
      args.push(this.or());
      while (this.atPunct(',')) {
        this.take();
        args.push(this.or());
      }
    }
    this.expectPunct(')');
    if (name === 'isof') {
      // isof('Type') asks of the entity itself; isof(Prop,'Type') of a property.
      if (args.length < 1 || args.length > 2) throw new Malformed(at, `isof takes 1 or 2 arguments, got ${args.length}`);
      const type = args[args.length - 1]!;
      if (type.k !== 'literal' || type.kind !== 'string') throw new Malformed(type.at, "isof needs a type name in quotes, e.g. isof('ShareFile.Api.Models.Folder')");
      return { k: 'call', name, args, at };
    }
    const fn = FUNCTIONS[name];
    if (!fn) throw new Malformed(at, `unknown function "${name}"`);
    if (args.length !== fn.args.length) throw new Malformed(at, `${name} takes ${fn.args.length} argument${fn.args.length === 1 ? '' : 's'}, got ${args.length}`);
    args.forEach((arg, n) => {
      const k = kindOf(arg);
      if (k !== 'property' && k !== fn.args[n]) throw new Malformed(arg.at, `${name} takes a ${fn.args[n]} here, not a ${k}`);
    });
    return { k: 'call', name, args, at };
  }
}

/** An expression standing where a condition must: a boolean, or a property that may hold one. */
function condition(e: Expr): Expr {
  const k = kindOf(e);
  if (k !== 'boolean' && k !== 'property') throw new Malformed(e.at, `expected a condition (true or false), got a ${k}: compare it with eq, ne, gt, ge, lt or le`);
  return e;
}

function properties(e: Expr, out: { path: string[]; at: number }[] = []): { path: string[]; at: number }[] {
  switch (e.k) {
    case 'property':
      out.push(e);
      break;
    case 'not':
      properties(e.operand, out);
      break;
    case 'logic':
      e.terms.forEach((t) => properties(t, out));
      break;
    case 'compare':
      properties(e.left, out);
      properties(e.right, out);
      break;
    case 'call':
      e.args.forEach((a) => properties(a, out));
      break;
  }
  return out;
}

// --- Evaluation on rendered entities ---

function read(entity: Entity, path: string[]): unknown {
  let cur: unknown = entity;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Entity)[p] : undefined;
  return cur;
}

const absent = (v: unknown) => v === null || v === undefined;

/** Orders two values: absent first, numbers and booleans by value, the rest as text ignoring case. */
function order(a: unknown, b: unknown): number {
  if (absent(a) || absent(b)) return absent(a) === absent(b) ? 0 : absent(a) ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const [x, y] = [String(a).toLowerCase(), String(b).toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A value compared with a datetime literal: ISO text as epoch ms. */
const asTime = (v: unknown) => (typeof v === 'string' ? (isoTime(v) ?? Date.parse(v)) : v);

/** `ShareFile.Api.Models.Item` is the base of File, Folder, Note, Link; User of AccountUser. */
const SUBTYPES: Record<string, string[]> = { Item: ['File', 'Folder', 'Note', 'Link', 'SymbolicLink'], User: ['AccountUser'] };

function isOf(actual: string, wanted: string): boolean {
  if (actual === wanted) return true;
  const ns = 'ShareFile.Api.Models.';
  return wanted.startsWith(ns) && actual.startsWith(ns) && (SUBTYPES[wanted.slice(ns.length)] ?? []).includes(actual.slice(ns.length));
}

function evaluate(e: Expr, entity: Entity): unknown {
  switch (e.k) {
    case 'literal':
      return e.value;
    case 'property':
      return read(entity, e.path);
    case 'not':
      return !evaluate(e.operand, entity);
    case 'logic':
      return e.op === 'and' ? e.terms.every((t) => Boolean(evaluate(t, entity))) : e.terms.some((t) => Boolean(evaluate(t, entity)));
    case 'compare': {
      let a = evaluate(e.left, entity);
      let b = evaluate(e.right, entity);
      if (kindOf(e.left) === 'datetime' || kindOf(e.right) === 'datetime') [a, b] = [asTime(a), asTime(b)];
      if (absent(a) || absent(b)) {
        // null equals only null, and orders against nothing.
        if (e.op === 'eq') return absent(a) && absent(b);
        if (e.op === 'ne') return absent(a) !== absent(b);
        return false;
      }
      const c = order(a, b);
      return { eq: c === 0, ne: c !== 0, gt: c > 0, ge: c >= 0, lt: c < 0, le: c <= 0 }[e.op];
    }
    case 'call': {
      const args = e.args.map((a) => evaluate(a, entity));
      if (e.name === 'isof') {
        const target = e.args.length === 2 ? args[0] : entity;
        const actual = target && typeof target === 'object' ? (target as Entity)['odata.type'] : undefined;
        return typeof actual === 'string' && isOf(actual, String(args[args.length - 1]));
      }
      const [x, y] = args.map((v) => (absent(v) ? '' : String(v)));
      const [lx, ly] = [x!.toLowerCase(), (y ?? '').toLowerCase()];
      switch (e.name) {
        case 'startswith':
          return lx.startsWith(ly);
        case 'endswith':
          return lx.endsWith(ly);
        case 'substringof':
          return ly.includes(lx);
        case 'indexof':
          return lx.indexOf(ly);
        case 'tolower':
          return lx;
        case 'toupper':
          return x!.toUpperCase();
        case 'trim':
          return x!.trim();
        case 'length':
          return x!.length;
      }
      return undefined;
    }
  }
}

// --- Query options ---

interface OrderKey {
  path: string[];
  desc: boolean;
  at: number;
}

export interface QueryOptions {
  filter?: Expr;
  orderby?: OrderKey[];
  skip: number;
  top?: number;
  select?: string[];
}

/** Parses one option; a malformed one answers 400 with what is wrong and where. */
function parse<T>(option: '$filter' | '$orderby', src: string, read: (p: Parser) => T): T {
  try {
    return read(new Parser(tokenize(src)));
  } catch (err) {
    if (err instanceof Malformed) throw badRequest(`Invalid ${option} expression: ${err.message}.`);
    throw err;
  }
}

/**
 * The query options of a request; a malformed one answers 400 as ShareFile does. `known`, when
 * given, are the properties the feed's entities have: naming another in $filter or $orderby is a 400.
 */
export function queryOptions(query: (name: string) => string | undefined, known?: readonly string[]): QueryOptions {
  const int = (name: string) => {
    const raw = query(name);
    if (raw === undefined || raw === '') return undefined;
    if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be a non-negative integer, got "${raw}".`);
    return Number(raw);
  };
  const f = query('$filter');
  const o = query('$orderby');
  const s = query('$select');
  const filter = f ? parse('$filter', f, (p) => p.filter()) : undefined;
  const orderby = o ? parse('$orderby', o, (p) => p.orderby()) : undefined;
  if (known) {
    const check = (option: string, named: { path: string[]; at: number }[]) => {
      const unknown = named.find((p) => !known.includes(p.path[0]!));
      if (unknown) throw badRequest(`Invalid ${option} expression: unknown property "${unknown.path.join('/')}" at position ${unknown.at}.`);
    };
    if (filter) check('$filter', properties(filter));
    if (orderby) check('$orderby', orderby);
  }
  return {
    filter,
    orderby,
    skip: int('$skip') ?? 0,
    top: int('$top'),
    select: s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined,
  };
}

/** Keeps only the selected properties (and the OData annotations, and Id). */
export function project(entity: Entity, select?: string[]): Entity {
  if (!select) return entity;
  const out: Entity = {};
  for (const [k, v] of Object.entries(entity)) if (k.startsWith('odata.') || k === 'Id' || select.includes(k)) out[k] = v;
  return out;
}

/** Filters, sorts and pages rendered entities: the page, the count before paging, and whether more follow. */
export function applyOptions(entities: Entity[], o: QueryOptions): { page: Entity[]; count: number; more: boolean } {
  let list = o.filter ? entities.filter((e) => Boolean(evaluate(o.filter!, e))) : entities;
  if (o.orderby) {
    const keys = o.orderby;
    list = [...list].sort((a, b) => {
      for (const k of keys) {
        const c = order(read(a, k.path), read(b, k.path));
        if (c !== 0) return k.desc ? -c : c;
      }
      return 0;
    });
  }
  const end = o.top === undefined ? list.length : o.skip + o.top;
  return { page: list.slice(o.skip, end).map((e) => project(e, o.select)), count: list.length, more: end < list.length };
}
