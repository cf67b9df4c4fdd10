// Mirrors k8s.io/apimachinery pkg/fields/{selector.go,fields.go} (release-1.36): field selectors `a=b,c!=d` with `\,` `\=` `\\` escapes.
import { compareStrings } from './go-strings';

/** A set of fields (fields.Set); a missing field reads as "". */
export type Fields = Readonly<Record<string, string>>;

function get(fs: Fields, field: string): string {
  return Object.prototype.hasOwnProperty.call(fs, field) ? fs[field] : '';
}

/** One requirement of a field selector (fields.Requirement). */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** Rewrites a (field, value) pair, or throws; returning ('', '') drops the term (fields.TransformFunc). */
export type TransformFunc = (field: string, value: string) => [string, string];

/** fields.Selector. */
export interface Selector {
  matches(fs: Fields): boolean;
  /** Whether the selector does not restrict the selection space. */
  empty(): boolean;
  /** The value a field must equal for the selector to match, if it requires one. */
  requiresExactMatch(field: string): string | undefined;
  /** A copy with fn applied to every term (terms turned into ('', '') are dropped). */
  transform(fn: TransformFunc): Selector;
  requirements(): FieldRequirement[];
  /** The selector in parseable syntax, values escaped. */
  string(): string;
}
export type FieldSelector = Selector;

class HasTerm implements Selector {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {}
  matches(fs: Fields): boolean {
    return get(fs, this.field) === this.value;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(field: string): string | undefined {
    return this.field === field ? this.value : undefined;
  }
  transform(fn: TransformFunc): Selector {
    const [f, v] = fn(this.field, this.value);
    if (f.length === 0 && v.length === 0) return everything();
    return new HasTerm(f, v);
  }
  requirements(): FieldRequirement[] {
    return [{ field: this.field, operator: '=', value: this.value }];
  }
  string(): string {
    return `${this.field}=${escapeValue(this.value)}`;
  }
}

class NotHasTerm implements Selector {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {}
  matches(fs: Fields): boolean {
    return get(fs, this.field) !== this.value;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  transform(fn: TransformFunc): Selector {
    const [f, v] = fn(this.field, this.value);
    if (f.length === 0 && v.length === 0) return everything();
    return new NotHasTerm(f, v);
  }
  requirements(): FieldRequirement[] {
    return [{ field: this.field, operator: '!=', value: this.value }];
  }
  string(): string {
    return `${this.field}!=${escapeValue(this.value)}`;
  }
}

class AndTerm implements Selector {
  constructor(readonly terms: readonly Selector[]) {}
  matches(fs: Fields): boolean {
    for (const t of this.terms) if (!t.matches(fs)) return false;
    return true;
  }
  empty(): boolean {
    return this.terms.every((t) => t.empty());
  }
  requiresExactMatch(field: string): string | undefined {
    for (const t of this.terms) {
      const v = t.requiresExactMatch(field);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  transform(fn: TransformFunc): Selector {
    const next: Selector[] = [];
    for (const t of this.terms) {
      const n = t.transform(fn);
      if (!n.empty()) next.push(n);
    }
    return new AndTerm(next);
  }
  requirements(): FieldRequirement[] {
    return this.terms.flatMap((t) => t.requirements());
  }
  string(): string {
    return this.terms.map((t) => t.string()).join(',');
  }
}

class NothingSelector implements Selector {
  matches(): boolean {
    return false;
  }
  empty(): boolean {
    return false;
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  transform(): Selector {
    return this;
  }
  requirements(): FieldRequirement[] {
    return [];
  }
  string(): string {
    return '';
  }
}

const sharedEverything = new AndTerm([]);

/** A selector that matches all fields (and is empty). */
export function everything(): Selector {
  return sharedEverything;
}

/** A selector that matches nothing. */
export function nothing(): Selector {
  return new NothingSelector();
}

/** Matches objects whose field k equals v. */
export function oneTermEqualSelector(k: string, v: string): Selector {
  return new HasTerm(k, v);
}

/** Matches objects whose field k does not equal v. */
export function oneTermNotEqualSelector(k: string, v: string): Selector {
  return new NotHasTerm(k, v);
}

/** The AND of the given selectors. */
export function andSelectors(...selectors: Selector[]): Selector {
  return new AndTerm(selectors);
}

/** A selector matching exactly the given set. */
export function selectorFromSet(set: Fields): Selector {
  const items = Object.keys(set).map((k) => new HasTerm(k, set[k]));
  return items.length === 1 ? items[0] : new AndTerm(items);
}

/** Escapes `\`, `,` and `=` for use in a field selector value. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

/** fields.InvalidEscapeSequence. */
export class InvalidEscapeSequence extends Error {
  constructor(readonly sequence: string) {
    super(`invalid field selector: invalid escape sequence: ${sequence}`);
    this.name = 'InvalidEscapeSequence';
  }
}

/** fields.UnescapedRune; Go prints the rune with %v, i.e. as its number (`=` is 61). */
export class UnescapedRune extends Error {
  constructor(readonly rune: number) {
    super(`invalid field selector: unescaped character in value: ${rune}`);
    this.name = 'UnescapedRune';
  }
}

/** Undoes escapeValue; rejects unknown escapes, a trailing `\` and bare `,` or `=`. */
export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let v = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') v += c;
      else throw new InvalidEscapeSequence('\\' + c);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new UnescapedRune(c.codePointAt(0) as number);
    else v += c;
  }
  if (inSlash) throw new InvalidEscapeSequence('\\');
  return v;
}

/** The comma-separated terms; escaped commas stay inside a term (with their backslash). */
export function splitTerms(fieldSelector: string): string[] {
  if (fieldSelector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < fieldSelector.length; i++) {
    const c = fieldSelector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(fieldSelector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(fieldSelector.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

/** Splits a term at the first operator (`!=`, `==` before `=`); undefined when there is none. */
export function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i))
        return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

function parseSelectorWith(selector: string, fn: TransformFunc): Selector {
  const parts = splitTerms(selector).sort(compareStrings);
  const items: Selector[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new Error(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    items.push(t.op === '!=' ? new NotHasTerm(t.lhs, value) : new HasTerm(t.lhs, value));
  }
  if (items.length === 1) return items[0].transform(fn);
  return new AndTerm(items).transform(fn);
}

/** fields.ParseSelector: terms sorted, values unescaped. Throws an Error with upstream's message. */
export function parseSelector(selector: string): Selector {
  return parseSelectorWith(selector, (f, v) => [f, v]);
}

/** fields.ParseAndTransformSelector. */
export function parseAndTransformSelector(selector: string, fn: TransformFunc): Selector {
  return parseSelectorWith(selector, fn);
}
