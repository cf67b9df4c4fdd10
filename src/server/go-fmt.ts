// Mirrors how Go's fmt prints the interface{} values of decoded JSON (%v, %s, and reflect.TypeOf's names), as the strategic merge patch errors embed them.
// Integers are int64 and other numbers float64, as apimachinery's decoding (PreserveInts) and the
// unstructured converter produce them.
import type { JsonValue } from './json-patch';

/** reflect.TypeOf(v).String() for a decoded JSON value; undefined for nil (a nil reflect.Type). */
export function goTypeName(v: JsonValue): string | undefined {
  if (v === null) return undefined;
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'object':
      return 'map[string]interface {}';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return Number.isInteger(v) ? 'int64' : 'float64';
  }
}

// %v of a float64 is %g with the shortest digits: exponent form when the exponent is < -4 or >= 6
// (strconv's eprec for the shortest precision), with at least two exponent digits.
function formatFloat(f: number): string {
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : f < 0 ? '-Inf' : 'NaN';
  const [mant, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return String(f);
}

/** fmt's %v. Maps print as map[k:v ...] with sorted keys, slices as [a b]. */
export function goFormatValue(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormatValue).join(' ')}]`;
  switch (typeof v) {
    case 'object': {
      const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `map[${keys.map((k) => `${k}:${goFormatValue(v[k])}`).join(' ')}]`;
    }
    case 'string':
      return v;
    case 'boolean':
      return String(v);
    default:
      return Number.isInteger(v) ? String(v) : formatFloat(v);
  }
}

/** fmt's %s: strings as they are, other scalars as %!s(type=value). */
export function goFormatString(v: JsonValue): string {
  if (typeof v === 'string') return v;
  if (v === null) return '%!s(<nil>)';
  if (typeof v === 'object') return goFormatValue(v);
  return `%!s(${goTypeName(v)}=${goFormatValue(v)})`;
}
