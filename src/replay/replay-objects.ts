// No upstream counterpart: the objects a replay needs before and while it re-issues a log. How
// many objects each resource holds is the fewest the log's LIST answers prove (proven-objects.ts:
// remainingItemCount, complete chains, pages at a limit, unpaged LISTs), said with its proof, or
// given; the objects later
// requests name (an update, a delete, a watch of one object) are seeded under their names; a write
// is rebuilt from the object the log carries (Request/RequestResponse audit levels) or synthesised
// from its objectRef (Metadata level). The log does not say seeded objects' labels: each filtered
// LIST's selector is given to as many of them as its answers matched (items + remainingItemCount,
// a complete chain), spread through the key space, so that a filtered LIST pages through etcd as
// it did; other objects carry none. A create the log shows without its object (Metadata level)
// has no labels the log knows: a filtered LIST's proof is carried back past it only once the
// replay has given it the labels that proof needs (labelSynthesisedCreates), so the seeding stays
// the fewest objects every proof allows, and says which creates it labelled.
import { type KubeObject, makePod, SelectionPredicate } from '../engine';
import { formatCount } from '../format/count-text';
import {
  matchingAttributes,
  podWithAttributes,
  shouldMatch,
  type Attributes,
} from '../sim/seeded-objects';
import { parseQuery } from '../request/list-query';
import type { SeededResource } from './replay-options';
import { linkChains, type ChainPlace } from './replay-chains';
import {
  proofsOf,
  provenCounts,
  where,
  type ProvenCount,
  type WritesBefore,
  type WritesBeforeOf,
} from './proven-objects';
import { resourceKey, type ScheduledRequest } from './replay-schedule';

/** Resources that have no namespace (their objects are seeded at the root). */
const clusterScoped: ReadonlySet<string> = new Set([
  'namespaces',
  'nodes',
  'persistentvolumes',
  'clusterroles',
  'clusterrolebindings',
  'customresourcedefinitions',
  'storageclasses',
  'priorityclasses',
  'apiservices',
  'certificatesigningrequests',
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'volumeattachments',
  'csidrivers',
  'csinodes',
  'runtimeclasses',
  'ingressclasses',
]);

/** The namespace of seeded objects no request names a namespace for. */
export const defaultSeedNamespace = 'default';

/** A filtered LIST's selectors and how many objects the log's answers say matched them. */
export interface SelectorCount {
  labelSelector: string;
  fieldSelector: string;
  matching: number;
}

/** The objects of one namespace ('' for a cluster-scoped resource). */
export interface NamespaceSeed {
  /** Names later requests address, written first. */
  names: string[];
  total: number;
  /** Selectors some of them are labelled for (most matching first). */
  selectors: SelectorCount[];
}

/** What to write into etcd for one resource before the first request. */
export interface ResourceSeed {
  group: string;
  resource: string;
  namespaced: boolean;
  byNamespace: Map<string, NamespaceSeed>;
  seeded: SeededResource;
}

/** The names later requests address before any create of them: they must exist. */
function namedObjects(requests: readonly ScheduledRequest[]): Map<string, Map<string, string[]>> {
  const created = new Set<string>();
  const named = new Map<string, Map<string, string[]>>();
  for (const s of requests) {
    const name = s.name || (s.verb === 'watch' ? watchedName(s.query) : '');
    if (!name) continue;
    const id = `${resourceKey(s.group, s.resource)}\u0000${s.namespace}\u0000${name}`;
    if (s.verb === 'create') {
      created.add(id);
      continue;
    }
    if (created.has(id) || s.verb === 'list') continue;
    created.add(id);
    const key = resourceKey(s.group, s.resource);
    let m = named.get(key);
    if (!m) named.set(key, (m = new Map()));
    const list = m.get(s.namespace) ?? [];
    list.push(name);
    m.set(s.namespace, list);
  }
  return named;
}

function watchedName(query: string): string {
  const field = parseQuery(query).get('fieldSelector')?.[0] ?? '';
  const m = /(?:^|,)metadata\.name==?([^,]+)/.exec(field);
  return m ? m[1] : '';
}

/** The name a replayed create or delete writes ('' : the replay cannot re-issue it). */
function writtenName(s: ScheduledRequest): string {
  if (s.verb === 'delete') return s.name;
  return rebuiltObject(s)?.metadata?.name ?? s.name;
}

/** Whether a write is in the scope of a LIST (its resource, its namespace or all). */
function inScope(s: ScheduledRequest, list: ScheduledRequest): boolean {
  return (
    s.group === list.group &&
    s.resource === list.resource &&
    (list.namespace === '' || s.namespace === list.namespace)
  );
}

function selectorsOf(list: ScheduledRequest): { label: string; field: string } {
  const q = parseQuery(list.query);
  return { label: q.get('labelSelector')?.[0] ?? '', field: q.get('fieldSelector')?.[0] ?? '' };
}

/** The object a replayed create writes: the log's, else synthesised with the labels given it. */
function createdObject(s: ScheduledRequest, name: string, attrs: CreateAttributes): KubeObject {
  return (
    rebuiltObject(s) ?? synthesisedObject(s.group, s.resource, s.namespace, name, attrs.get(s))
  );
}

/** Labels (pod fields) the replay gives creates the log shows without their object. */
export type CreateAttributes = Map<ScheduledRequest, Attributes>;

/** The creates labelled for filtered LISTs, and the words that say so. */
export interface LabelledCreates {
  attrs: CreateAttributes;
  /** Per resource key: `28 of the 30 creates … labelled app=x …`. */
  said: Map<string, string[]>;
}

/**
 * A filtered LIST's proof counts objects matching its selectors at its time; a create before it
 * whose object the log does not carry may have matched, or not. The fewest objects consistent
 * with the proof is reached by taking the creates as matching (the nearest before the LIST first,
 * as many as the proof needs): they are given the selector's labels when replayed, and the proof
 * is carried back past them. Taking them as not matching would seed the proof's count again on
 * top of the creates: more objects than the log proves.
 */
export function labelSynthesisedCreates(
  requests: readonly ScheduledRequest[],
  places: ReadonlyMap<ScheduledRequest, ChainPlace>,
): LabelledCreates {
  const attrs: CreateAttributes = new Map();
  const said = new Map<string, string[]>();
  requests.forEach((list, at) => {
    if (list.verb !== 'list') return;
    const sel = selectorsOf(list);
    if (sel.label === '' && sel.field === '') return;
    const n = Math.max(0, ...proofsOf(list, places.get(list)).map((x) => x.n));
    if (n === 0) return;
    const p = SelectionPredicate.from(sel, list.resource);
    const want = matchingAttributes(sel.label, sel.field, true);
    const matching = new Set<string>();
    // Creates without their object, still there at the LIST, that could be made to match.
    const candidates = new Map<string, ScheduledRequest>();
    for (let i = 0; i < at; i++) {
      const s = requests[i];
      if ((s.verb !== 'create' && s.verb !== 'delete') || !inScope(s, list)) continue;
      const name = writtenName(s);
      if (name === '') continue;
      const id = `${s.namespace}\u0000${name}`;
      if (s.verb === 'delete') {
        matching.delete(id);
        candidates.delete(id);
        continue;
      }
      if (p.matches(createdObject(s, name, attrs))) matching.add(id);
      else if (!rebuiltObject(s)) {
        const have = attrs.get(s) ?? { labels: {}, fields: {} };
        if (conflicts(have, want)) continue;
        const merged = {
          labels: { ...have.labels, ...want.labels },
          fields: { ...have.fields, ...want.fields },
        };
        const obj = synthesisedObject(s.group, s.resource, s.namespace, name, merged);
        if (p.matches(obj)) candidates.set(id, s);
      }
    }
    const needed = Math.max(0, n - matching.size);
    const chosen = [...candidates.values()].slice(Math.max(0, candidates.size - needed));
    if (needed === 0 || chosen.length === 0) return;
    for (const s of chosen) {
      const have = attrs.get(s) ?? { labels: {}, fields: {} };
      attrs.set(s, {
        labels: { ...have.labels, ...want.labels },
        fields: { ...have.fields, ...want.fields },
      });
    }
    const key = resourceKey(list.group, list.resource);
    const words = said.get(key) ?? [];
    words.push(
      `${formatCount(chosen.length)} of the ${formatCount(candidates.size)} creates the log shows without their object before the LIST at ${where(list)} given ${[sel.label, sel.field].filter((x) => x).join(' ')}, the labels its proof of ${formatCount(n)} matching needs (the log does not say their labels; taking them as not matching would seed ${formatCount(n)} more objects than the log proves)`,
    );
    said.set(key, words);
  });
  return { attrs, said };
}

/**
 * The replayed creates and deletes before each LIST in its scope. A filtered LIST counts a create
 * whose object (as the replay writes it: the log's, or synthesised with the labels given it)
 * matches its selectors, and a delete of an object a create before it wrote matching; the labels
 * of other deleted objects are not in the log.
 */
function writesBeforeOf(
  requests: readonly ScheduledRequest[],
  attrs: CreateAttributes,
): WritesBeforeOf {
  const index = new Map<ScheduledRequest, number>();
  requests.forEach((s, i) => index.set(s, i));
  const writes = requests
    .map((s, i) => ({
      s,
      i,
      name: s.verb === 'create' || s.verb === 'delete' ? writtenName(s) : '',
    }))
    .filter((w) => w.name !== '');
  return (list, labelSelector, fieldSelector): WritesBefore => {
    const out: WritesBefore = { created: 0, deleted: 0 };
    const filtered = labelSelector !== '' || fieldSelector !== '';
    const p = filtered
      ? SelectionPredicate.from({ label: labelSelector, field: fieldSelector }, list.resource)
      : undefined;
    const matchingCreated = new Set<string>();
    const at = index.get(list) ?? requests.length;
    for (const { s, i, name } of writes) {
      if (i >= at) break;
      if (!inScope(s, list)) continue;
      const id = `${s.namespace}\u0000${name}`;
      if (s.verb === 'create') {
        if (p && !p.matches(createdObject(s, name, attrs))) continue;
        matchingCreated.add(id);
        out.created++;
      } else if (!p || matchingCreated.has(id)) {
        matchingCreated.delete(id);
        out.deleted++;
      }
    }
    return out;
  };
}

/** The seeds of every resource the requests address. */
export function planSeeds(
  requests: readonly ScheduledRequest[],
  given: Readonly<Record<string, number>> = {},
  places: ReadonlyMap<ScheduledRequest, ChainPlace> = linkChains(requests),
  creates: LabelledCreates = labelSynthesisedCreates(requests, places),
): ResourceSeed[] {
  const allCounts = provenCounts(requests, places, writesBeforeOf(requests, creates.attrs));
  const unfiltered = (c: ProvenCount): boolean => c.labelSelector === '' && c.fieldSelector === '';
  const named = namedObjects(requests);
  const resources = new Map<string, { group: string; resource: string; namespaced: boolean }>();
  for (const s of requests) {
    const key = resourceKey(s.group, s.resource);
    const r = resources.get(key) ?? { group: s.group, resource: s.resource, namespaced: false };
    if (s.namespace !== '') r.namespaced = true;
    resources.set(key, r);
  }
  for (const r of resources.values())
    if (!r.namespaced && !clusterScoped.has(r.resource)) r.namespaced = true;
  const seeds: ResourceSeed[] = [];
  for (const [key, r] of resources) {
    const byNamespace = new Map<string, NamespaceSeed>();
    const root = r.namespaced ? defaultSeedNamespace : '';
    const slot = (ns: string): NamespaceSeed => {
      const k = r.namespaced ? ns || root : '';
      let v = byNamespace.get(k);
      if (!v) byNamespace.set(k, (v = { names: [], total: 0, selectors: [] }));
      return v;
    };
    for (const [ns, names] of named.get(key) ?? []) {
      const v = slot(ns);
      v.names.push(...names);
      v.total = Math.max(v.total, v.names.length);
    }
    const inferred = allCounts.get(key) ?? [];
    // The proofs the seeding rests on: per namespace (all namespaces: the resource's), the largest.
    const rests: string[] = [];
    // A count given (--objects) is the user's: the log's proofs do not raise it.
    const givenCount = given[key] ?? given[r.resource];
    for (const c of inferred)
      if (givenCount === undefined && unfiltered(c) && c.namespace !== '') {
        const v = slot(c.namespace);
        // Said even when the names later requests address are more: the text rests on both.
        rests.push(`${formatCount(c.matching)} in ${c.namespace}: ${c.proof}`);
        if (c.matching > v.total) v.total = c.matching;
        else if (v.names.length > c.matching)
          rests.push(
            `${formatCount(v.names.length)} in ${c.namespace}: the objects later requests name there, more than that`,
          );
      }
    const inNamespaces = (): number => [...byNamespace.values()].reduce((a, v) => a + v.total, 0);
    const everywhere = inferred.find((c) => unfiltered(c) && c.namespace === '');
    const wanted = givenCount ?? everywhere?.matching;
    if (wanted !== undefined && wanted > inNamespaces()) {
      if (everywhere && wanted === everywhere.matching)
        rests.push(`${formatCount(wanted)} in all namespaces: ${everywhere.proof}`);
      slot(root).total += wanted - inNamespaces();
    }
    // A filtered LIST's matches are objects of its namespace (all namespaces: the root's).
    let labelled = 0;
    const labelledCreates = creates.said;
    for (const c of inferred) {
      // A selector the labelled creates already match in full needs no seeded object labelled.
      if (unfiltered(c) || c.matching === 0) continue;
      const v = slot(c.namespace);
      v.selectors.push({
        labelSelector: c.labelSelector,
        fieldSelector: c.fieldSelector,
        matching: c.matching,
      });
      if (givenCount === undefined && c.matching > v.total) {
        v.total = c.matching;
        rests.push(
          `${formatCount(c.matching)} matching ${[c.labelSelector, c.fieldSelector].filter((x) => x).join(' ')}${c.namespace ? ` in ${c.namespace}` : ''}: ${c.proof}`,
        );
      }
      labelled++;
    }
    for (const v of byNamespace.values()) v.selectors.sort((a, b) => b.matching - a.matching);
    const objects = inNamespaces();
    const from: SeededResource['from'] =
      givenCount !== undefined ? 'given' : inferred.length > 0 ? 'inferred' : 'named';
    const text =
      from === 'given'
        ? `${formatCount(objects)} given`
        : from === 'inferred'
          ? `${formatCount(objects)} inferred, an assumption: the fewest the log proves (the real count may be higher), resting on ${rests.length ? rests.join('; ') : 'the objects later requests name'}`
          : `${formatCount(objects)}: only the objects later requests name (no LIST answer in the log says how many)`;
    const labels =
      (labelled > 0
        ? `; labelled for ${labelled} filtered LIST selector(s), as many objects as their answers matched`
        : '') + (labelledCreates.get(key) ?? []).map((w) => `; ${w}`).join('');
    seeds.push({
      ...r,
      byNamespace,
      seeded: { resource: key, objects, from, text: text + labels },
    });
  }
  return seeds.sort((a, b) => (a.seeded.resource < b.seeded.resource ? -1 : 1));
}

/** The name of the i-th seeded object no request names. */
export function seededName(i: number): string {
  return `imported-${String(i).padStart(6, '0')}`;
}

/**
 * A synthesised object of a resource: its name and namespace, and the labels (pod fields) a
 * seed gave it so that a filtered LIST of the log matches it; nothing else the log does not say.
 */
export function synthesisedObject(
  group: string,
  resource: string,
  namespace: string,
  name: string,
  attrs?: Attributes,
): KubeObject {
  if (group === '' && resource === 'pods')
    return attrs
      ? podWithAttributes(name, namespace, attrs)
      : makePod({ name, namespace: namespace || undefined });
  const metadata: KubeObject['metadata'] = { name };
  if (namespace) metadata.namespace = namespace;
  if (attrs && Object.keys(attrs.labels).length > 0) metadata.labels = attrs.labels;
  return { metadata } as KubeObject;
}

function conflicts(have: Attributes, want: Attributes): boolean {
  for (const [k, v] of Object.entries(want.labels))
    if (have.labels[k] !== undefined && have.labels[k] !== v) return true;
  for (const [k, v] of Object.entries(want.fields))
    if (have.fields[k] !== undefined && have.fields[k] !== v) return true;
  return false;
}

/**
 * The attributes of a namespace's seeded objects, by index: each selector (most matching first)
 * is given to `matching` objects spread evenly over those whose attributes do not contradict it.
 * Undefined entries carry none. How many each selector really matches is counted on the objects.
 */
export function seedAttributes(seed: NamespaceSeed): Array<Attributes | undefined> {
  const out: Array<Attributes | undefined> = new Array(seed.total);
  for (const sel of seed.selectors) {
    const want = matchingAttributes(sel.labelSelector, sel.fieldSelector, true);
    const free: number[] = [];
    for (let i = 0; i < seed.total; i++) {
      const have = out[i];
      if (have === undefined || !conflicts(have, want)) free.push(i);
    }
    const ratio = free.length > 0 ? Math.min(1, sel.matching / free.length) : 0;
    for (let j = 0; j < free.length; j++) {
      if (!shouldMatch(j, ratio)) continue;
      const i = free[j];
      const have = out[i] ?? { labels: {}, fields: {} };
      out[i] = {
        labels: { ...have.labels, ...want.labels },
        fields: { ...have.fields, ...want.fields },
      };
    }
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The object a write's log carries, made storable: a whole object (metadata.name, or a create's
 * generateName), without the real cluster's resourceVersion. Undefined: the replay synthesises.
 */
export function rebuiltObject(s: ScheduledRequest): KubeObject | undefined {
  const o = s.request.object;
  if (!isObject(o) || !isObject(o.metadata)) return undefined;
  const meta = { ...o.metadata };
  if (typeof meta.name !== 'string' || meta.name === '') {
    if (s.verb !== 'create' || !s.name) return undefined;
    meta.name = s.name;
  }
  delete meta.resourceVersion;
  if (s.namespace && typeof meta.namespace !== 'string') meta.namespace = s.namespace;
  return { ...o, metadata: meta } as KubeObject;
}
