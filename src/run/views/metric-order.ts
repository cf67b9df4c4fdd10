// The order a person reads metric samples in: by metric name, then by their labels, with histogram
// buckets in `le` order (numerically, +Inf last) rather than as strings (…1.5, 10, 15, 2…). No
// upstream counterpart (Prometheus's text format writes buckets in that order too). Shared by the
// webview's Metrics tab and the tests.

/** `name{a="b",le="0.5"}` split into the name, the labels other than `le`, and `le` as a number. */
function parts(key: string): { name: string; rest: string; le: number | undefined } {
  const brace = key.indexOf('{');
  if (brace < 0) return { name: key, rest: '', le: undefined };
  const name = key.slice(0, brace);
  let le: number | undefined;
  const rest = key
    .slice(brace)
    .replace(/(^\{|,)le="([^"]*)"(?=,|\})/, (_m, lead: string, v: string) => {
      le = v === '+Inf' ? Number.POSITIVE_INFINITY : Number(v);
      return lead === '{' ? '{' : '';
    })
    .replace('{,', '{');
  return { name, rest, le };
}

/** Compares two sample keys `name{labels}` for display. */
export function compareSampleKeys(a: string, b: string): number {
  const pa = parts(a);
  const pb = parts(b);
  if (pa.name !== pb.name) return pa.name < pb.name ? -1 : 1;
  if (pa.rest !== pb.rest) return pa.rest < pb.rest ? -1 : 1;
  if (pa.le !== undefined && pb.le !== undefined && pa.le !== pb.le) return pa.le - pb.le;
  return a < b ? -1 : a > b ? 1 : 0;
}
