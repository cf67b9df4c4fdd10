// Mirrors sigs.k8s.io/structured-merge-diff/v6 fieldpath/set.go and the PathElementSet of
// fieldpath/element.go (v6.3.3): a set of field paths as a tree of sorted path elements. Named
// FieldSet so it does not shadow JavaScript's Set; the matcher and filter types are left out (the
// apiserver's reset-fields filters are plain exclude sets here, see merge/update.ts).
import {
  comparePathElements,
  pathElementEquals,
  pathString,
  type Path,
  type PathElement,
} from './path-element';
import { resolveType, type Schema, type TypeRef } from './schema';

interface SetNode {
  readonly pathElement: PathElement;
  readonly set: FieldSet;
}

/** The first index whose element is not less than pe (sort.Search). */
function search<T>(items: readonly T[], pe: PathElement, of: (t: T) => PathElement): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comparePathElements(of(items[mid]), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
const self = (pe: PathElement): PathElement => pe;
const nodePe = (n: SetNode): PathElement => n.pathElement;

export class FieldSet {
  /** Paths that end here (sorted). */
  members: PathElement[];
  /** Paths that continue below an element (sorted by element). */
  children: SetNode[];

  constructor(members: PathElement[] = [], children: SetNode[] = []) {
    this.members = members;
    this.children = children;
  }

  /** NewSet. */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  copy(): FieldSet {
    return new FieldSet(
      [...this.members],
      this.children.map((n) => ({ pathElement: n.pathElement, set: n.set.copy() })),
    );
  }

  insert(p: Path): void {
    if (p.length === 0) return;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- walking down the tree
    let s: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) s = s.descend(p[i]);
    s.insertMember(p[p.length - 1]);
  }

  insertMember(pe: PathElement): void {
    const loc = search(this.members, pe, self);
    if (loc < this.members.length && pathElementEquals(this.members[loc], pe)) return;
    this.members.splice(loc, 0, pe);
  }

  /** SetNodeMap.Descend: the child set under pe, created if absent. */
  descend(pe: PathElement): FieldSet {
    const loc = search(this.children, pe, nodePe);
    if (loc < this.children.length && pathElementEquals(this.children[loc].pathElement, pe))
      return this.children[loc].set;
    const set = new FieldSet();
    this.children.splice(loc, 0, { pathElement: pe, set });
    return set;
  }

  hasMember(pe: PathElement): boolean {
    const loc = search(this.members, pe, self);
    return loc < this.members.length && pathElementEquals(this.members[loc], pe);
  }

  child(pe: PathElement): FieldSet | undefined {
    const loc = search(this.children, pe, nodePe);
    return loc < this.children.length && pathElementEquals(this.children[loc].pathElement, pe)
      ? this.children[loc].set
      : undefined;
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- walking down the tree
    let s: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1; i++) {
      s = s.child(p[i]);
      if (!s) return false;
    }
    return s.hasMember(p[p.length - 1]);
  }

  union(s2: FieldSet): FieldSet {
    return new FieldSet(
      mergeSorted(this.members, s2.members, self, 'union'),
      zipNodes(this.children, s2.children, (a, b) => a.union(b), true, true),
    );
  }

  intersection(s2: FieldSet): FieldSet {
    return new FieldSet(
      mergeSorted(this.members, s2.members, self, 'intersection'),
      zipNodes(this.children, s2.children, (a, b) => a.intersection(b), false, false),
    );
  }

  /** Difference: members removed by members, children by the other side's children. */
  difference(s2: FieldSet): FieldSet {
    return new FieldSet(
      mergeSorted(this.members, s2.members, self, 'difference'),
      zipNodes(this.children, s2.children, (a, b) => a.difference(b), true, false),
    );
  }

  /** RecursiveDifference: also drops whole subtrees whose root s2 has as a member. */
  recursiveDifference(s2: FieldSet): FieldSet {
    const children = zipNodes(
      this.children.filter((n) => !s2.hasMember(n.pathElement)),
      s2.children,
      (a, b) => a.recursiveDifference(b),
      true,
      false,
    );
    return new FieldSet(mergeSorted(this.members, s2.members, self, 'difference'), children);
  }

  /**
   * EnsureNamedFieldsAreMembers: a struct field that only has children here becomes a member too,
   * so removing the set removes the field itself (prune's view of "the manager owned .spec").
   */
  ensureNamedFieldsAreMembers(schema: Schema, tr: TypeRef): FieldSet {
    const atom = resolveType(schema, tr);
    const members = [...this.members];
    const out = new FieldSet(members);
    for (const n of this.children) {
      if ('fieldName' in n.pathElement && atom?.map?.fields.has(n.pathElement.fieldName))
        out.insertMember(n.pathElement);
    }
    out.children = this.children.map((n) => {
      let childTr: TypeRef = {};
      if ('fieldName' in n.pathElement && atom?.map) {
        childTr = atom.map.fields.get(n.pathElement.fieldName)?.type ?? atom.map.elementType;
      } else if ('key' in n.pathElement && atom?.list) {
        childTr = atom.list.elementType;
      }
      return {
        pathElement: n.pathElement,
        set: n.set.ensureNamedFieldsAreMembers(schema, childTr),
      };
    });
    return out;
  }

  size(): number {
    return this.members.length + this.children.reduce((n, c) => n + c.set.size(), 0);
  }

  empty(): boolean {
    return this.members.length === 0 && this.children.every((c) => c.set.empty());
  }

  equals(s2: FieldSet): boolean {
    return (
      this.members.length === s2.members.length &&
      this.members.every((m, i) => pathElementEquals(m, s2.members[i])) &&
      this.children.length === s2.children.length &&
      this.children.every(
        (c, i) =>
          pathElementEquals(c.pathElement, s2.children[i].pathElement) &&
          c.set.equals(s2.children[i].set),
      )
    );
  }

  /** WithPrefix: the paths below pe, without it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  /** Iterate: members first, then each child's paths, each level in sorted order. */
  iterate(f: (p: Path) => void, prefix: Path = []): void {
    for (const m of this.members) f([...prefix, m]);
    for (const c of this.children) c.set.iterate(f, [...prefix, c.pathElement]);
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }

  /** Leaves: the members that have no children. */
  leaves(): FieldSet {
    return new FieldSet(
      this.members.filter((m) => !this.child(m)),
      this.children.map((c) => ({ pathElement: c.pathElement, set: c.set.leaves() })),
    );
  }

  toString(): string {
    return this.paths().map(pathString).join('\n');
  }
}

function mergeSorted<T>(
  a: readonly T[],
  b: readonly T[],
  of: (t: T) => PathElement,
  op: 'union' | 'intersection' | 'difference',
): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(of(a[i]), of(b[j]));
    if (c < 0) {
      if (op !== 'intersection') out.push(a[i]);
      i++;
    } else if (c > 0) {
      if (op === 'union') out.push(b[j]);
      j++;
    } else {
      if (op !== 'difference') out.push(a[i]);
      i++;
      j++;
    }
  }
  if (op !== 'intersection') out.push(...a.slice(i));
  if (op === 'union') out.push(...b.slice(j));
  return out;
}

/**
 * The SetNodeMap operations: walk both sorted child lists; `both` combines a shared element
 * (dropped when empty, except for a union), keepLeft/keepRight say whether unshared ones stay.
 */
function zipNodes(
  a: readonly SetNode[],
  b: readonly SetNode[],
  both: (x: FieldSet, y: FieldSet) => FieldSet,
  keepLeft: boolean,
  keepRight: boolean,
): SetNode[] {
  const out: SetNode[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePathElements(a[i].pathElement, b[j].pathElement);
    if (c < 0) {
      if (keepLeft) out.push(a[i]);
      i++;
    } else if (c > 0) {
      if (keepRight) out.push(b[j]);
      j++;
    } else {
      const set = both(a[i].set, b[j].set);
      if (keepRight || !set.empty()) out.push({ pathElement: a[i].pathElement, set });
      i++;
      j++;
    }
  }
  if (keepLeft) out.push(...a.slice(i));
  if (keepRight) out.push(...b.slice(j));
  return out;
}
