// Mirrors k8s.io/apimachinery pkg/util/validation/field/{errors.go,path.go} and util/errors aggregate (release-1.36): field paths, field errors and their exact text.
import { goJsonQuote } from '../encoding/go-json';
import { quote } from './go-strings';

/** field.Path: a chain of names and subscripts, printed like `values[0][key]`. */
export class FieldPath {
  private constructor(
    private readonly name: string,
    private readonly subscript: string,
    private readonly parent: FieldPath | null,
  ) {}

  /** field.NewPath. */
  static of(name: string, ...moreNames: string[]): FieldPath {
    let r = new FieldPath(name, '', null);
    for (const n of moreNames) r = new FieldPath(n, '', r);
    return r;
  }

  child(name: string, ...moreNames: string[]): FieldPath {
    let r: FieldPath = new FieldPath(name, '', this);
    for (const n of moreNames) r = new FieldPath(n, '', r);
    return r;
  }

  index(i: number): FieldPath {
    return new FieldPath('', String(i), this);
  }

  key(k: string): FieldPath {
    return new FieldPath('', k, this);
  }

  toString(): string {
    const elems: FieldPath[] = [this];
    for (let p = this.parent; p; p = p.parent) elems.push(p);
    let buf = '';
    for (let i = elems.length - 1; i >= 0; i--) {
      const p = elems[i];
      if (p.parent && p.name.length > 0) buf += '.';
      buf += p.name.length > 0 ? p.name : `[${p.subscript}]`;
    }
    return buf;
  }
}

/** A nil *field.Path prints as `<nil>` (upstream's label parser passes one for keys). */
export function pathString(p: FieldPath | null): string {
  return p ? p.toString() : '<nil>';
}

/** A child of a possibly nil path: Go's (*Path)(nil).Child("x") is just "x". */
export function childOf(p: FieldPath | null, name: string): FieldPath {
  return p ? p.child(name) : FieldPath.of(name);
}

/** field.ErrorType values (also the StatusCause `reason`). */
export const ErrorType = {
  NotFound: 'FieldValueNotFound',
  Required: 'FieldValueRequired',
  Duplicate: 'FieldValueDuplicate',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  TooFew: 'FieldValueTooFew',
  Internal: 'InternalError',
  TypeInvalid: 'FieldValueTypeInvalid',
  TooShort: 'FieldValueTooShort',
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

const typeText: Record<ErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueTooShort: 'Too short',
};

/** field.Error: `<field>: <Type text>[: <bad value>][: <detail>]`. */
export class FieldError extends Error {
  constructor(
    readonly type: ErrorType,
    readonly field: string,
    readonly badValue: unknown,
    readonly detail: string,
  ) {
    super('');
    this.name = 'FieldError';
    this.message = `${field}: ${this.errorBody()}`;
  }

  /** The message without the field name (the StatusCause message). */
  errorBody(): string {
    let s: string;
    switch (this.type) {
      case ErrorType.Required:
      case ErrorType.Forbidden:
      case ErrorType.TooLong:
      case ErrorType.TooShort:
      case ErrorType.Internal:
        s = typeText[this.type];
        break;
      default:
        s = `${typeText[this.type]}: ${formatBadValue(this.badValue)}`;
    }
    if (this.detail.length > 0) s += `: ${this.detail}`;
    return s;
  }
}

/**
 * A bad value of a named Go string type (metav1.ResourceVersionMatch): ErrorBody's type switch
 * matches only plain strings with %q, so such a value is printed by json.Marshal instead.
 */
export class NamedString {
  constructor(readonly value: string) {}
}

// Go prints simple values with %v, strings with %q and everything else as JSON.
function formatBadValue(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (v instanceof NamedString) return goJsonQuote(v.value);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v === undefined || v === null) return 'null';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string'))
    return `[${v.map((x) => goJsonQuote(x)).join(',')}]`;
  return JSON.stringify(v);
}

export function invalid(path: FieldPath | null, value: unknown, detail: string): FieldError {
  return new FieldError(ErrorType.Invalid, pathString(path), value, detail);
}

export function required(path: FieldPath | null, detail: string): FieldError {
  return new FieldError(ErrorType.Required, pathString(path), '', detail);
}

export function forbidden(path: FieldPath | null, detail: string): FieldError {
  return new FieldError(ErrorType.Forbidden, pathString(path), '', detail);
}

/** field.TooLong: the value is omitted, the limit given in bytes. */
export function tooLong(path: FieldPath | null, maxLength: number): FieldError {
  const detail =
    maxLength >= 0
      ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}`
      : 'value is too long';
  return new FieldError(ErrorType.TooLong, pathString(path), '<value omitted>', detail);
}

/** field.Duplicate: a value that must be unique appears again. */
export function duplicate(path: FieldPath | null, value: unknown): FieldError {
  return new FieldError(ErrorType.Duplicate, pathString(path), value, '');
}

export function notSupported(
  path: FieldPath | null,
  value: unknown,
  validValues: readonly string[],
): FieldError {
  const detail =
    validValues.length > 0 ? 'supported values: ' + validValues.map(quote).join(', ') : '';
  return new FieldError(ErrorType.NotSupported, pathString(path), value, detail);
}

/** ErrorList.ToAggregate().Error(): duplicates dropped, one message alone, several in `[a, b]`. */
export function aggregateMessage(errs: readonly Error[]): string {
  const seen = new Set<string>();
  const msgs: string[] = [];
  for (const e of errs) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    msgs.push(e.message);
  }
  if (msgs.length === 1) return msgs[0];
  return `[${msgs.join(', ')}]`;
}

/** An aggregated field.ErrorList as one error (what NewRequirement returns). */
export class FieldErrorList extends Error {
  constructor(readonly errors: readonly FieldError[]) {
    super(aggregateMessage(errors));
    this.name = 'FieldErrorList';
  }
}
