// The test fixture of sigs.k8s.io/structured-merge-diff/v6 internal/fixture/state.go (v6.3.3): a
// live object and its managers, driven by Apply / ForceApply / Update operations, and the YAML
// schema format of typed.NewParser read into our Schema.
import * as yaml from 'js-yaml';
import { FieldSet } from '../../../../src/server/structured-merge-diff/set';
import {
  Conflicts,
  sortConflicts,
} from '../../../../src/server/structured-merge-diff/merge/conflict';
import { Updater } from '../../../../src/server/structured-merge-diff/merge/update';
import type { ManagedFields } from '../../../../src/server/structured-merge-diff/managers';
import { makePath, pathString } from '../../../../src/server/structured-merge-diff/path-element';
import {
  deducedParseableType,
  deducedAtom,
  untypedAtom,
  type Atom,
  type ParseableType,
  type Schema,
  type TypeRef,
} from '../../../../src/server/structured-merge-diff/schema';
import { isSame } from '../../../../src/server/structured-merge-diff/typed-compare';
import { TypedValue } from '../../../../src/server/structured-merge-diff/typed-value';
import type { Value } from '../../../../src/server/structured-merge-diff/value';

type PathPart = string | number | { key: Record<string, Value> } | { value: Value };

export interface SmdParser {
  schema: string;
  /** The type every version parses as (SameVersionParser); else the type named by the version. */
  type?: string;
}

export interface SmdOp {
  op: 'apply' | 'forceApply' | 'update';
  manager: string;
  apiVersion: string;
  object: string;
  conflicts?: Array<{ manager: string; path: PathPart[] }>;
}

export interface SmdCase {
  name: string;
  parser: string;
  ops: SmdOp[];
  object?: string;
  managed?: Record<string, { paths: PathPart[][]; apiVersion: string; applied: boolean }>;
  expectError?: boolean;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the YAML schema is untyped input */
function typeRef(t: any): TypeRef {
  if (!t) return {};
  const ref: { namedType?: string; inlined?: Atom; elementRelationship?: any } = {};
  if (t.namedType) ref.namedType = t.namedType;
  if (t.scalar || t.list || t.map) ref.inlined = atom(t);
  if (t.elementRelationship) ref.elementRelationship = t.elementRelationship;
  return ref;
}

function atom(t: any): Atom {
  return {
    ...(t.scalar ? { scalar: t.scalar } : {}),
    ...(t.list
      ? {
          list: {
            elementType: typeRef(t.list.elementType),
            elementRelationship: t.list.elementRelationship ?? '',
            keys: t.list.keys ?? [],
          },
        }
      : {}),
    ...(t.map
      ? {
          map: {
            fields: new Map(
              (t.map.fields ?? []).map((f: any) => [
                f.name,
                { name: f.name, type: typeRef(f.type), default: f.default },
              ]),
            ),
            elementType: typeRef(t.map.elementType),
            elementRelationship: t.map.elementRelationship ?? '',
          },
        }
      : {}),
  };
}

/** typed.NewParser's YAML: `types:` of named atoms. */
export function schemaFromYAML(text: string): Schema {
  const doc = yaml.load(text) as { types: any[] };
  const types = new Map<string, Atom>(doc.types.map((t) => [t.name, atom(t)]));
  types.set('__untyped_atomic_', untypedAtom);
  types.set('__untyped_deduced_', deducedAtom);
  return { types };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

export function parserFor(p: SmdParser | 'deduced'): (version: string) => ParseableType {
  if (p === 'deduced') return () => deducedParseableType;
  const schema = schemaFromYAML(p.schema);
  return (version) => ({ schema, typeRef: { namedType: p.type ?? version } });
}

export const setOf = (paths: PathPart[][]): FieldSet =>
  FieldSet.of(...paths.map((p) => makePath(...p)));

const parseYAML = (text: string): Value => (yaml.load(text) ?? null) as Value;

/** TestCase.TestWithConverter with the identity converter; throws what a Go test would report. */
export function runCase(tc: SmdCase, typeOf: (version: string) => ParseableType): void {
  const updater = new Updater();
  let live: TypedValue | undefined;
  let managers: ManagedFields = new Map();
  tc.ops.forEach((op, i) => {
    const type = typeOf(op.apiVersion);
    live ??= TypedValue.of(null, type);
    const obj = TypedValue.of(parseYAML(op.object), type, { allowDuplicates: op.op === 'update' });
    try {
      if (op.op === 'update') {
        const r = updater.update(live, obj, op.apiVersion, managers, op.manager);
        live = r.object;
        managers = r.managers;
      } else {
        const r = updater.apply(
          live,
          obj,
          op.apiVersion,
          managers,
          op.manager,
          op.op === 'forceApply',
        );
        managers = r.managers;
        if (r.object) live = r.object;
      }
      if (op.conflicts) throw new Error(`failed operation ${i}: expected conflicts, got none`);
    } catch (e) {
      if (!(e instanceof Conflicts) || !op.conflicts)
        throw new Error(`failed operation ${i}: ${(e as Error).message}`);
      const got = sortConflicts(e.conflicts).map((c) => `${c.manager} ${pathString(c.path)}`);
      const want = sortConflicts(
        op.conflicts.map((c) => ({ manager: c.manager, path: makePath(...c.path) })),
      ).map((c) => `${c.manager} ${pathString(c.path)}`);
      if (JSON.stringify(got) !== JSON.stringify(want))
        throw new Error(
          `failed operation ${i}: expected conflicts ${JSON.stringify(want)}, got ${JSON.stringify(got)}`,
        );
    }
  });
  if (tc.object !== undefined) {
    const type = typeOf(tc.ops[tc.ops.length - 1]?.apiVersion ?? 'v1');
    const want = TypedValue.of(parseYAML(tc.object), type, { allowDuplicates: true });
    const c = live!.compare(want);
    if (!isSame(c))
      throw new Error(
        `expected live and config to be the same:\n${JSON.stringify(live!.value)}\nvs\n${JSON.stringify(want.value)}\nremoved: ${c.removed}\nmodified: ${c.modified}\nadded: ${c.added}`,
      );
  }
  if (tc.managed) {
    const want = new Map(Object.entries(tc.managed));
    const problems: string[] = [];
    for (const [m, vs] of managers) {
      const w = want.get(m);
      if (!w) problems.push(`unexpected manager ${m}:\n${vs.set}`);
      else if (w.apiVersion !== vs.apiVersion)
        problems.push(`${m}: version ${vs.apiVersion}, want ${w.apiVersion}`);
      else if (!setOf(w.paths).equals(vs.set))
        problems.push(`${m}: got\n${vs.set}\nwant\n${setOf(w.paths)}`);
    }
    for (const [m, w] of want)
      if (!managers.has(m) && w.paths.length > 0) problems.push(`missing manager ${m}`);
    if (problems.length > 0) throw new Error(problems.join('\n'));
  }
  for (const [m, vs] of managers)
    if (vs.set.empty())
      throw new Error(`expected Managers to have no empty sets, but found one managed by ${m}`);
}
