import { describe, expect, it } from 'vitest';
import { ODataSyntaxError, parseFilter, type ODataNode } from '../../functions/filebox/items/odata';
import { queryOptions } from '../../infra/twins/sharefile/odata';
import { ODATA_CASES } from '../fixtures/odata-expressions';

const literal = (v: unknown, datetime = false): string =>
  datetime ? `datetime'${new Date(v as string | number).toISOString()}'` : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v);

/** The tools' tree as the fixture's s-expression (runs of one and/or flattened). */
function product(n: ODataNode): string {
  switch (n.kind) {
    case 'literal':
      return literal(n.value, n.datetime);
    case 'property':
      return n.path.join('/');
    case 'not':
      return `(not ${product(n.operand)})`;
    case 'compare':
      return `(${n.op} ${product(n.left)} ${product(n.right)})`;
    case 'call':
      return `(${n.name} ${n.args.map(product).join(' ')})`;
    case 'logical': {
      const run = (x: ODataNode): ODataNode[] => (x.kind === 'logical' && x.op === n.op ? [...run(x.left), ...run(x.right)] : [x]);
      return `(${n.op} ${run(n).map(product).join(' ')})`;
    }
  }
}

/** The twin's tree (not exported: read as data) as the same s-expression. */
type TwinExpr = { k: string; [key: string]: any };
function twin(e: TwinExpr): string {
  switch (e.k) {
    case 'literal':
      return literal(e.value, e.kind === 'datetime');
    case 'property':
      return e.path.join('/');
    case 'not':
      return `(not ${twin(e.operand)})`;
    case 'compare':
      return `(${e.op} ${twin(e.left)} ${twin(e.right)})`;
    case 'call':
      return `(${e.name} ${e.args.map(twin).join(' ')})`;
    case 'logic': {
      const run = (x: TwinExpr): TwinExpr[] => (x.k === 'logic' && x.op === e.op ? x.terms.flatMap(run) : [x]);
      return `(${e.op} ${run(e).map(twin).join(' ')})`;
    }
  }
  throw new Error(`unknown node ${e.k}`);
}

function readProduct(expr: string): { tree: string } | { error: number } {
  try {
    return { tree: product(parseFilter(expr)) };
  } catch (err) {
    if (err instanceof ODataSyntaxError) return { error: err.position };
    throw err;
  }
}

function readTwin(expr: string): { tree: string } | { error: number } {
  try {
    return { tree: twin(queryOptions((name) => (name === '$filter' ? expr : undefined)).filter as TwinExpr) };
  } catch (err) {
    const body = (err as { body?: { code?: string; message?: { value?: string } } }).body;
    expect(body?.code, String(err)).toBe('BadRequest');
    const at = /at position (\d+)/.exec(body!.message!.value!);
    expect(at, body!.message!.value).not.toBeNull();
    return { error: Number(at![1]) };
  }
}

describe('OData v3 $filter: the tools and the ShareFile twin read one set of expressions alike', () => {
  for (const c of ODATA_CASES) {
    const label = c.expr.length > 60 ? `${c.expr.slice(0, 57)}… (${c.expr.length} chars)` : c.expr;
    it(label, () => {
      const expected = c.tree !== undefined ? { tree: c.tree } : { error: c.error };
      expect(readProduct(c.expr)).toEqual(expected);
      expect(readTwin(c.expr)).toEqual(expected);
    });
  }

  it('the tools explain why "not A eq \'x\'" is refused and how to write the negation', () => {
    expect(() => parseFilter("not FirstName eq 'a'")).toThrow(/not applies to what follows it alone, so write not \(… eq …\)/);
  });
});
