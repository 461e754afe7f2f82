/**
 * A compact parser of ShareFile's OData v3 `$filter` and `$orderby` (docs/vendors/sharefile.md#conventions; the SDK's
 * filter grammar): comparisons `eq ne gt ge lt le`, `and or not`, parentheses, the functions
 * `startswith endswith substringof isof tolower toupper length trim`, property paths (`Parent/Id`)
 * and literals ('text' with '' escapes, numbers, true/false/null, datetime'…'). No maintained npm
 * parser speaks v3 (they are v4: no `substringof`), so this one is ours. Tools parse before the
 * call, so a malformed expression never reaches ShareFile; the twin evaluates the same tree.
 * Operators bind as the OData v3 URL conventions order them (section 5.1.2.3 of
 * https://www.odata.org/documentation/odata-version-3-0/url-conventions/): `not` tightest, then
 * the comparisons, then `and`, then `or` — `not A eq 'x'` is `(not A) eq 'x'`.
 */

export type Literal = string | number | boolean | null;

export type ODataNode =
  | { kind: 'literal'; value: Literal; datetime?: true; pos: number }
  | { kind: 'property'; path: string[]; pos: number }
  | { kind: 'call'; name: ODataFunction; args: ODataNode[]; pos: number }
  | { kind: 'compare'; op: CompareOp; left: ODataNode; right: ODataNode; pos: number }
  | { kind: 'logical'; op: 'and' | 'or'; left: ODataNode; right: ODataNode; pos: number }
  | { kind: 'not'; operand: ODataNode; pos: number };

export type CompareOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type ODataFunction = 'startswith' | 'endswith' | 'substringof' | 'isof' | 'tolower' | 'toupper' | 'length' | 'trim';

export interface OrderBy {
  path: string[];
  desc: boolean;
}

/** What went wrong and where: `position` is 1-based, counted in characters of the expression. */
export class ODataSyntaxError extends Error {
  constructor(
    readonly position: number,
    readonly problem: string,
  ) {
    super(`${problem} at position ${position}`);
  }
}

const COMPARE = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);

/**
 * How deep parentheses, `not` and function calls may nest. Real filters nest a few levels; the
 * limit keeps the recursive descent far from the stack's end whatever the caller sends.
 */
export const MAX_ODATA_DEPTH = 32;
/** Arity of each function; isof takes (type) or (expression, type). */
const FUNCTIONS: Record<ODataFunction, { min: number; max: number; boolean: boolean }> = {
  startswith: { min: 2, max: 2, boolean: true },
  endswith: { min: 2, max: 2, boolean: true },
  substringof: { min: 2, max: 2, boolean: true },
  isof: { min: 1, max: 2, boolean: true },
  tolower: { min: 1, max: 1, boolean: false },
  toupper: { min: 1, max: 1, boolean: false },
  length: { min: 1, max: 1, boolean: false },
  trim: { min: 1, max: 1, boolean: false },
};

type Token =
  | { t: 'word'; v: string; pos: number }
  | { t: 'string'; v: string; pos: number }
  | { t: 'number'; v: number; pos: number }
  | { t: 'datetime'; v: string; pos: number }
  | { t: 'punct'; v: '(' | ')' | ',' | '/'; pos: number }
  | { t: 'end'; pos: number };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const pos = i + 1;
    if (ch === "'") {
      const [v, next] = readString(src, i);
      out.push({ t: 'string', v, pos });
      i = next;
    } else if ('(),/'.includes(ch)) {
      out.push({ t: 'punct', v: ch as '(' | ')' | ',' | '/', pos });
      i++;
    } else if (/[-\d]/.test(ch)) {
      const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?[mMdDfFlL]?/.exec(src.slice(i));
      if (!m || m[0] === '-') throw new ODataSyntaxError(pos, `unexpected "${ch}"`);
      out.push({ t: 'number', v: Number(m[0].replace(/[mMdDfFlL]$/, '')), pos });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(i))!;
      i += m[0].length;
      if (m[0] === 'datetime' && src[i] === "'") {
        const [v, next] = readString(src, i);
        if (!Number.isFinite(Date.parse(v))) throw new ODataSyntaxError(pos, `datetime'${v}' is not an ISO 8601 date`);
        out.push({ t: 'datetime', v: new Date(Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(v) || !v.includes('T') ? v : `${v}Z`)).toISOString(), pos });
        i = next;
      } else out.push({ t: 'word', v: m[0], pos });
    } else throw new ODataSyntaxError(pos, `unexpected "${ch}"`);
  }
  out.push({ t: 'end', pos: src.length + 1 });
  return out;
}

/** A quoted string from `src[start]` (a quote); '' inside is one quote. Returns the text and the index after it. */
function readString(src: string, start: number): [string, number] {
  let v = '';
  let i = start + 1;
  for (;;) {
    if (i >= src.length) throw new ODataSyntaxError(start + 1, 'unterminated string (close it with \')');
    if (src[i] === "'") {
      if (src[i + 1] === "'") {
        v += "'";
        i += 2;
        continue;
      }
      return [v, i + 1];
    }
    v += src[i++];
  }
}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  /** One level deeper (a parenthesis, a `not`, a function call at `pos`); refused beyond MAX_ODATA_DEPTH. */
  private nested<T>(pos: number, read: () => T): T {
    if (++this.depth > MAX_ODATA_DEPTH) throw new ODataSyntaxError(pos, `the expression nests deeper than ${MAX_ODATA_DEPTH} levels of parentheses, not and function calls: write it flatter`);
    const out = read();
    this.depth--;
    return out;
  }

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private next(): Token {
    return this.tokens[this.i++]!;
  }
  private isWord(v: string): boolean {
    const t = this.peek();
    return t.t === 'word' && t.v.toLowerCase() === v;
  }
  private expectPunct(v: string, what: string): void {
    const t = this.next();
    if (t.t !== 'punct' || t.v !== v) throw new ODataSyntaxError(t.pos, `expected ${what}, found ${describe(t)}`);
  }

  filter(): ODataNode {
    const node = this.or();
    const t = this.peek();
    if (t.t !== 'end') throw new ODataSyntaxError(t.pos, `expected and/or or the end, found ${describe(t)}`);
    assertBoolean(node);
    return node;
  }

  private or(): ODataNode {
    let left = this.and();
    while (this.isWord('or')) {
      const pos = this.next().pos;
      const right = this.and();
      assertBoolean(left);
      assertBoolean(right);
      left = { kind: 'logical', op: 'or', left, right, pos };
    }
    return left;
  }

  private and(): ODataNode {
    let left = this.comparison();
    while (this.isWord('and')) {
      const pos = this.next().pos;
      const right = this.comparison();
      assertBoolean(left);
      assertBoolean(right);
      left = { kind: 'logical', op: 'and', left, right, pos };
    }
    return left;
  }

  private comparison(): ODataNode {
    const left = this.unary();
    const t = this.peek();
    if (t.t === 'word' && COMPARE.has(t.v.toLowerCase())) {
      this.next();
      const right = this.unary();
      const op = t.v.toLowerCase() as CompareOp;
      for (const [side, other] of [[left, right], [right, left]] as const) {
        if (isCondition(side) && other.kind === 'literal' && other.value !== null && typeof other.value !== 'boolean') {
          const hint = side.kind === 'not' ? `: not applies to what follows it alone, so write not (… ${op} …) to negate the comparison` : '';
          throw new ODataSyntaxError(t.pos, `"${op}" cannot compare a condition with ${other.datetime ? 'a datetime' : typeof other.value === 'number' ? 'a number' : 'a text'}${hint}`);
        }
      }
      return { kind: 'compare', op, left, right, pos: t.pos };
    }
    return left;
  }

  private unary(): ODataNode {
    if (this.isWord('not')) {
      const pos = this.next().pos;
      const operand = this.nested(pos, () => this.unary());
      assertBoolean(operand);
      return { kind: 'not', operand, pos };
    }
    return this.primary();
  }

  private primary(): ODataNode {
    const t = this.next();
    switch (t.t) {
      case 'string':
        return { kind: 'literal', value: t.v, pos: t.pos };
      case 'number':
        return { kind: 'literal', value: t.v, pos: t.pos };
      case 'datetime':
        return { kind: 'literal', value: t.v, datetime: true, pos: t.pos };
      case 'punct':
        if (t.v === '(') {
          return this.nested(t.pos, () => {
            const inner = this.or();
            this.expectPunct(')', '")"');
            return inner;
          });
        }
        throw new ODataSyntaxError(t.pos, `expected a property, a literal or a function, found ${describe(t)}`);
      case 'end':
        throw new ODataSyntaxError(t.pos, 'the expression ends too early: expected a property, a literal or a function');
      case 'word': {
        const lower = t.v.toLowerCase();
        if (lower === 'true' || lower === 'false') return { kind: 'literal', value: lower === 'true', pos: t.pos };
        if (lower === 'null') return { kind: 'literal', value: null, pos: t.pos };
        if (COMPARE.has(lower) || lower === 'and' || lower === 'or' || lower === 'not') {
          throw new ODataSyntaxError(t.pos, `"${t.v}" needs an operand before it`);
        }
        const after = this.peek();
        if (after.t === 'punct' && after.v === '(') return this.nested(t.pos, () => this.call(t));
        return { kind: 'property', path: this.pathFrom(t), pos: t.pos };
      }
    }
  }

  private call(name: Extract<Token, { t: 'word' }>): ODataNode {
    const fn = name.v.toLowerCase() as ODataFunction;
    const spec = FUNCTIONS[fn];
    if (!spec) throw new ODataSyntaxError(name.pos, `unknown function "${name.v}" (known: ${Object.keys(FUNCTIONS).join(', ')})`);
    this.next(); // (
    const args: ODataNode[] = [];
    if (!(this.peek().t === 'punct' && (this.peek() as { v: string }).v === ')')) {
      args.push(this.or());
      while (this.peek().t === 'punct' && (this.peek() as { v: string }).v === ',') {
        this.next();
        args.push(this.or());
      }
    }
    this.expectPunct(')', `"," or ")" in ${fn}(…)`);
    if (args.length < spec.min || args.length > spec.max) {
      const n = spec.min === spec.max ? `${spec.min}` : `${spec.min} or ${spec.max}`;
      throw new ODataSyntaxError(name.pos, `${fn}() takes ${n} argument${spec.max === 1 ? '' : 's'}, got ${args.length}`);
    }
    if (fn === 'isof') {
      const type = args[args.length - 1]!;
      if (type.kind !== 'literal' || typeof type.value !== 'string') throw new ODataSyntaxError(type.pos, "isof() takes a type name in quotes, e.g. isof('ShareFile.Api.Models.Folder')");
    }
    return { kind: 'call', name: fn, args, pos: name.pos };
  }

  /** A property path from its first segment on: `Parent/Id`, written without spaces (as ShareFile reads it). */
  private pathFrom(first: Extract<Token, { t: 'word' }>): string[] {
    const path = [first.v];
    let end = first.pos + first.v.length;
    while (this.peek().t === 'punct' && (this.peek() as { v: string }).v === '/') {
      const slash = this.next();
      const seg = this.next();
      if (slash.pos !== end || seg.t !== 'word' || seg.pos !== slash.pos + 1) {
        throw new ODataSyntaxError(slash.pos, `a property path is written without spaces, e.g. Parent/Id`);
      }
      path.push(seg.v);
      end = seg.pos + seg.v.length;
    }
    return path;
  }

  orderby(): OrderBy[] {
    const out: OrderBy[] = [];
    for (;;) {
      const t = this.next();
      if (t.t !== 'word') throw new ODataSyntaxError(t.pos, `expected a property name, found ${describe(t)}`);
      const path = this.pathFrom(t);
      let desc = false;
      if (this.isWord('asc') || this.isWord('desc')) desc = (this.next() as { v: string }).v.toLowerCase() === 'desc';
      out.push({ path, desc });
      const sep = this.next();
      if (sep.t === 'end') return out;
      if (!(sep.t === 'punct' && sep.v === ',')) throw new ODataSyntaxError(sep.pos, `expected "asc", "desc", "," or the end, found ${describe(sep)}`);
    }
  }

  /** Every property path in the tree, with its position (for the callers' name checks). */
  static properties(node: ODataNode, out: { path: string[]; pos: number }[] = []): { path: string[]; pos: number }[] {
    switch (node.kind) {
      case 'property':
        out.push({ path: node.path, pos: node.pos });
        break;
      case 'call':
        node.args.forEach((a) => Parser.properties(a, out));
        break;
      case 'compare':
      case 'logical':
        Parser.properties(node.left, out);
        Parser.properties(node.right, out);
        break;
      case 'not':
        Parser.properties(node.operand, out);
        break;
    }
    return out;
  }
}

function describe(t: Token): string {
  switch (t.t) {
    case 'end':
      return 'the end';
    case 'string':
      return `'${t.v}'`;
    case 'datetime':
      return `datetime'${t.v}'`;
    default:
      return `"${t.v}"`;
  }
}

/** A node that is true or false by its form: a comparison, and/or/not, a boolean function. */
function isCondition(node: ODataNode): boolean {
  return node.kind === 'compare' || node.kind === 'logical' || node.kind === 'not' || (node.kind === 'call' && FUNCTIONS[node.name].boolean);
}

/** and/or/not take conditions: a comparison, a boolean function, a boolean literal or a (boolean) property. */
function assertBoolean(node: ODataNode): void {
  if (node.kind === 'literal' && typeof node.value !== 'boolean') throw new ODataSyntaxError(node.pos, 'expected a condition (e.g. Name eq \'x\'), found a bare value');
  if (node.kind === 'call' && !FUNCTIONS[node.name].boolean) throw new ODataSyntaxError(node.pos, `expected a condition, found ${node.name}(…) alone: compare it, e.g. ${node.name}(Name) eq 'x'`);
}

/** Parses a `$filter` expression; throws ODataSyntaxError. */
export function parseFilter(src: string): ODataNode {
  return new Parser(tokenize(src)).filter();
}

/** Parses a `$orderby` list (`Name asc, CreationDate desc`); throws ODataSyntaxError. */
export function parseOrderBy(src: string): OrderBy[] {
  return new Parser(tokenize(src)).orderby();
}

/** The property paths a filter reads, with their positions. */
export function filterProperties(node: ODataNode): { path: string[]; pos: number }[] {
  return Parser.properties(node);
}
