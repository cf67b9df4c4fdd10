// Mirrors sigs.k8s.io/structured-merge-diff/v6 typed/merge.go (v6.3.3) with its one rule,
// ruleKeepRHS: merge a configuration over a live value. Scalars and atomic lists/maps are leaves
// taken from the right; granular maps merge key by key; associative lists merge item by item,
// keeping the right's order and the left's items where they were. A list or map that merges to
// nothing is absent.
import {
  pathElementEquals,
  pathElementKey,
  pathElementString,
  type Path,
  type PathElement,
} from './path-element';
import { resolveType, type ListType, type Schema, type TypeRef } from './schema';
import {
  atomEquals,
  deduceAtom,
  errorf,
  handleAtom,
  listItemToPathElement,
  validateScalar,
  ValidationErrors,
  withPrefix,
  type AtomHandler,
  type ValidationError,
} from './typed-helpers';
import { isMap, type Value } from './value';

/** merge(lhs, rhs, ruleKeepRHS): the merged value, or ValidationErrors. */
export function mergeValues(
  schema: Schema,
  tr: TypeRef,
  lhs: Value | undefined,
  rhs: Value | undefined,
): Value {
  const r = merge(schema, [], tr, lhs, rhs);
  if (r.errors.length > 0) throw new ValidationErrors(r.errors);
  return r.out ?? null;
}

interface MergeResult {
  out: Value | undefined;
  errors: ValidationError[];
}

function merge(
  schema: Schema,
  path: Path,
  tr: TypeRef,
  lhs: Value | undefined,
  rhs: Value | undefined,
): MergeResult {
  if (lhs === undefined && rhs === undefined)
    return { out: undefined, errors: errorf('at least one of lhs and rhs must be provided') };
  const a = resolveType(schema, tr);
  if (!a)
    return {
      out: undefined,
      errors: errorf(`schema error: no type found matching: ${tr.namedType ?? 'inlined type'}`),
    };
  const alhs = deduceAtom(a, lhs);
  const arhs = deduceAtom(a, rhs);
  const errors: ValidationError[] = [];
  const w = walker(schema, path, lhs, rhs);
  if (rhs === undefined) errors.push(...handleAtom(alhs, tr, w));
  else if (lhs === undefined || atomEquals(alhs, arhs)) errors.push(...handleAtom(arhs, tr, w));
  else {
    // Upstream walks the left's atom on a copy of the walker (its output is dropped) for errors.
    errors.push(...handleAtom(alhs, tr, walker(schema, path, lhs, rhs)));
    errors.push(...handleAtom(arhs, tr, w));
  }
  return { out: w.out, errors };
}

interface MergingWalker extends AtomHandler {
  out: Value | undefined;
}

function walker(
  schema: Schema,
  path: Path,
  lhs: Value | undefined,
  rhs: Value | undefined,
): MergingWalker {
  let inLeaf = false;
  const w: MergingWalker = {
    out: undefined,
    doScalar(t) {
      const lerrs = validateScalar(t, lhs, 'lhs: ');
      const rerrs = validateScalar(t, rhs, 'rhs: ');
      if (lerrs.length > 0 && rerrs.length > 0) return [...lerrs, ...rerrs];
      doLeaf();
      return [];
    },
    doList(t) {
      const l = Array.isArray(lhs) ? lhs : undefined;
      const r = Array.isArray(rhs) ? rhs : undefined;
      if (
        t.elementRelationship === 'atomic' ||
        ((!l || l.length === 0) && (!r || r.length === 0))
      ) {
        doLeaf();
        return [];
      }
      const { out, errors } = visitListItems(schema, path, t, l, r);
      if (out.length > 0) w.out = out;
      return errors;
    },
    doMap(t) {
      const l = isMap(lhs) ? lhs : undefined;
      const r = isMap(rhs) ? rhs : undefined;
      const empty = (m: object | undefined): boolean => !m || Object.keys(m).length === 0;
      if (t.elementRelationship === 'atomic' || (empty(l) && empty(r))) {
        doLeaf();
        return [];
      }
      const out: { [key: string]: Value } = {};
      const errors: ValidationError[] = [];
      const keys = [
        ...Object.keys(l ?? {}),
        ...Object.keys(r ?? {}).filter((k) => !l || !(k in l)),
      ];
      for (const key of keys) {
        const fieldType = t.fields.get(key)?.type ?? t.elementType;
        const m = merge(schema, [...path, { fieldName: key }], fieldType, l?.[key], r?.[key]);
        errors.push(...withPrefix(m.errors, '.' + key));
        if (m.out !== undefined) out[key] = m.out;
      }
      if (Object.keys(out).length > 0) w.out = out;
      return errors;
    },
  };
  const doLeaf = (): void => {
    if (inLeaf) return;
    inLeaf = true;
    w.out = rhs !== undefined ? rhs : lhs;
  };
  return w;
}

interface Indexed {
  pes: PathElement[];
  observed: Map<string, Value>;
  errors: ValidationError[];
}

/** indexListPathElements: each item's element; a duplicate is an error on the right. */
function indexList(
  schema: Schema,
  t: ListType,
  list: Value[] | undefined,
  allowDuplicates: boolean,
): Indexed {
  const out: Indexed = { pes: [], observed: new Map(), errors: [] };
  (list ?? []).forEach((child, i) => {
    let pe: PathElement;
    try {
      pe = listItemToPathElement(schema, t, child);
    } catch (e) {
      out.errors.push(...errorf(`element ${i}: ${(e as Error).message}`));
      return;
    }
    const k = pathElementKey(pe);
    const found = out.observed.has(k);
    if (found && !allowDuplicates) {
      out.errors.push(...errorf(`duplicate entries for key ${pathElementString(pe)}`));
      return;
    }
    // A duplicated left item merges as null (upstream stores a nil interface for it).
    out.observed.set(k, found ? null : child);
    out.pes.push(pe);
  });
  return out;
}

function visitListItems(
  schema: Schema,
  path: Path,
  t: ListType,
  lhs: Value[] | undefined,
  rhs: Value[] | undefined,
): { out: Value[]; errors: ValidationError[] } {
  const out: Value[] = [];
  const r = indexList(schema, t, rhs, false);
  const l = indexList(schema, t, lhs, true);
  const errors = [...r.errors, ...l.errors];
  if (errors.length > 0) return { out, errors };

  const mergeItem = (
    pe: PathElement,
    lChild: Value | undefined,
    rChild: Value | undefined,
  ): void => {
    const m = merge(schema, [...path, pe], t.elementType, lChild, rChild);
    errors.push(...withPrefix(m.errors, pathElementString(pe)));
    if (m.out !== undefined) out.push(m.out);
  };
  const get = (m: Map<string, Value>, pe: PathElement): Value | undefined =>
    m.get(pathElementKey(pe));

  // The right's items that the left has too, in the right's order.
  const sharedOrder = r.pes.filter((pe) => l.observed.has(pathElementKey(pe)));
  let nextShared: PathElement | undefined = sharedOrder.shift();
  const mergedRHS = new Set<string>();
  const lLen = l.pes.length;
  const rLen = r.pes.length;
  for (let lI = 0, rI = 0; lI < lLen || rI < rLen;) {
    if (lI < lLen && rI < rLen) {
      const pe = l.pes[lI];
      if (pathElementEquals(pe, r.pes[rI])) {
        mergedRHS.add(pathElementKey(pe));
        mergeItem(pe, get(l.observed, pe), get(r.observed, pe));
        lI++;
        rI++;
        nextShared = sharedOrder.shift();
        continue;
      }
      if (r.observed.has(pathElementKey(pe)) && nextShared && !pathElementEquals(nextShared, pe)) {
        lI++;
        continue;
      }
    }
    if (lI < lLen) {
      const pe = l.pes[lI];
      if (!r.observed.has(pathElementKey(pe))) {
        mergeItem(pe, lhs![lI], undefined);
        lI++;
        continue;
      } else if (mergedRHS.has(pathElementKey(pe))) {
        lI++;
      }
    }
    if (rI < rLen) {
      const pe = r.pes[rI];
      mergedRHS.add(pathElementKey(pe));
      mergeItem(pe, get(l.observed, pe), get(r.observed, pe));
      rI++;
      if (nextShared && pathElementEquals(nextShared, pe)) nextShared = sharedOrder.shift();
    }
  }
  return { out, errors };
}
