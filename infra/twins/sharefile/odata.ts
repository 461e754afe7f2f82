import { filterProperties, ODataSyntaxError, parseFilter, parseOrderBy, type ODataNode, type OrderBy } from '../../../functions/filebox/odata';
import { badRequest, type Json } from './http';

/**
 * The OData query options of ShareFile's feeds, evaluated on the twin's rendered entities:
 * `$filter`, `$orderby`, `$skip`, `$top`, `$select`. The grammar is the one the filebox tools
 * check with (functions/filebox/odata.ts): one parser, so the twin refuses exactly what the tools
 * would. String comparisons ignore case, as ShareFile's SQL-backed search does (an assumption).
 */

function read(entity: Json, path: string[]): unknown {
  let cur: unknown = entity;
  for (const p of path) cur = cur && typeof cur === 'object' ? (cur as Json)[p] : undefined;
  return cur;
}

const norm = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const [x, y] = [String(norm(a)), String(norm(b))];
  return x < y ? -1 : x > y ? 1 : 0;
}

function evaluate(node: ODataNode, entity: Json): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'property':
      return read(entity, node.path);
    case 'not':
      return !evaluate(node.operand, entity);
    case 'logical': {
      const left = Boolean(evaluate(node.left, entity));
      return node.op === 'and' ? left && Boolean(evaluate(node.right, entity)) : left || Boolean(evaluate(node.right, entity));
    }
    case 'compare': {
      const a = evaluate(node.left, entity);
      const b = evaluate(node.right, entity);
      if (node.op === 'eq') return (a ?? null) === null || (b ?? null) === null ? (a ?? null) === (b ?? null) : compare(a, b) === 0;
      if (node.op === 'ne') return (a ?? null) === null || (b ?? null) === null ? (a ?? null) !== (b ?? null) : compare(a, b) !== 0;
      if (a === null || a === undefined || b === null || b === undefined) return false;
      const c = compare(a, b);
      return node.op === 'gt' ? c > 0 : node.op === 'ge' ? c >= 0 : node.op === 'lt' ? c < 0 : c <= 0;
    }
    case 'call': {
      const args = node.args.map((a) => evaluate(a, entity));
      const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));
      switch (node.name) {
        case 'startswith':
          return s(args[0]).toLowerCase().startsWith(s(args[1]).toLowerCase());
        case 'endswith':
          return s(args[0]).toLowerCase().endsWith(s(args[1]).toLowerCase());
        case 'substringof':
          return s(args[1]).toLowerCase().includes(s(args[0]).toLowerCase());
        case 'tolower':
          return s(args[0]).toLowerCase();
        case 'toupper':
          return s(args[0]).toUpperCase();
        case 'trim':
          return s(args[0]).trim();
        case 'length':
          return s(args[0]).length;
        case 'isof': {
          const type = s(args[args.length - 1]);
          const target = node.args.length === 2 ? (args[0] as Json | undefined) : entity;
          const actual = s(target?.['odata.type']);
          // Item is the base type of File and Folder.
          return actual === type || (type === 'ShareFile.Api.Models.Item' && /\.(File|Folder|Note|Link)$/.test(actual));
        }
      }
    }
  }
}

function parse<T>(what: '$filter' | '$orderby', src: string, fn: (s: string) => T): T {
  try {
    return fn(src);
  } catch (err) {
    if (err instanceof ODataSyntaxError) throw badRequest(`Invalid ${what} expression: ${err.message}.`);
    throw err;
  }
}

export interface QueryOptions {
  filter?: ODataNode;
  orderby?: OrderBy[];
  skip: number;
  top?: number;
  select?: string[];
}

/** The query options of a request; a malformed one answers 400 as ShareFile does. */
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
  const filter = f ? parse('$filter', f, parseFilter) : undefined;
  if (filter && known) {
    for (const p of filterProperties(filter)) {
      if (!known.includes(p.path[0]!)) throw badRequest(`Invalid $filter expression: unknown property "${p.path.join('/')}" at position ${p.pos}.`);
    }
  }
  return {
    filter,
    orderby: o ? parse('$orderby', o, parseOrderBy) : undefined,
    skip: int('$skip') ?? 0,
    top: int('$top'),
    select: s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined,
  };
}

/** Keeps only the selected properties (and the OData annotations, and Id). */
export function project(entity: Json, select?: string[]): Json {
  if (!select) return entity;
  const out: Json = {};
  for (const [k, v] of Object.entries(entity)) if (k.startsWith('odata.') || k === 'Id' || select.includes(k)) out[k] = v;
  return out;
}

/** Filters, sorts and pages rendered entities: the page, the count before paging, and whether more follow. */
export function applyOptions(entities: Json[], o: QueryOptions): { page: Json[]; count: number; more: boolean } {
  let list = o.filter ? entities.filter((e) => Boolean(evaluate(o.filter!, e))) : entities;
  if (o.orderby) {
    const keys = o.orderby;
    list = [...list].sort((a, b) => {
      for (const k of keys) {
        const c = compare(read(a, k.path), read(b, k.path));
        if (c !== 0) return k.desc ? -c : c;
      }
      return 0;
    });
  }
  const end = o.top === undefined ? list.length : o.skip + o.top;
  return { page: list.slice(o.skip, end).map((e) => project(e, o.select)), count: list.length, more: end < list.length };
}
