// A test helper: the value at a dotted path of a decoded JSON object (`spec.ports.0.protocol`;
// `\.` is a dot inside a key, as in `metadata.annotations.deployment\.kubernetes\.io/revision`).
/** The value at `dotted` in `obj`, undefined where the path leads nowhere. */
export function valueAtPath(obj: unknown, dotted: string): unknown {
  let v = obj;
  for (const k of dotted.split(/(?<!\\)\./))
    v = (v as Record<string, unknown> | undefined)?.[k.replace(/\\\./g, '.')];
  return v;
}
