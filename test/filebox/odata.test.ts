import { describe, expect, it } from 'vitest';
import { filterProperties, ODataSyntaxError, parseFilter, parseOrderBy } from '../../functions/filebox/items/odata';

const fails = (src: string, position: number, problem: RegExp) => {
  try {
    parseFilter(src);
  } catch (err) {
    expect(err).toBeInstanceOf(ODataSyntaxError);
    expect((err as ODataSyntaxError).position).toBe(position);
    expect((err as ODataSyntaxError).problem).toMatch(problem);
    return;
  }
  throw new Error(`parsed: ${src}`);
};

describe('OData v3 $filter parser', () => {
  it('parses comparisons with and/or/not precedence and parentheses', () => {
    const tree = parseFilter("Name eq 'a' or not (FileSizeBytes gt 10 and CreationDate lt datetime'2026-01-01T00:00:00')");
    expect(tree).toMatchObject({
      kind: 'logical',
      op: 'or',
      left: { kind: 'compare', op: 'eq', left: { kind: 'property', path: ['Name'] }, right: { kind: 'literal', value: 'a' } },
      right: { kind: 'not', operand: { kind: 'logical', op: 'and', right: { kind: 'compare', op: 'lt', right: { kind: 'literal', value: '2026-01-01T00:00:00.000Z', datetime: true } } } },
    });
    expect(parseFilter("a eq 1 and b eq 2 or c eq 3")).toMatchObject({ op: 'or', left: { op: 'and' } });
  });

  it('reads functions, paths, escaped quotes, numbers, booleans and null', () => {
    expect(parseFilter("substringof('O''Brien', Name) eq true")).toMatchObject({ left: { kind: 'call', name: 'substringof', args: [{ value: "O'Brien" }, { path: ['Name'] }] } });
    expect(parseFilter("isof('ShareFile.Api.Models.Folder')")).toMatchObject({ kind: 'call', name: 'isof' });
    expect(parseFilter('Parent/Id ne null')).toMatchObject({ left: { path: ['Parent', 'Id'] }, right: { value: null } });
    expect(parseFilter('FileSizeBytes ge -1.5e3')).toMatchObject({ right: { value: -1500 } });
    expect(parseFilter("tolower(Name) eq 'x' and IsShared")).toMatchObject({ op: 'and', right: { kind: 'property' } });
    expect(filterProperties(parseFilter("startswith(Name,'a') eq true and Parent/Id eq 'x'")).map((p) => [p.path.join('/'), p.pos])).toEqual([['Name', 12], ['Parent/Id', 34]]);
  });

  it('refuses malformed expressions with the 1-based position of the problem', () => {
    fails("Name eq 'x' and", 16, /ends too early/);
    fails("Name eq 'unterminated", 9, /unterminated string/);
    fails('Name eq 1 )', 11, /expected and\/or or the end/);
    fails("Name = 'x'", 6, /unexpected "="/);
    fails("startswith(Name) eq true", 1, /takes 2 arguments, got 1/);
    fails("foo(Name)", 1, /unknown function "foo"/);
    fails("Name eq 'a' and 'b'", 17, /a condition/);
    fails("tolower(Name)", 1, /compare it/);
    fails("isof(Name)", 6, /type name in quotes/);
    fails("eq 'x'", 1, /needs an operand/);
    fails("CreationDate gt datetime'soon'", 17, /not an ISO 8601 date/);
    fails("(Name eq 'x'", 13, /expected "\)"/);
  });
});

describe('OData $orderby parser', () => {
  it('reads properties with directions', () => {
    expect(parseOrderBy('Name, CreationDate desc, Parent/Id asc')).toEqual([
      { path: ['Name'], desc: false },
      { path: ['CreationDate'], desc: true },
      { path: ['Parent', 'Id'], desc: false },
    ]);
  });

  it('refuses a malformed list with the position', () => {
    expect(() => parseOrderBy('Name down')).toThrow(/expected "asc", "desc", "," or the end, found "down" at position 6/);
    expect(() => parseOrderBy('Name,')).toThrow(/expected a property name, found the end at position 6/);
  });
});
