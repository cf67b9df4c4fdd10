// Mirrors Go's encoding/json (Go >= 1.22): Marshal's string escaping and output format, and
// Unmarshal into a flat struct of string/int64 fields, with the scanner's exact error messages, and
// into interface{} (goJsonParse: JSON.parse with Go's U+FFFD for unpaired surrogate escapes).
// JSON.stringify/JSON.parse differ from Go on HTML escaping, U+2028/9, invalid UTF-8, key folding,
// duplicate keys and integer range, and those differences decide whether a continue token is valid.
import { codePoints, decodeRune, decodeUtf8 } from './go-utf8';

// ---------------------------------------------------------------------------------------------
// Marshal

/** A value goJsonMarshal can encode: like a Go struct/slice/string/number/bool/nil. */
export type GoJsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | GoJsonValue[]
  | { [key: string]: GoJsonValue | undefined };

const hex = '0123456789abcdef';

/**
 * Go's appendString: `"` and `\` escaped, \b \f \n \r \t short forms (Go >= 1.22), other control
 * characters as \u00XX (lowercase), `<` `>` `&` as \u003c \u003e \u0026 when escapeHTML, U+2028 and
 * U+2029 escaped, DEL raw, and invalid UTF-8 (a lone surrogate here) as \ufffd.
 */
export function goJsonQuote(s: string, escapeHTML = true): string {
  let out = '"';
  for (const r of codePoints(s)) {
    if (r < 0) {
      out += '\\ufffd';
      continue;
    }
    switch (r) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x2028:
        out += '\\u2028';
        continue;
      case 0x2029:
        out += '\\u2029';
        continue;
    }
    if (r < 0x20 || (escapeHTML && (r === 0x3c || r === 0x3e || r === 0x26))) {
      out += '\\u00' + hex[r >> 4] + hex[r & 0xf];
      continue;
    }
    out += String.fromCodePoint(r);
  }
  return out + '"';
}

/** Go's float64 encoding: shortest round-trip digits, exponent form below 1e-6 and from 1e21. */
function formatFloat(f: number): string {
  if (!Number.isFinite(f))
    throw new Error(
      `json: unsupported value: ${f === Infinity ? '+Inf' : f === -Infinity ? '-Inf' : 'NaN'}`,
    );
  if (Object.is(f, -0)) return '-0';
  // JS's Number#toString uses the same thresholds and shortest digits as Go's 'f'/'e' choice
  // (Go then trims "e-07" to "e-7", which is what JS prints anyway).
  return String(f);
}

/**
 * json.Marshal for plain data in Go's format: no spaces, object keys in insertion order (as a Go
 * struct's fields), undefined properties omitted, bigint as an integer. Returns the JSON text.
 */
export function goJsonMarshal(value: GoJsonValue, opts: { escapeHTML?: boolean } = {}): string {
  const escapeHTML = opts.escapeHTML ?? true;
  return fastMarshal(value, escapeHTML) ?? goJsonMarshalCareful(value, escapeHTML);
}

/**
 * json.MarshalIndent(value, "", "  "): Marshal, then json.Indent, which puts each element and
 * field on a line of its own, a space after each colon, and leaves `{}` and `[]` as they are. No
 * trailing newline (the pretty serializer and WriteRawJSON write these bytes as they are).
 */
export function goJsonMarshalIndent(value: GoJsonValue): string {
  return goJsonIndent(goJsonMarshal(value));
}

/** json.Indent(prefix "", indent "  ") of compact JSON (what goJsonMarshal writes). */
export function goJsonIndent(compact: string): string {
  let out = '';
  let depth = 0;
  let from = 0;
  const newline = (): string => '\n' + '  '.repeat(depth);
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (c === 0x22) {
      // A string: copied as it is, up to its closing quote.
      for (i++; i < compact.length && compact.charCodeAt(i) !== 0x22; i++)
        if (compact.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    let put: string;
    if (c === 0x7b || c === 0x5b) {
      const close = compact.charCodeAt(i + 1);
      // An empty object or array stays on its line.
      if (close === (c === 0x7b ? 0x7d : 0x5d)) {
        i++;
        continue;
      }
      depth++;
      put = compact[i] + newline();
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      put = newline() + compact[i];
    } else if (c === 0x2c) put = ',' + newline();
    else if (c === 0x3a) put = ': ';
    else continue;
    out += compact.slice(from, i) + put;
    from = i + 1;
  }
  return out + compact.slice(from);
}

/** goJsonMarshal one value at a time, Go's rules spelled out (what the fast path is checked against). */
export function goJsonMarshalCareful(value: GoJsonValue, escapeHTML = true): string {
  const enc = (v: GoJsonValue | undefined): string => {
    if (v === null || v === undefined) return 'null';
    switch (typeof v) {
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        return formatFloat(v);
      case 'bigint':
        return v.toString();
      case 'string':
        return goJsonQuote(v, escapeHTML);
    }
    if (Array.isArray(v)) return '[' + v.map(enc).join(',') + ']';
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      parts.push(goJsonQuote(k, escapeHTML) + ':' + enc(x));
    }
    return '{' + parts.join(',') + '}';
  };
  return enc(value);
}

/**
 * True when every number in `v` is one JSON.stringify writes as Go does and there is no bigint:
 * -0, NaN, ±Inf and bigint are where its values differ from Go's (or it throws). A walk of its own
 * before a plain JSON.stringify costs less than a replacer called for every key.
 */
function plainValues(v: unknown): boolean {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) && !(v === 0 && 1 / v < 0);
    case 'bigint':
      return false;
    case 'object':
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!plainValues(v[i])) return false;
        return true;
      }
      for (const k in v) if (!plainValues((v as Record<string, unknown>)[k])) return false;
      return true;
    default:
      return true;
  }
}

const htmlOrLineSeparator = /[<>&\u2028\u2029]/g;
const htmlEscapes: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const separatorOnly = /[\u2028\u2029]/g;
/** Anything of the above, or what could be an escaped lone surrogate: one scan for the common case. */
const mayNeedFixUp = /[<>&\u2028\u2029]|\\u[dD]/;

/**
 * JSON.stringify where it writes what Go writes, undefined elsewhere: the same structure, key
 * order, numbers and escapes (lowercase \u00XX, short forms) for everything but HTML characters and
 * U+2028/9, which are fixed up afterwards (they only occur inside strings), and lone surrogates
 * (escaped by JSON.stringify, \ufffd in Go), -0, non-finite numbers and bigints, which are left to
 * the careful encoder. Pod-sized objects are encoded per watch event, so this is the hot path.
 */
function fastMarshal(value: GoJsonValue, escapeHTML: boolean): string | undefined {
  if (!plainValues(value)) return undefined;
  const out = JSON.stringify(value) as string | undefined;
  if (out === undefined) return undefined; // undefined at the top: Go's nil
  if (!mayNeedFixUp.test(out)) return out;
  // A lone surrogate comes out as \udXXX (a backslash before "ud" can also be an escaped
  // backslash: then the careful path runs for nothing, which is still right).
  if (out.includes('\\ud') || out.includes('\\uD')) return undefined;
  return out.replace(escapeHTML ? htmlOrLineSeparator : separatorOnly, (c) => htmlEscapes[c]);
}

// ---------------------------------------------------------------------------------------------
// Scanner (scanner.go): validates the whole input first, as Unmarshal's checkValid does, so syntax
// errors win over type errors and carry Go's exact wording.

/** Go's *json.SyntaxError: message as Go prints it; offset = bytes read when the error occurred. */
export class GoJsonSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'SyntaxError';
    this.offset = offset;
  }
}

const scanContinue = 0;
const scanBeginLiteral = 1;
const scanBeginObject = 2;
const scanObjectKey = 3;
const scanObjectValue = 4;
const scanEndObject = 5;
const scanBeginArray = 6;
const scanArrayValue = 7;
const scanEndArray = 8;
const scanSkipSpace = 9;
const scanEnd = 10;
const scanError = 11;

const parseObjectKey = 0;
const parseObjectValue = 1;
const parseArrayValue = 2;

// Go's maxNestingDepth: deeper input is a syntax error ("exceeded max depth").
const maxNestingDepth = 10000;

type Step = (s: Scanner, c: number) => number;

class Scanner {
  step: Step = stateBeginValue;
  endTop = false;
  parseState: number[] = [];
  err: GoJsonSyntaxError | undefined;
  bytes = 0;

  eof(): number {
    if (this.err) return scanError;
    if (this.endTop) return scanEnd;
    this.step(this, 0x20);
    if (this.endTop) return scanEnd;
    if (!this.err) this.err = new GoJsonSyntaxError('unexpected end of JSON input', this.bytes);
    return scanError;
  }

  pushParseState(c: number, newParseState: number, successState: number): number {
    this.parseState.push(newParseState);
    if (this.parseState.length <= maxNestingDepth) return successState;
    return this.error(c, 'exceeded max depth');
  }

  popParseState(): void {
    this.parseState.pop();
    if (this.parseState.length === 0) {
      this.step = stateEndTop;
      this.endTop = true;
    } else {
      this.step = stateEndValue;
    }
  }

  error(c: number, context: string): number {
    this.step = stateError;
    this.err = new GoJsonSyntaxError(`invalid character ${quoteChar(c)} ${context}`, this.bytes);
    return scanError;
  }
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean =>
  isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

function stateBeginValueOrEmpty(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace;
  if (c === 0x5d) return stateEndValue(s, c);
  return stateBeginValue(s, c);
}

function stateBeginValue(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace;
  switch (c) {
    case 0x7b:
      s.step = stateBeginStringOrEmpty;
      return s.pushParseState(c, parseObjectKey, scanBeginObject);
    case 0x5b:
      s.step = stateBeginValueOrEmpty;
      return s.pushParseState(c, parseArrayValue, scanBeginArray);
    case 0x22:
      s.step = stateInString;
      return scanBeginLiteral;
    case 0x2d:
      s.step = stateNeg;
      return scanBeginLiteral;
    case 0x30:
      s.step = state0;
      return scanBeginLiteral;
    case 0x74:
      s.step = literal('true', 1);
      return scanBeginLiteral;
    case 0x66:
      s.step = literal('false', 1);
      return scanBeginLiteral;
    case 0x6e:
      s.step = literal('null', 1);
      return scanBeginLiteral;
  }
  if (c >= 0x31 && c <= 0x39) {
    s.step = state1;
    return scanBeginLiteral;
  }
  return s.error(c, 'looking for beginning of value');
}

function stateBeginStringOrEmpty(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace;
  if (c === 0x7d) {
    s.parseState[s.parseState.length - 1] = parseObjectValue;
    return stateEndValue(s, c);
  }
  return stateBeginString(s, c);
}

function stateBeginString(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace;
  if (c === 0x22) {
    s.step = stateInString;
    return scanBeginLiteral;
  }
  return s.error(c, 'looking for beginning of object key string');
}

function stateEndValue(s: Scanner, c: number): number {
  const n = s.parseState.length;
  if (n === 0) {
    s.step = stateEndTop;
    s.endTop = true;
    return stateEndTop(s, c);
  }
  if (isSpace(c)) {
    s.step = stateEndValue;
    return scanSkipSpace;
  }
  switch (s.parseState[n - 1]) {
    case parseObjectKey:
      if (c === 0x3a) {
        s.parseState[n - 1] = parseObjectValue;
        s.step = stateBeginValue;
        return scanObjectKey;
      }
      return s.error(c, 'after object key');
    case parseObjectValue:
      if (c === 0x2c) {
        s.parseState[n - 1] = parseObjectKey;
        s.step = stateBeginString;
        return scanObjectValue;
      }
      if (c === 0x7d) {
        s.popParseState();
        return scanEndObject;
      }
      return s.error(c, 'after object key:value pair');
    default:
      if (c === 0x2c) {
        s.step = stateBeginValue;
        return scanArrayValue;
      }
      if (c === 0x5d) {
        s.popParseState();
        return scanEndArray;
      }
      return s.error(c, 'after array element');
  }
}

function stateEndTop(s: Scanner, c: number): number {
  // Go records the error but still answers scanEnd; checkValid then sees s.err at eof/next step.
  if (!isSpace(c)) s.error(c, 'after top-level value');
  return scanEnd;
}

function stateInString(s: Scanner, c: number): number {
  if (c === 0x22) {
    s.step = stateEndValue;
    return scanContinue;
  }
  if (c === 0x5c) {
    s.step = stateInStringEsc;
    return scanContinue;
  }
  if (c < 0x20) return s.error(c, 'in string literal');
  return scanContinue;
}

function stateInStringEsc(s: Scanner, c: number): number {
  switch (c) {
    case 0x62:
    case 0x66:
    case 0x6e:
    case 0x72:
    case 0x74:
    case 0x5c:
    case 0x2f:
    case 0x22:
      s.step = stateInString;
      return scanContinue;
    case 0x75:
      s.step = escU(0);
      return scanContinue;
  }
  return s.error(c, 'in string escape code');
}

const escUSteps: Step[] = [0, 1, 2, 3].map((i) => (s: Scanner, c: number): number => {
  if (isHex(c)) {
    s.step = i === 3 ? stateInString : escU(i + 1);
    return scanContinue;
  }
  return s.error(c, 'in \\u hexadecimal character escape');
});
function escU(i: number): Step {
  return escUSteps[i];
}

function stateNeg(s: Scanner, c: number): number {
  if (c === 0x30) {
    s.step = state0;
    return scanContinue;
  }
  if (c >= 0x31 && c <= 0x39) {
    s.step = state1;
    return scanContinue;
  }
  return s.error(c, 'in numeric literal');
}

function state1(s: Scanner, c: number): number {
  if (isDigit(c)) {
    s.step = state1;
    return scanContinue;
  }
  return state0(s, c);
}

function state0(s: Scanner, c: number): number {
  if (c === 0x2e) {
    s.step = stateDot;
    return scanContinue;
  }
  if (c === 0x65 || c === 0x45) {
    s.step = stateE;
    return scanContinue;
  }
  return stateEndValue(s, c);
}

function stateDot(s: Scanner, c: number): number {
  if (isDigit(c)) {
    s.step = stateDot0;
    return scanContinue;
  }
  return s.error(c, 'after decimal point in numeric literal');
}

function stateDot0(s: Scanner, c: number): number {
  if (isDigit(c)) return scanContinue;
  if (c === 0x65 || c === 0x45) {
    s.step = stateE;
    return scanContinue;
  }
  return stateEndValue(s, c);
}

function stateE(s: Scanner, c: number): number {
  if (c === 0x2b || c === 0x2d) {
    s.step = stateESign;
    return scanContinue;
  }
  return stateESign(s, c);
}

function stateESign(s: Scanner, c: number): number {
  if (isDigit(c)) {
    s.step = stateE0;
    return scanContinue;
  }
  return s.error(c, 'in exponent of numeric literal');
}

function stateE0(s: Scanner, c: number): number {
  if (isDigit(c)) return scanContinue;
  return stateEndValue(s, c);
}

// stateT/stateTr/stateTru, stateF…, stateN…: one step per remaining letter of the literal.
const literalSteps = new Map<string, Step>();
function literal(word: string, i: number): Step {
  const id = `${word}/${i}`;
  let step = literalSteps.get(id);
  if (!step) {
    step = (s: Scanner, c: number): number => {
      if (c === word.charCodeAt(i)) {
        s.step = i + 1 === word.length ? stateEndValue : literal(word, i + 1);
        return scanContinue;
      }
      return s.error(c, `in literal ${word} (expecting '${word[i]}')`);
    };
    literalSteps.set(id, step);
  }
  return step;
}

function stateError(): number {
  return scanError;
}

/** Go's quoteChar: the byte as strconv.Quote(string(rune(c))) would print it, in single quotes. */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  if (c === 0x5c) return "'\\\\'";
  const short: Record<number, string> = {
    7: '\\a',
    8: '\\b',
    12: '\\f',
    10: '\\n',
    13: '\\r',
    9: '\\t',
    11: '\\v',
  };
  if (short[c] !== undefined) return `'${short[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${hex[c >> 4]}${hex[c & 0xf]}'`;
  if (c < 0x7f) return `'${String.fromCharCode(c)}'`;
  // A byte >= 0x80 becomes the rune U+0080..U+00FF; strconv.IsPrint is false for the C1 controls,
  // NO-BREAK SPACE and SOFT HYPHEN, which Quote prints as \u00XX.
  if (c <= 0xa0 || c === 0xad) return `'\\u00${hex[c >> 4]}${hex[c & 0xf]}'`;
  return `'${String.fromCharCode(c)}'`;
}

/** json.Valid's checkValid: undefined when data is one well-formed JSON value, else Go's error. */
export function goJsonCheckValid(data: Uint8Array): GoJsonSyntaxError | undefined {
  const scan = new Scanner();
  for (const c of data) {
    scan.bytes++;
    if (scan.step(scan, c) === scanError) return scan.err;
  }
  if (scan.eof() === scanError) return scan.err;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Unmarshal into interface{} (decode.go), on input checkValid has accepted.

// An escaped surrogate (`\ud800`), the only way a JSON text in UTF-8 can spell a lone one.
const escapedSurrogate = /\\u[dD][89a-fA-F]/;
// Every escape in order (outside strings valid JSON has no backslash): a surrogate pair, a lone
// surrogate, or any other escape (`\\` among them, so `\\ud800` is no surrogate).
const jsonEscape =
  /\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}|\\u(d[89a-f])[0-9a-f]{2}|\\u[0-9a-f]{4}|\\[^u]/gi;

/**
 * json.Unmarshal into an interface{} (maps, slices, float64s) of data checkValid has accepted:
 * JSON.parse, with Go's decoding of strings: an escaped surrogate without its pair becomes U+FFFD
 * (Go's unquote), in keys and values. Invalid UTF-8 is replaced as TextDecoder does (a maximal bad
 * sequence is one U+FFFD; Go writes one per byte).
 */
export function goJsonParse(data: Uint8Array): unknown {
  const text = new TextDecoder().decode(data);
  if (!escapedSurrogate.test(text)) return JSON.parse(text) as unknown;
  return JSON.parse(
    text.replace(jsonEscape, (m: string, lone: string | undefined) =>
      lone === undefined ? m : '\\ufffd',
    ),
  ) as unknown;
}

// ---------------------------------------------------------------------------------------------
// Unmarshal into a struct (decode.go), on input checkValid has accepted.

/** Go's *json.UnmarshalTypeError with the struct/field context Unmarshal adds. */
export class GoJsonUnmarshalTypeError extends Error {
  /** "string", "number", "number 5.5", "bool", "array", "object". */
  readonly value: string;
  /** The Go type's String(), e.g. "int64" or "storage.continueToken". */
  readonly type: string;
  readonly struct: string;
  readonly field: string;
  constructor(value: string, type: string, struct = '', field = '') {
    super(
      struct !== '' || field !== ''
        ? `json: cannot unmarshal ${value} into Go struct field ${struct}.${field} of type ${type}`
        : `json: cannot unmarshal ${value} into Go value of type ${type}`,
    );
    this.name = 'UnmarshalTypeError';
    this.value = value;
    this.type = type;
    this.struct = struct;
    this.field = field;
  }
}

/** One struct field: its JSON name (the tag) and its Go kind. */
export interface GoStructField {
  name: string;
  kind: 'string' | 'int64';
}

/** A Go struct type: package and type name give the messages' `storage.continueToken`. */
export interface GoStructType {
  pkg: string;
  name: string;
  fields: GoStructField[];
}

export interface GoStructDecodeResult {
  /** Field values as Unmarshal left them (zero values: '' and 0n), even when error is set. */
  values: Record<string, string | bigint>;
  /** Unmarshal's error: a syntax error (nothing decoded) or the first type error. */
  error?: GoJsonSyntaxError | GoJsonUnmarshalTypeError;
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/**
 * json.Unmarshal(data, &v) for a flat struct of string/int64 fields: exact key match first, then
 * Unicode simple case folding (so "ſtart" matches start); the last duplicate wins; unknown keys are
 * skipped; null leaves a field unchanged; the first type error is reported after decoding the rest.
 */
export function goJsonUnmarshalStruct(data: Uint8Array, type: GoStructType): GoStructDecodeResult {
  const values: Record<string, string | bigint> = {};
  for (const f of type.fields) values[f.name] = f.kind === 'string' ? '' : 0n;
  const syntax = goJsonCheckValid(data);
  if (syntax) return { values, error: syntax };

  let saved: GoJsonUnmarshalTypeError | undefined;
  const save = (e: GoJsonUnmarshalTypeError): void => {
    if (!saved) saved = e;
  };
  const typeName = `${type.pkg}.${type.name}`;
  let i = skipSpace(data, 0);
  const c = data[i];
  if (c === 0x7b) {
    i = skipSpace(data, i + 1);
    if (data[i] === 0x7d) return { values };
    for (;;) {
      const key = readString(data, i);
      i = skipSpace(data, key.end);
      i = skipSpace(data, i + 1); // ':'
      const field =
        type.fields.find((f) => f.name === key.value) ??
        type.fields.find((f) => foldEqual(f.name, key.value));
      if (field) {
        i = storeField(data, i, field, values, (e) => save(e), type.name);
      } else {
        i = skipValue(data, i);
      }
      i = skipSpace(data, i);
      if (data[i] === 0x7d) break;
      i = skipSpace(data, i + 1); // ','
    }
  } else {
    // A non-object top level value: null is a no-op; anything else cannot fill a struct.
    const kind =
      c === 0x5b
        ? 'array'
        : c === 0x22
          ? 'string'
          : c === 0x74 || c === 0x66
            ? 'bool'
            : c === 0x6e
              ? undefined
              : 'number';
    if (kind) save(new GoJsonUnmarshalTypeError(kind, typeName));
  }
  return saved ? { values, error: saved } : { values };
}

/** Decodes the value at data[i] into field f; returns the index after the value. */
function storeField(
  data: Uint8Array,
  i: number,
  f: GoStructField,
  values: Record<string, string | bigint>,
  save: (e: GoJsonUnmarshalTypeError) => void,
  structName: string,
): number {
  const c = data[i];
  const typeErr = (value: string): void =>
    save(new GoJsonUnmarshalTypeError(value, f.kind, structName, f.name));
  if (c === 0x7b || c === 0x5b) {
    typeErr(c === 0x7b ? 'object' : 'array');
    return skipValue(data, i);
  }
  if (c === 0x22) {
    const s = readString(data, i);
    if (f.kind === 'string') values[f.name] = s.value;
    else typeErr('string');
    return s.end;
  }
  const end = literalEnd(data, i);
  if (c === 0x6e) return end; // null: Go leaves strings and integers unchanged
  if (c === 0x74 || c === 0x66) {
    typeErr('bool');
    return end;
  }
  const text = decodeUtf8(data, i, end);
  if (f.kind === 'string') {
    typeErr('number');
    return end;
  }
  // strconv.ParseInt(s, 10, 64): a fraction or exponent, or a value outside int64, is a type error.
  if (!/^-?\d+$/.test(text)) {
    typeErr(`number ${text}`);
    return end;
  }
  const n = BigInt(text);
  if (n < int64Min || n > int64Max) typeErr(`number ${text}`);
  else values[f.name] = n;
  return end;
}

function skipSpace(data: Uint8Array, i: number): number {
  while (i < data.length && isSpace(data[i])) i++;
  return i;
}

/** End of a number or true/false/null starting at i (input already validated). */
function literalEnd(data: Uint8Array, i: number): number {
  while (i < data.length) {
    const c = data[i];
    if (
      isDigit(c) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x2e ||
      c === 0x2b ||
      c === 0x2d ||
      c === 0x45
    )
      i++;
    else break;
  }
  return i;
}

/** Skips any value starting at i without recursion (depth can reach 10000). */
function skipValue(data: Uint8Array, i: number): number {
  let depth = 0;
  do {
    i = skipSpace(data, i);
    const c = data[i];
    if (c === 0x22) i = skipString(data, i);
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      i++;
    } else if (c === 0x2c || c === 0x3a) i++;
    else i = literalEnd(data, i);
  } while (depth > 0);
  return i;
}

function skipString(data: Uint8Array, i: number): number {
  for (i++; data[i] !== 0x22; i++) if (data[i] === 0x5c) i++;
  return i + 1;
}

function getu4(data: Uint8Array, i: number, end: number): number {
  if (i + 6 > end || data[i] !== 0x5c || data[i + 1] !== 0x75) return -1;
  let r = 0;
  for (let k = i + 2; k < i + 6; k++) {
    const c = data[k];
    if (!isHex(c)) return -1;
    r = r * 16 + parseInt(String.fromCharCode(c), 16);
  }
  return r;
}

/**
 * Go's unquote for the string literal at data[i]: escapes decoded, an unpaired surrogate escape and
 * every invalid UTF-8 byte become U+FFFD.
 */
function readString(data: Uint8Array, i: number): { value: string; end: number } {
  const end = skipString(data, i) - 1; // index of the closing quote
  let out = '';
  let r = i + 1;
  while (r < end) {
    const c = data[r];
    if (c === 0x5c) {
      const e = data[r + 1];
      const simple: Record<number, string> = {
        0x22: '"',
        0x5c: '\\',
        0x2f: '/',
        0x62: '\b',
        0x66: '\f',
        0x6e: '\n',
        0x72: '\r',
        0x74: '\t',
      };
      if (simple[e] !== undefined) {
        out += simple[e];
        r += 2;
        continue;
      }
      // \uXXXX, possibly a surrogate pair.
      let rr = getu4(data, r, end);
      r += 6;
      if (rr >= 0xd800 && rr < 0xe000) {
        const rr1 = getu4(data, r, end);
        if (rr < 0xdc00 && rr1 >= 0xdc00 && rr1 < 0xe000) {
          out += String.fromCodePoint(((rr - 0xd800) << 10) + (rr1 - 0xdc00) + 0x10000);
          r += 6;
          continue;
        }
        rr = 0xfffd;
      }
      out += String.fromCodePoint(rr);
      continue;
    }
    const { rune, size } = decodeRune(data.subarray(0, end), r);
    out += String.fromCodePoint(rune);
    r += size;
  }
  return { value: out, end: end + 1 };
}

const foldCache = new Map<number, RegExp>();

/** Two runes are equal under Unicode simple case folding (Go's unicode.SimpleFold orbits). */
function foldEqualRune(a: number, b: number): boolean {
  if (a === b) return true;
  if (a < 0x80 && b < 0x80) {
    const up = (x: number): number => (x >= 0x61 && x <= 0x7a ? x - 0x20 : x);
    return up(a) === up(b);
  }
  // The `iu` flags make a RegExp compare by CaseFolding.txt's simple/common mappings, i.e. the
  // same equivalence classes Go's SimpleFold iterates (so U+017F ſ ~ s, U+212A Kelvin ~ k).
  let re = foldCache.get(a);
  if (!re) {
    re = new RegExp(`^\\u{${a.toString(16)}}$`, 'iu');
    foldCache.set(a, re);
  }
  return re.test(String.fromCodePoint(b));
}

/** Go's foldName(x) == foldName(y): same rune count and each rune pair fold-equal. */
export function foldEqual(x: string, y: string): boolean {
  const a = codePoints(x);
  const b = codePoints(y);
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (!foldEqualRune(a[k], b[k])) return false;
  return true;
}
