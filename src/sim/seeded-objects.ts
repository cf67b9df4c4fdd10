// No upstream counterpart: the objects an explanation writes into etcd, a given fraction of them
// matching the request's selectors (so that an etcd-bound filtered LIST pages as it would over
// such data). Labels are built from the label selector's requirements, pod fields from the field
// selector's; every object is checked against the engine's own SelectionPredicate.
import { labels, makePod, type KubeObject, SelectionPredicate, Operator, fields } from '../engine';

export interface SeedPlan {
  resource: string;
  apiVersion: string;
  /** The namespace every object is written to ('' for a cluster-scoped resource). */
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  count: number;
  /** Fraction of the objects that match the selectors (0..1). */
  matchRatio: number;
}

export interface SeededObjects {
  objects: KubeObject[];
  matching: number;
  /** Why the match ratio could not be applied, when it could not. */
  note?: string;
}

/** Object i matches when the running total of matches steps up at it: evenly spread, deterministic. */
export function shouldMatch(i: number, ratio: number): boolean {
  return Math.floor((i + 1) * ratio) > Math.floor(i * ratio);
}

/** Builds the objects: names `explain-00000…`, matches spread evenly through the key space. */
export function seededObjects(plan: SeedPlan): SeededObjects {
  const predicate = SelectionPredicate.from(
    { label: plan.labelSelector, field: plan.fieldSelector },
    plan.resource,
  );
  const filtered = plan.labelSelector !== '' || plan.fieldSelector !== '';
  const match = matchingAttributes(plan.labelSelector, plan.fieldSelector, true);
  const miss = matchingAttributes(plan.labelSelector, plan.fieldSelector, false);
  const width = String(Math.max(plan.count - 1, 0)).length;
  const objects: KubeObject[] = [];
  let matching = 0;
  let note: string | undefined;
  for (let i = 0; i < plan.count; i++) {
    const name = `explain-${String(i).padStart(width, '0')}`;
    const wanted = !filtered || shouldMatch(i, plan.matchRatio);
    let obj = build(plan, name, wanted ? match : miss);
    if (predicate.matches(obj) !== wanted) {
      // The selector cannot be split this way (e.g. metadata.name=x): fall back to plain objects.
      note ??= `the selectors cannot be matched by a ratio of generated objects; objects carry no labels`;
      obj = build(plan, name, { labels: {}, fields: {} });
    }
    if (predicate.matches(obj)) matching++;
    objects.push(obj);
  }
  return { objects, matching, ...(note !== undefined ? { note } : {}) };
}

/** The labels and the (pod) fields an object is given so that a selector decides as wanted. */
export interface Attributes {
  labels: Record<string, string>;
  fields: Record<string, string>;
}

/** A pod with the attributes: its labels, and the fields a pod field selector can name. */
export function podWithAttributes(name: string, namespace: string, attrs: Attributes): KubeObject {
  return makePod({
    name,
    namespace: namespace || undefined,
    labels: attrs.labels,
    nodeName: attrs.fields['spec.nodeName'],
    phase: attrs.fields['status.phase'],
    restartPolicy: attrs.fields['spec.restartPolicy'],
    schedulerName: attrs.fields['spec.schedulerName'],
    serviceAccountName: attrs.fields['spec.serviceAccountName'],
  });
}

function build(plan: SeedPlan, name: string, attrs: Attributes): KubeObject {
  const ns = plan.namespace;
  if (plan.resource === 'pods' && plan.apiVersion === 'v1') {
    return podWithAttributes(name, ns, attrs);
  }
  const metadata: KubeObject['metadata'] = { name };
  if (ns) metadata.namespace = ns;
  if (Object.keys(attrs.labels).length > 0) metadata.labels = attrs.labels;
  return { apiVersion: plan.apiVersion, kind: 'Object', metadata };
}

/** Labels and fields satisfying every requirement (match) or violating the first one (miss). */
export function matchingAttributes(label: string, field: string, match: boolean): Attributes {
  const out: Attributes = { labels: {}, fields: {} };
  // A miss violates only the first requirement, so that nothing else decides the match.
  let satisfyNext = match;
  let reqs: readonly labels.Requirement[] = [];
  try {
    reqs = labels.parse(label).requirements().requirements;
  } catch {
    // An invalid selector is rejected by the request itself; no objects need it.
  }
  for (const r of reqs) {
    const v = r.strValues[0] ?? '';
    const satisfy = satisfyNext;
    satisfyNext = true;
    switch (r.operator) {
      case Operator.In:
      case Operator.Equals:
      case Operator.DoubleEquals:
        out.labels[r.key] = satisfy ? v : `${v}-other`.slice(-63).replace(/^[^A-Za-z0-9]+/, 'x');
        break;
      case Operator.NotIn:
      case Operator.NotEquals:
        if (!satisfy) out.labels[r.key] = v;
        break;
      case Operator.Exists:
        if (satisfy) out.labels[r.key] = 'x';
        break;
      case Operator.DoesNotExist:
        if (!satisfy) out.labels[r.key] = 'x';
        break;
      case Operator.GreaterThan:
      case Operator.LessThan: {
        const n = BigInt(v);
        const up = r.operator === Operator.GreaterThan;
        out.labels[r.key] = String(satisfy ? (up ? n + 1n : n - 1n) : n);
        break;
      }
    }
  }
  let terms: readonly fields.FieldRequirement[] = [];
  try {
    terms = fields.parseSelector(field).requirements();
  } catch {
    // As above: the request's own validation answers for it.
  }
  for (const t of terms) {
    const satisfy = satisfyNext;
    satisfyNext = true;
    const equal = t.operator !== '!=';
    out.fields[t.field] = satisfy === equal ? t.value : `${t.value}-other`;
  }
  return out;
}
