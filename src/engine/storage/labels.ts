// Mirrors k8s.io/apimachinery pkg/labels/selector.go (+ api/validate/content label key/value rules) (release-1.36).
// Written here rather than taken from npm: the only Kubernetes label-selector package there
// (kubernetes-label-selector) is an AngularJS widget that neither lexes like upstream nor
// reproduces its validation messages, and the client libraries do not parse selectors at all.
// Deliberate differences: requirements with equal keys keep their input order (upstream's
// sort.Sort is unstable for more than 12 requirements); lengths are UTF-8 bytes as in Go.
import {
  FieldErrorList,
  FieldPath,
  childOf,
  invalid,
  notSupported,
  type FieldError,
} from './field-errors';
import { compareStrings, parseInt64, utf8Length } from './go-strings';

/** A set of labels (labels.Set). */
export type Labels = Readonly<Record<string, string>>;

/** selection.Operator values. */
export const Operator = {
  DoesNotExist: '!',
  Equals: '=',
  DoubleEquals: '==',
  In: 'in',
  NotEquals: '!=',
  NotIn: 'notin',
  Exists: 'exists',
  GreaterThan: 'gt',
  LessThan: 'lt',
} as const;
export type Operator = (typeof Operator)[keyof typeof Operator];

const binaryOperators: readonly string[] = [
  Operator.In,
  Operator.NotIn,
  Operator.Equals,
  Operator.DoubleEquals,
  Operator.NotEquals,
  Operator.GreaterThan,
  Operator.LessThan,
];
const validRequirementOperators: readonly string[] = [
  ...binaryOperators,
  Operator.Exists,
  Operator.DoesNotExist,
];

function lookup(ls: Labels, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(ls, key) ? ls[key] : undefined;
}

/** sort.Strings without mutating the input (upstream safeSort). */
function safeSort(values: readonly string[]): readonly string[] {
  for (let i = 1; i < values.length; i++) {
    if (compareStrings(values[i - 1], values[i]) > 0) return [...values].sort(compareStrings);
  }
  return values;
}

/** labels.Requirement: key, operator and values. Build it with newRequirement. */
export class Requirement {
  constructor(
    readonly key: string,
    readonly operator: Operator,
    readonly strValues: readonly string[],
  ) {}

  private hasValue(v: string): boolean {
    return this.strValues.includes(v);
  }

  matches(ls: Labels): boolean {
    switch (this.operator) {
      case Operator.In:
      case Operator.Equals:
      case Operator.DoubleEquals: {
        const v = lookup(ls, this.key);
        return v !== undefined && this.hasValue(v);
      }
      case Operator.NotIn:
      case Operator.NotEquals: {
        const v = lookup(ls, this.key);
        return v === undefined || !this.hasValue(v);
      }
      case Operator.Exists:
        return lookup(ls, this.key) !== undefined;
      case Operator.DoesNotExist:
        return lookup(ls, this.key) === undefined;
      case Operator.GreaterThan:
      case Operator.LessThan: {
        const v = lookup(ls, this.key);
        if (v === undefined || this.strValues.length !== 1) return false;
        let lsValue: bigint, rValue: bigint;
        try {
          lsValue = parseInt64(v);
          rValue = parseInt64(this.strValues[0]);
        } catch {
          return false;
        }
        return this.operator === Operator.GreaterThan ? lsValue > rValue : lsValue < rValue;
      }
      default:
        return false;
    }
  }

  /** The values as a sorted set (Requirement.Values). */
  values(): string[] {
    return [...new Set(this.strValues)].sort(compareStrings);
  }

  equal(x: Requirement): boolean {
    return (
      this.key === x.key &&
      this.operator === x.operator &&
      this.strValues.length === x.strValues.length &&
      this.strValues.every((v, i) => v === x.strValues[i])
    );
  }

  /** The requirement in selector syntax, values sorted (`x in (a,b)`, `!x`, `x>1`). */
  string(): string {
    let s = this.operator === Operator.DoesNotExist ? '!' + this.key : this.key;
    switch (this.operator) {
      case Operator.Equals:
        s += '=';
        break;
      case Operator.DoubleEquals:
        s += '==';
        break;
      case Operator.NotEquals:
        s += '!=';
        break;
      case Operator.In:
        s += ' in ';
        break;
      case Operator.NotIn:
        s += ' notin ';
        break;
      case Operator.GreaterThan:
        s += '>';
        break;
      case Operator.LessThan:
        s += '<';
        break;
      case Operator.Exists:
      case Operator.DoesNotExist:
        return s;
    }
    const paren = this.operator === Operator.In || this.operator === Operator.NotIn;
    if (paren) s += '(';
    s += this.strValues.length === 1 ? this.strValues[0] : safeSort(this.strValues).join(',');
    if (paren) s += ')';
    return s;
  }
}

// --- validation (content.IsLabelKey / IsLabelValue) ---

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyRegexp = new RegExp('^' + labelKeyFmt + '$');
const labelValueFmt = '(' + labelKeyFmt + ')?';
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRegexp = new RegExp('^' + labelValueFmt + '$');
const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = dns1123LabelFmt + '(\\.' + dns1123LabelFmt + ')*';
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRegexp = new RegExp('^' + dns1123SubdomainFmt + '$');

function maxLenError(n: number): string {
  return `must be no more than ${n} bytes`;
}

/** content.RegexError, including upstream's `'x',  or 'y', ` spacing. */
function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let s = msg + ' (e.g. ';
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return s + `regex used for validation is '${re}')`;
}

/** content.IsDNS1123Subdomain: a lowercase RFC 1123 subdomain of at most 253 bytes. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 253) errs.push(maxLenError(253));
  if (!dns1123SubdomainRegexp.test(value))
    errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** content.IsLabelKey: `[prefix/]name`, prefix a DNS subdomain, name ≤ 63 bytes. */
export function isLabelKey(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of isDNS1123Subdomain(prefix)) errs.push('prefix part ' + m);
  } else {
    return [
      'a valid label key ' +
        regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (utf8Length(name) > 63) errs.push('name part ' + maxLenError(63));
  if (!labelKeyRegexp.test(name))
    errs.push(
      'name part ' + regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc'),
    );
  return errs;
}

/** content.IsLabelValue: empty, or ≤ 63 bytes of `[A-Za-z0-9][-A-Za-z0-9_.]*[A-Za-z0-9]`. */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > 63) errs.push(maxLenError(63));
  if (!labelValueRegexp.test(value))
    errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

function validateLabelKey(k: string, path: FieldPath | null): FieldError | undefined {
  const errs = isLabelKey(k);
  return errs.length ? invalid(path, k, errs.join('; ')) : undefined;
}

function validateLabelValue(k: string, v: string, path: FieldPath): FieldError | undefined {
  const errs = isLabelValue(v);
  return errs.length ? invalid(path.key(k), v, errs.join('; ')) : undefined;
}

/**
 * labels.NewRequirement: validates the key, the operator/value count and every value; throws a
 * FieldErrorList (the aggregated field.ErrorList, e.g. `values[0][x]: Invalid value: "a b": …`).
 */
export function newRequirement(
  key: string,
  op: Operator,
  vals: readonly string[],
  path: FieldPath | null = null,
): Requirement {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, childOf(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const valuePath = childOf(path, 'values');
  switch (op) {
    case Operator.In:
    case Operator.NotIn:
      if (vals.length === 0)
        errs.push(
          invalid(valuePath, vals, "for 'in', 'notin' operators, values set can't be empty"),
        );
      break;
    case Operator.Equals:
    case Operator.DoubleEquals:
    case Operator.NotEquals:
      if (vals.length !== 1)
        errs.push(invalid(valuePath, vals, 'exact-match compatibility requires one single value'));
      break;
    case Operator.Exists:
    case Operator.DoesNotExist:
      if (vals.length !== 0)
        errs.push(
          invalid(valuePath, vals, 'values set must be empty for exists and does not exist'),
        );
      break;
    case Operator.GreaterThan:
    case Operator.LessThan:
      if (vals.length !== 1)
        errs.push(
          invalid(valuePath, vals, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      vals.forEach((v, i) => {
        try {
          parseInt64(v);
        } catch {
          errs.push(
            invalid(
              valuePath.index(i),
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      });
      break;
    default:
      errs.push(notSupported(childOf(path, 'operator'), op, validRequirementOperators));
  }
  vals.forEach((v, i) => {
    const e = validateLabelValue(key, v, valuePath.index(i));
    if (e) errs.push(e);
  });
  if (errs.length > 0) throw new FieldErrorList(errs);
  return new Requirement(key, op, [...vals]);
}

// --- selectors ---

/** labels.Selector. */
export interface Selector {
  /** Whether the selector matches the given labels. */
  matches(ls: Labels): boolean;
  /** Whether the selector does not restrict the selection space. */
  empty(): boolean;
  /** The selector in parseable syntax (requirements sorted by key, values sorted). */
  string(): string;
  /** A new selector with the requirements added (re-sorted by key). */
  add(...reqs: Requirement[]): Selector;
  /** The requirements, and false when the selector selects nothing. */
  requirements(): { requirements: readonly Requirement[]; selectable: boolean };
  /** The single value a label must have for the selector to match, if the selector requires one. */
  requiresExactMatch(label: string): string | undefined;
}
export type LabelSelector = Selector;

function sortByKey(reqs: Requirement[]): Requirement[] {
  // Array.prototype.sort is stable; see the header for why that differs upstream.
  return reqs.sort((a, b) => compareStrings(a.key, b.key));
}

/** internalSelector: an AND of requirements, sorted by key. */
export class InternalSelector implements Selector {
  constructor(readonly reqs: readonly Requirement[]) {}

  matches(ls: Labels): boolean {
    for (const r of this.reqs) if (!r.matches(ls)) return false;
    return true;
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  string(): string {
    return this.reqs.map((r) => r.string()).join(',');
  }

  add(...reqs: Requirement[]): Selector {
    return new InternalSelector(sortByKey([...this.reqs, ...reqs]));
  }

  requirements(): { requirements: readonly Requirement[]; selectable: boolean } {
    return { requirements: this.reqs, selectable: true };
  }

  requiresExactMatch(label: string): string | undefined {
    for (const r of this.reqs) {
      if (r.key !== label) continue;
      if (
        (r.operator === Operator.Equals ||
          r.operator === Operator.DoubleEquals ||
          r.operator === Operator.In) &&
        r.strValues.length === 1
      ) {
        return r.strValues[0];
      }
      return undefined;
    }
    return undefined;
  }
}

class NothingSelector implements Selector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  string(): string {
    return '';
  }
  add(): Selector {
    return this;
  }
  requirements(): { requirements: readonly Requirement[]; selectable: boolean } {
    return { requirements: [], selectable: false };
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
}

const sharedEverything = new InternalSelector([]);
const sharedNothing = new NothingSelector();

/** A selector that matches all labels (and is empty). */
export function everything(): Selector {
  return sharedEverything;
}

/** A selector that matches nothing (and is not empty). */
export function nothing(): Selector {
  return sharedNothing;
}

/** Whether the selector is known to match nothing (only nothing() today, as upstream). */
export function matchesNothing(s: Selector): boolean {
  return s === sharedNothing;
}

/** A selector matching exactly the given set (no validation). An empty set selects everything. */
export function selectorFromSet(set: Labels): Selector {
  const reqs = Object.keys(set).map((k) => new Requirement(k, Operator.Equals, [set[k]]));
  return new InternalSelector(sortByKey(reqs));
}

/** Like selectorFromSet, but validates every key and value (throws FieldErrorList). */
export function validatedSelectorFromSet(set: Labels): Selector {
  const reqs = Object.keys(set).map((k) => newRequirement(k, Operator.Equals, [set[k]]));
  return new InternalSelector(sortByKey(reqs));
}

// --- lexer ---

/** Lexer tokens (labels.Token). */
export const Token = {
  ErrorToken: 0,
  EndOfStringToken: 1,
  ClosedParToken: 2,
  CommaToken: 3,
  DoesNotExistToken: 4,
  DoubleEqualsToken: 5,
  EqualsToken: 6,
  GreaterThanToken: 7,
  IdentifierToken: 8,
  InToken: 9,
  LessThanToken: 10,
  NotEqualsToken: 11,
  NotInToken: 12,
  OpenParToken: 13,
} as const;
export type Token = (typeof Token)[keyof typeof Token];

const string2token: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', Token.ClosedParToken],
  [',', Token.CommaToken],
  ['!', Token.DoesNotExistToken],
  ['==', Token.DoubleEqualsToken],
  ['=', Token.EqualsToken],
  ['>', Token.GreaterThanToken],
  ['in', Token.InToken],
  ['<', Token.LessThanToken],
  ['!=', Token.NotEqualsToken],
  ['notin', Token.NotInToken],
  ['(', Token.OpenParToken],
]);

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return (
    ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<'
  );
}

/**
 * labels.Lexer. Like Go's byte reader, a NUL character is consumed as "end": where a token starts
 * it is the end of the input (`x \0,y` is just `x`), inside an identifier it ends the identifier.
 */
export class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++];
    return '\0';
  }

  private unread(): void {
    this.pos--;
  }

  private scanIDOrKeyword(): [Token, string] {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    const tok = string2token.get(buffer);
    return tok !== undefined ? [tok, buffer] : [Token.IdentifierToken, buffer];
  }

  private scanSpecialSymbol(): [Token, string] {
    let last: [Token, string] = [Token.ErrorToken, ''];
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch)) {
        buffer += ch;
        const tok = string2token.get(buffer);
        if (tok !== undefined) last = [tok, buffer];
        else if (last[0] !== Token.ErrorToken) {
          this.unread();
          break;
        }
      } else {
        this.unread();
        break;
      }
    }
    if (last[0] === Token.ErrorToken)
      return [Token.ErrorToken, `error expected: keyword found '${buffer}'`];
    return last;
  }

  /** The next token and its literal. */
  lex(): [Token, string] {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '\0') return [Token.EndOfStringToken, ''];
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIDOrKeyword();
  }
}

// --- parser ---

/** ParserContext: whether `in`/`notin` are operators (KeyAndOperator) or plain values (Values). */
export const ParserContext = { KeyAndOperator: 0, Values: 1 } as const;
export type ParserContext = (typeof ParserContext)[keyof typeof ParserContext];

/** labels.Parser: a recursive-descent parser over the scanned tokens. Errors are plain Errors with upstream's text. */
export class Parser {
  private scannedItems: [Token, string][] = [];
  private position = 0;

  constructor(
    private readonly l: Lexer,
    private readonly path: FieldPath | null = null,
  ) {}

  /** Lexes the whole input up to and including EndOfStringToken. */
  scan(): void {
    for (;;) {
      const item = this.l.lex();
      this.scannedItems.push(item);
      if (item[0] === Token.EndOfStringToken) break;
    }
  }

  /** Number of scanned items (for tests). */
  scannedCount(): number {
    return this.scannedItems.length;
  }

  lookahead(context: ParserContext): [Token, string] {
    const [tok, lit] = this.scannedItems[this.position];
    return [
      context === ParserContext.Values && (tok === Token.InToken || tok === Token.NotInToken)
        ? Token.IdentifierToken
        : tok,
      lit,
    ];
  }

  consume(context: ParserContext): [Token, string] {
    this.position++;
    const [tok, lit] = this.scannedItems[this.position - 1];
    return [
      context === ParserContext.Values && (tok === Token.InToken || tok === Token.NotInToken)
        ? Token.IdentifierToken
        : tok,
      lit,
    ];
  }

  parse(): Requirement[] {
    this.scan();
    const requirements: Requirement[] = [];
    for (;;) {
      const [tok, lit] = this.lookahead(ParserContext.Values);
      switch (tok) {
        case Token.IdentifierToken:
        case Token.DoesNotExistToken: {
          let r: Requirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            throw new Error(`unable to parse requirement: ${(e as Error).message}`);
          }
          requirements.push(r);
          const [t, l] = this.consume(ParserContext.Values);
          switch (t) {
            case Token.EndOfStringToken:
              return requirements;
            case Token.CommaToken: {
              const [t2, l2] = this.lookahead(ParserContext.Values);
              if (t2 !== Token.IdentifierToken && t2 !== Token.DoesNotExistToken) {
                throw new Error(`found '${l2}', expected: identifier after ','`);
              }
              break;
            }
            default:
              throw new Error(`found '${l}', expected: ',' or 'end of string'`);
          }
          break;
        }
        case Token.EndOfStringToken:
          return requirements;
        default:
          throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred === Operator.Exists || inferred === Operator.DoesNotExist) {
      return newRequirement(key, inferred, [], this.path);
    }
    const operator = this.parseOperator();
    const values =
      operator === Operator.In || operator === Operator.NotIn
        ? this.parseValues()
        : this.parseExactValue();
    // sets.String.List(): unique and sorted.
    return newRequirement(key, operator, [...values].sort(compareStrings), this.path);
  }

  private parseKeyAndInferOperator(): [string, Operator | ''] {
    let operator: Operator | '' = '';
    let [tok, literal] = this.consume(ParserContext.Values);
    if (tok === Token.DoesNotExistToken) {
      operator = Operator.DoesNotExist;
      [tok, literal] = this.consume(ParserContext.Values);
    }
    if (tok !== Token.IdentifierToken) throw new Error(`found '${literal}', expected: identifier`);
    const err = validateLabelKey(literal, this.path);
    if (err) throw err;
    const [t] = this.lookahead(ParserContext.Values);
    if (
      (t === Token.EndOfStringToken || t === Token.CommaToken) &&
      operator !== Operator.DoesNotExist
    ) {
      operator = Operator.Exists;
    }
    return [literal, operator];
  }

  /** The binary operator at the current position. */
  parseOperator(): Operator {
    const [tok, lit] = this.consume(ParserContext.KeyAndOperator);
    switch (tok) {
      case Token.InToken:
        return Operator.In;
      case Token.EqualsToken:
        return Operator.Equals;
      case Token.DoubleEqualsToken:
        return Operator.DoubleEquals;
      case Token.GreaterThanToken:
        return Operator.GreaterThan;
      case Token.LessThanToken:
        return Operator.LessThan;
      case Token.NotInToken:
        return Operator.NotIn;
      case Token.NotEqualsToken:
        return Operator.NotEquals;
      default:
        throw new Error(`found '${lit}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  private parseValues(): Set<string> {
    const [tok, lit] = this.consume(ParserContext.Values);
    if (tok !== Token.OpenParToken) throw new Error(`found '${lit}' expected: '('`);
    const [tok2, lit2] = this.lookahead(ParserContext.Values);
    switch (tok2) {
      case Token.IdentifierToken:
      case Token.CommaToken: {
        const s = this.parseIdentifiersList();
        const [t] = this.consume(ParserContext.Values);
        // Upstream reports the literal seen before the list here, not the offending token.
        if (t !== Token.ClosedParToken) throw new Error(`found '${lit2}', expected: ')'`);
        return s;
      }
      case Token.ClosedParToken:
        this.consume(ParserContext.Values);
        return new Set(['']);
      default:
        throw new Error(`found '${lit2}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const [tok, lit] = this.consume(ParserContext.Values);
      switch (tok) {
        case Token.IdentifierToken: {
          s.add(lit);
          const [tok2, lit2] = this.lookahead(ParserContext.Values);
          if (tok2 === Token.CommaToken) continue;
          if (tok2 === Token.ClosedParToken) return s;
          throw new Error(`found '${lit2}', expected: ',' or ')'`);
        }
        case Token.CommaToken: {
          if (s.size === 0) s.add(''); // "(,"
          const [tok2] = this.lookahead(ParserContext.Values);
          if (tok2 === Token.ClosedParToken) {
            s.add(''); // ",)"
            return s;
          }
          if (tok2 === Token.CommaToken) s.add(''); // ",,"
          break;
        }
        default:
          throw new Error(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const [tok0] = this.lookahead(ParserContext.Values);
    if (tok0 === Token.EndOfStringToken || tok0 === Token.CommaToken) return new Set(['']);
    const [tok, lit] = this.consume(ParserContext.Values);
    if (tok === Token.IdentifierToken) return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/**
 * labels.Parse: `x=a,y!=b,z in (c,d),!w,v,n>3`. Throws an Error with upstream's message
 * (`unable to parse requirement: …`, `found ',', expected: …`).
 */
export function parse(selector: string, path: FieldPath | null = null): Selector {
  return new InternalSelector(parseToRequirements(selector, path));
}

/** labels.ParseToRequirements: the parsed requirements, sorted by key. */
export function parseToRequirements(
  selector: string,
  path: FieldPath | null = null,
): Requirement[] {
  return sortByKey(new Parser(new Lexer(selector), path).parse());
}
