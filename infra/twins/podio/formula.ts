/**
 * Calculation fields: Podio's script references fields as `@[Label](field_<field_id>)`. The twin
 * evaluates the arithmetic subset (numbers, field references, + - * /, parentheses) with a small
 * parser — never eval. An empty operand or a division by zero gives no value (null), as Podio
 * leaves the calculation empty.
 */

/** A script the twin cannot read: what is wrong. Callers answer it as Podio's 400, or leave the value empty. */
export class ScriptError extends Error {}

/** How deep parentheses and signs may nest: the parser recurses per level, and no real script nests more than a few. */
export const MAX_SCRIPT_DEPTH = 32;

type Token = { kind: 'num'; value: number } | { kind: 'field'; id: number } | { kind: 'op'; op: string };

function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:@\[[^\]]*\]\(field_(\d+)\)|(\d+(?:\.\d+)?)|([-+*/()]))/y;
  let at = 0;
  while (at < script.length) {
    if (/^\s*$/.test(script.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(script);
    if (!m) throw new ScriptError(`Unsupported calculation script at ${at}: ${script}`);
    if (m[1] !== undefined) tokens.push({ kind: 'field', id: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: 'num', value: Number(m[2]) });
    else tokens.push({ kind: 'op', op: m[3]! });
    at = re.lastIndex;
  }
  return tokens;
}

/** The script's value with `valueOf(field_id)` for references; null when an operand is empty. */
export function evaluateScript(script: string, valueOf: (fieldId: number) => number | null): number | null {
  const tokens = tokenize(script);
  let i = 0;
  const peek = () => tokens[i];
  const isOp = (t: Token | undefined, ops: string): t is { kind: 'op'; op: string } => t?.kind === 'op' && ops.includes(t.op);

  let depth = 0;
  function primary(): number | null {
    if (++depth > MAX_SCRIPT_DEPTH) throw new ScriptError(`Calculation script nests deeper than ${MAX_SCRIPT_DEPTH} levels: ${script.slice(0, 80)}`);
    try {
      return operand();
    } finally {
      depth--;
    }
  }

  function operand(): number | null {
    const t = tokens[i++];
    if (!t) throw new ScriptError(`Calculation script ends early: ${script}`);
    if (t.kind === 'num') return t.value;
    if (t.kind === 'field') return valueOf(t.id);
    if (t.op === '-') {
      const v = primary();
      return v === null ? null : -v;
    }
    if (t.op === '(') {
      const v = sum();
      if (!isOp(tokens[i++], ')')) throw new ScriptError(`Missing ")" in calculation script: ${script}`);
      return v;
    }
    throw new ScriptError(`Unexpected "${t.op}" in calculation script: ${script}`);
  }

  function product(): number | null {
    let v = primary();
    while (isOp(peek(), '*/')) {
      const op = (tokens[i++] as { op: string }).op;
      const r = primary();
      if (v === null || r === null) v = null;
      else if (op === '*') v = v * r;
      else v = r === 0 ? null : v / r;
    }
    return v;
  }

  function sum(): number | null {
    let v = product();
    while (isOp(peek(), '+-')) {
      const op = (tokens[i++] as { op: string }).op;
      const r = product();
      v = v === null || r === null ? null : op === '+' ? v + r : v - r;
    }
    return v;
  }

  const v = sum();
  if (i !== tokens.length) throw new ScriptError(`Unexpected input in calculation script: ${script}`);
  return v;
}
