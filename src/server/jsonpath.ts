// Mirrors k8s.io/client-go util/jsonpath (parser.go, jsonpath.go: Parse, FindResults with
// AllowMissingKeys(true), PrintResults) for the expressions a CRD's additionalPrinterColumns use:
// fields (`.spec.replicas`, `['app.kubernetes.io/name']`), `..` recursive descent, `*`, array
// indexes, slices and unions (`[0]`, `[-1]`, `[1:3]`, `[0,2]`), and filters
// (`[?(@.type=="Ready")]`, `==`, `!=`, `<`, `>`, `<=`, `>=`, or existence). Deliberate difference:
// no templates (`range`, text between actions), which columns never hold; input is decoded JSON.
import { goJsonMarshal, type GoJsonValue, setOwn, compareStrings } from '../engine/http-face';

/** A JSON value as decoded (unstructured content). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

type Literal = { kind: 'literal'; value: string | number | boolean | null };

type Step =
  | { kind: 'field'; names: string[] }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'array'; start?: number; end?: number; step?: number; single: boolean }
  | { kind: 'union'; branches: Step[][] }
  | { kind: 'filter'; left: Step[]; op: string; right: Step[] | Literal };

/** A parsed JSONPath expression. */
export class JsonPath {
  private constructor(private readonly steps: Step[]) {}

  /** Parses `{.spec.replicas}` or `.spec.replicas`; throws JsonPathError. */
  static parse(expression: string): JsonPath {
    let text = expression.trim();
    if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
    if (text.startsWith('$')) text = text.slice(1);
    return new JsonPath(new Parser(text).parsePath(false));
  }

  /** FindResults with AllowMissingKeys(true): the values the path reaches (missing keys: none). */
  findResults(data: JsonValue): JsonValue[] {
    return evalSteps([data], this.steps);
  }
}

export class JsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPathError';
  }
}

/** isTerminator: what ends an identifier. */
function isTerminator(c: string | undefined): boolean {
  return c === undefined || ' \t\r\n.,[]$@{}()=!<>'.includes(c);
}

class Parser {
  private pos = 0;
  constructor(private readonly input: string) {}

  private peek(): string | undefined {
    return this.input[this.pos];
  }

  /** Steps until the end of input, or (inside a filter) until an operator or `)`. */
  parsePath(inFilter: boolean): Step[] {
    const steps: Step[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined) return steps;
      if (inFilter && ' =!<>)'.includes(c)) return steps;
      if (c === '.') {
        if (this.input[this.pos + 1] === '.') {
          this.pos += 1;
          steps.push({ kind: 'recursive' });
          continue;
        }
        this.pos++;
        if (this.peek() === '*') {
          this.pos++;
          steps.push({ kind: 'wildcard' });
          continue;
        }
        const start = this.pos;
        while (!isTerminator(this.peek())) this.pos++;
        const name = this.input.slice(start, this.pos);
        if (name.length > 0) steps.push({ kind: 'field', names: [name] });
        continue;
      }
      if (c === '[') {
        steps.push(this.parseBracket());
        continue;
      }
      if (c === '@' && inFilter) {
        this.pos++;
        continue;
      }
      throw new JsonPathError(
        `unrecognized character in action: U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} '${c}'`,
      );
    }
  }

  private parseBracket(): Step {
    const close = this.findClose();
    const inner = this.input.slice(this.pos + 1, close);
    if (inner.startsWith('?(')) {
      if (!inner.endsWith(')')) throw new JsonPathError('unclosed array expect ]');
      this.pos = close + 1;
      return parseFilter(inner.slice(2, -1));
    }
    this.pos = close + 1;
    if (inner === '*') return { kind: 'wildcard' };
    if (/^\s*['"]/.test(inner)) {
      return { kind: 'field', names: splitUnion(inner).map((q) => unquote(q.trim())) };
    }
    const parts = splitUnion(inner);
    if (parts.length > 1) return { kind: 'union', branches: parts.map((p) => [arrayStep(p)]) };
    return arrayStep(inner);
  }

  /** The `]` matching the `[` at pos (quotes and parentheses skipped). */
  private findClose(): number {
    let depth = 0;
    let quote: string | undefined;
    for (let i = this.pos + 1; i < this.input.length; i++) {
      const c = this.input[i];
      if (quote !== undefined) {
        if (c === quote && this.input[i - 1] !== '\\') quote = undefined;
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      else if (c === ']' && depth === 0) return i;
    }
    throw new JsonPathError('unclosed array expect ]');
  }
}

function splitUnion(s: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote !== undefined) {
      if (c === quote && s[i - 1] !== '\\') quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function unquote(q: string): string {
  const c = q[0];
  if ((c !== '"' && c !== "'") || q[q.length - 1] !== c || q.length < 2)
    throw new JsonPathError(`unterminated quoted string`);
  return q.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** parseArray: `[n]`, `[a:b]`, `[a:b:c]`. */
function arrayStep(text: string): Step {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((p) => p.trim() !== '' && !/^-?\d+$/.test(p.trim())))
    throw new JsonPathError(`invalid array index ${text}`);
  const num = (p: string | undefined): number | undefined =>
    p === undefined || p.trim() === '' ? undefined : Number(p.trim());
  if (parts.length === 1) {
    const i = num(parts[0]);
    if (i === undefined) throw new JsonPathError(`invalid array index ${text}`);
    return { kind: 'array', start: i, end: i + 1, single: true };
  }
  return {
    kind: 'array',
    start: num(parts[0]),
    end: num(parts[1]),
    step: num(parts[2]),
    single: false,
  };
}

/** parseFilter: `left op right`, or an existence test. */
function parseFilter(text: string): Step {
  const m = /^([^!<>=]+)([!<>=]+)(.+?)$/.exec(text);
  if (m === null) return { kind: 'filter', left: parseOperand(text), op: 'exists', right: [] };
  const op = m[2];
  if (!['==', '!=', '<', '>', '<=', '>='].includes(op))
    throw new JsonPathError(`unrecognized filter operator ${op}`);
  const right = m[3].trim();
  return { kind: 'filter', left: parseOperand(m[1]), op, right: literalOrPath(right) };
}

function parseOperand(text: string): Step[] {
  const t = text.trim();
  if (!t.startsWith('@')) throw new JsonPathError(`unrecognized identifier ${t}`);
  return new Parser(t.slice(1)).parsePath(true);
}

function literalOrPath(t: string): Step[] | Literal {
  if (t.startsWith('@')) return parseOperand(t);
  if (t.startsWith('"') || t.startsWith("'")) return { kind: 'literal', value: unquote(t) };
  if (/^-?\d+$/.test(t)) return { kind: 'literal', value: Number(t) };
  if (/^-?\d*\.\d+$|^-?\d+\.\d*$/.test(t)) return { kind: 'literal', value: Number(t) };
  if (t === 'true' || t === 'false') return { kind: 'literal', value: t === 'true' };
  if (t === 'nil' || t === 'null') return { kind: 'literal', value: null };
  throw new JsonPathError(`unrecognized identifier ${t}`);
}

function isObject(v: JsonValue): v is { [k: string]: JsonValue } {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function evalSteps(input: JsonValue[], steps: readonly Step[]): JsonValue[] {
  let cur = input;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (step.kind === 'recursive') {
      // `..x`: x applied to every node below (and at) the current ones.
      const all: JsonValue[] = [];
      for (const v of cur) collect(v, all);
      cur = all;
      continue;
    }
    cur = evalStep(cur, step);
  }
  return cur;
}

function collect(v: JsonValue, out: JsonValue[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const e of v) collect(e, out);
  else if (isObject(v)) for (const k of Object.keys(v).sort(compareStrings)) collect(v[k], out);
}

function evalStep(input: JsonValue[], step: Step): JsonValue[] {
  const out: JsonValue[] = [];
  for (const v of input) {
    switch (step.kind) {
      case 'field':
        if (isObject(v)) for (const n of step.names) if (n in v) out.push(v[n]);
        break;
      case 'wildcard':
        if (Array.isArray(v)) out.push(...v);
        else if (isObject(v)) for (const k of Object.keys(v).sort(compareStrings)) out.push(v[k]);
        break;
      case 'array':
        if (Array.isArray(v)) out.push(...sliceOf(v, step));
        break;
      case 'union':
        for (const b of step.branches) out.push(...evalSteps([v], b));
        break;
      case 'filter':
        if (Array.isArray(v)) for (const e of v) if (passes(e, step)) out.push(e);
        break;
      case 'recursive':
        break;
    }
  }
  return out;
}

function sliceOf(v: JsonValue[], s: Extract<Step, { kind: 'array' }>): JsonValue[] {
  const len = v.length;
  let start = s.start ?? 0;
  if (start < 0) start += len;
  let end = s.end ?? len;
  if (end < 0 || (s.single && s.end === 0)) end += len;
  if (s.single) {
    if (start < 0 || start >= len) return [];
    return [v[start]];
  }
  start = Math.max(0, Math.min(start, len));
  end = Math.max(0, Math.min(end, len));
  const step = s.step ?? 1;
  if (step <= 0) throw new JsonPathError('step must be > 0');
  const out: JsonValue[] = [];
  for (let i = start; i < end; i += step) out.push(v[i]);
  return out;
}

/** evalFilter for one element: an error (two values, mismatched types) counts as no match. */
function passes(e: JsonValue, f: Extract<Step, { kind: 'filter' }>): boolean {
  const lefts = evalSteps([e], f.left);
  if (f.op === 'exists') return lefts.length > 0;
  if (lefts.length !== 1) return false;
  const right = Array.isArray(f.right) ? evalSteps([e], f.right) : [f.right.value];
  if (right.length !== 1) return false;
  const a = lefts[0];
  const b = right[0];
  if (f.op === '==' || f.op === '!=') {
    if (typeof a !== typeof b || (typeof a === 'object' && a !== null)) return false;
    return f.op === '==' ? a === b : a !== b;
  }
  if (typeof a === 'number' && typeof b === 'number') return compare(f.op, a - b);
  if (typeof a === 'string' && typeof b === 'string') return compare(f.op, compareStrings(a, b));
  return false;
}

function compare(op: string, c: number): boolean {
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    default:
      return c >= 0;
  }
}

/** Go's %v of a float64: strconv 'g' with the shortest digits, exponent form below 1e-4 or from 1e6 on. */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, e] = f.toExponential().split('e');
  const exp = Number(e);
  // fmt: "if precision was the shortest possible, use precision 6 for this decision".
  if (exp < -4 || exp >= 6) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(f);
}

/** Unstructured content as Go's json.Marshal writes it: map keys sorted. */
function sortedJson(v: JsonValue): GoJsonValue {
  if (Array.isArray(v)) return v.map(sortedJson);
  if (isObject(v)) {
    const out: Record<string, GoJsonValue> = {};
    for (const k of Object.keys(v).sort(compareStrings)) setOwn(out, k, sortedJson(v[k]));
    return out;
  }
  return v;
}

/**
 * PrintResults of the results: maps and slices as JSON, other values as fmt.Fprint prints them
 * (a JSON null is an invalid reflect.Value: `<no value>`), separated by spaces.
 */
export function printResults(results: readonly JsonValue[]): string {
  return results
    .map((r) => {
      if (r === null) return '<no value>';
      if (typeof r === 'object') return goJsonMarshal(sortedJson(r));
      if (typeof r === 'number') return Number.isInteger(r) ? String(r) : goFormatFloat(r);
      return String(r);
    })
    .join(' ');
}
