// Mirrors apiextensions-apiserver's controllers of a CRD's life (release-1.36):
// pkg/controller/status/naming_controller.go (status.acceptedNames and NamesAccepted),
// pkg/controller/establish/establishing_controller.go (Established), pkg/controller/finalizer/
// crd_finalizer.go (the customresourcecleanup finalizer: Terminating, its custom objects deleted,
// the finalizer removed through /status) and the serving half of pkg/apiserver/customresource_handler.go
// (a CRD's resource served once established, torn down when the CRD changes or goes).
// Deliberate differences: one queue, fed by the CRD Store's writes (Store.afterWrite) and a list at
// start, instead of informers; Established is set in the same sync as NamesAccepted, after the
// resource is served (a single apiserver: no HA wait); a CRD is terminating (its objects' creates
// refused) from its deletionTimestamp, a moment before upstream's Terminating condition; the names of resources served otherwise (built-ins, `--crd` files) in
// the CRD's group count as taken.
import type { KubeObject, RequestContext } from '../engine';
import { CrdError, customResourceDefinitionOf } from './crd';
import type { ServedResource } from './served-resource';
import type { ServedResources } from './served-resources';
import {
  crdHasFinalizer,
  findCRDCondition,
  isCRDConditionTrue,
  setCRDCondition,
  type CustomResourceDefinitionCondition,
} from './registry/customresourcedefinition-conditions';
import { customResourceCleanupFinalizer } from './registry/customresourcedefinition-strategy';
import { statusStrategyFor } from './registry/strategy-for';
import { isNotFound } from './registry/store-delete';

/** The user agent of the controllers' loopback requests. */
export const crdControllerUserAgent = 'kube-apiserver/apiextensions-controllers';

/** How long a CRD whose custom objects still have finalizers waits before it checks again. */
const instancesRemainingRetryMs = 1000;

type Loose = Record<string, unknown>;

interface AcceptedNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

const isRecord = (v: unknown): v is Loose =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

function specOf(crd: KubeObject): Loose {
  const spec = (crd as unknown as Loose).spec;
  return isRecord(spec) ? spec : {};
}

function acceptedNamesOf(crd: KubeObject): AcceptedNames {
  const status = (crd as unknown as Loose).status;
  const names = isRecord(status) && isRecord(status.acceptedNames) ? status.acceptedNames : {};
  return names as unknown as AcceptedNames;
}

/** equalToAcceptedOrFresh. */
function equalToAcceptedOrFresh(
  requested: string,
  accepted: string,
  used: ReadonlySet<string>,
): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/**
 * calculateNamesAndConditions: the names granted and the NamesAccepted condition, given the
 * names taken in the group (`resources`: plurals, singulars, short names; `kinds`).
 */
export function calculateNamesAndConditions(
  crd: KubeObject,
  used: { resources: ReadonlySet<string>; kinds: ReadonlySet<string> },
): {
  names: AcceptedNames;
  namesAccepted: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
} {
  const requested = (isRecord(specOf(crd).names) ? specOf(crd).names : {}) as Loose;
  const accepted = acceptedNamesOf(crd);
  const names: Loose = { ...(accepted as unknown as Loose) };
  let conflict: { reason: string; message: string } | undefined;
  const check = (field: string, reason: string, set: ReadonlySet<string>): void => {
    const err = equalToAcceptedOrFresh(str(requested[field]), str(names[field]), set);
    if (err) conflict = { reason, message: err };
    else names[field] = requested[field];
  };
  check('plural', 'PluralConflict', used.resources);
  check('singular', 'SingularConflict', used.resources);
  const requestedShort = strings(requested.shortNames);
  const acceptedShort = strings(accepted.shortNames);
  if (JSON.stringify(requestedShort) !== JSON.stringify(acceptedShort)) {
    const errs = requestedShort
      .filter((s) => !acceptedShort.includes(s))
      .map((s) => equalToAcceptedOrFresh(s, '', used.resources))
      .filter((e): e is string => e !== undefined);
    if (errs.length > 0)
      conflict = {
        reason: 'ShortNamesConflict',
        message: errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`,
      };
    else if (requestedShort.length > 0) names.shortNames = requestedShort;
    else delete names.shortNames;
  }
  check('kind', 'KindConflict', used.kinds);
  check('listKind', 'ListKindConflict', used.kinds);
  if (requested.categories !== undefined) names.categories = requested.categories;
  else delete names.categories;
  return {
    names: orderNames(names),
    namesAccepted: conflict
      ? { type: 'NamesAccepted', status: 'False', ...conflict }
      : {
          type: 'NamesAccepted',
          status: 'True',
          reason: 'NoConflicts',
          message: 'no conflicts found',
        },
  };
}

// CustomResourceDefinitionNames in Go's field order (omitempty fields absent).
function orderNames(n: Loose): AcceptedNames {
  const out: Loose = {};
  for (const k of ['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories'])
    if (n[k] !== undefined && n[k] !== '') out[k] = n[k];
  if (out.plural === undefined) out.plural = '';
  if (out.kind === undefined) out.kind = '';
  return out as unknown as AcceptedNames;
}

/** The emulated controllers; `enqueue` is the CRD Store's afterWrite. */
export class CustomResourceDefinitionController {
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** CRD name → the resource it serves (or served, while its custom objects are deleted). */
  private readonly serving = new Map<string, { resource: ServedResource; fingerprint: string }>();
  private readonly crds: ServedResource;

  constructor(
    private readonly resources: ServedResources,
    private readonly o: { log?: (message: string) => void } = {},
  ) {
    this.crds = resources.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
    this.crds.store.afterWrite = (name) => this.enqueue(name);
  }

  /** Syncs every stored CRD (a real etcd that served before may hold some). */
  async start(): Promise<void> {
    const list = await this.crds.store.list({}, this.context('GET', 'list'));
    for (const crd of list.items) this.enqueue(crd.metadata.name ?? '');
    await this.idle();
  }

  /** Queues a sync of the CRD `name`. */
  enqueue(name: string): void {
    if (this.stopped || name === '') return;
    this.queue = this.queue.then(() =>
      this.sync(name).catch((e: unknown) => {
        this.o.log?.(`customresourcedefinition controller: ${name}: ${(e as Error).message}`);
      }),
    );
  }

  /** Resolves once every queued sync has run. */
  async idle(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.queue;
      await last;
    } while (last !== this.queue);
  }

  /**
   * Stops the queue and the retries, and the engines of CRDs being finalized (the served ones stop
   * with the ServedResources).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.queue;
    for (const { resource } of this.serving.values())
      if (!this.resources.all.includes(resource)) resource.engine.stop();
  }

  private context(method: 'GET' | 'PUT' | 'DELETE', name: string): RequestContext {
    const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions${name === 'list' ? '' : `/${name}`}`;
    return this.resources.requests.newContext(crdControllerUserAgent, method, path);
  }

  private async sync(name: string): Promise<void> {
    if (this.stopped) return;
    let crd: KubeObject;
    try {
      crd = await this.crds.store.get('', name, '', this.context('GET', name));
    } catch (e) {
      if (!isNotFound(e)) throw e;
      // Gone: its storage is torn down (every watch on it ends).
      this.tearDown(name);
      return;
    }
    if (crd.metadata.deletionTimestamp) return this.finalize(name, crd);
    const { names, namesAccepted } = calculateNamesAndConditions(crd, await this.usedNames(crd));
    const accepted = namesAccepted.status === 'True';
    // Served first, so that a client that saw Established finds the resource.
    if (accepted || isCRDConditionTrue(crd, 'Established')) await this.serve(name, crd);
    await this.updateStatus(name, crd, (obj, now) => {
      const status = (obj as unknown as Loose).status as Loose;
      status.acceptedNames = names;
      setCRDCondition(obj, namesAccepted, now);
      const established = findCRDCondition(obj, 'Established');
      if (accepted)
        setCRDCondition(
          obj,
          {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
          },
          now,
        );
      else if (!established)
        setCRDCondition(
          obj,
          {
            type: 'Established',
            status: 'False',
            reason: 'NotAccepted',
            message: 'not all names are accepted',
          },
          now,
        );
    });
  }

  /** The names the group's other CRDs were granted, and those served otherwise in the group. */
  private async usedNames(
    crd: KubeObject,
  ): Promise<{ resources: Set<string>; kinds: Set<string> }> {
    const group = str(specOf(crd).group);
    const resources = new Set<string>();
    const kinds = new Set<string>();
    const list = await this.crds.store.list({}, this.context('GET', 'list'));
    for (const item of list.items) {
      if (str(specOf(item).group) !== group) continue;
      const n = acceptedNamesOf(item);
      for (const r of [n.plural, n.singular ?? '', ...strings(n.shortNames)]) resources.add(r);
      for (const k of [n.kind, n.listKind ?? '']) kinds.add(k);
    }
    // Every served version of a CRD shares its engine.
    const ours = new Set([...this.serving.values()].map((s) => s.resource.engine));
    for (const r of this.resources.all) {
      if (r.group !== group || ours.has(r.engine)) continue;
      for (const n of [r.resource, r.singularName, ...r.shortNames]) resources.add(n);
      for (const k of [r.kind, r.listKind]) kinds.add(k);
    }
    resources.delete('');
    kinds.delete('');
    return { resources, kinds };
  }

  /** crdHandler's crdInfo: (re)built when what it serves changed, dropped if no longer served. */
  private async serve(name: string, crd: KubeObject): Promise<void> {
    let def;
    try {
      def = customResourceDefinitionOf(crd, name);
    } catch (e) {
      // Validation admitted it; a CRD this server cannot serve is left unserved.
      if (e instanceof CrdError) return void this.o.log?.(e.message);
      throw e;
    }
    const fingerprint = JSON.stringify(def);
    const current = this.serving.get(name);
    if (current?.fingerprint === fingerprint) return;
    if (def.served === false) return this.tearDown(name);
    if (
      current &&
      (current.resource.group !== def.group || current.resource.resource !== def.plural)
    )
      this.tearDown(name);
    const resource = await this.resources.serveCustomResource(def);
    this.serving.set(name, { resource, fingerprint });
  }

  /** removeStorage: the resource no longer served, its watches ended. */
  private tearDown(name: string): void {
    const current = this.serving.get(name);
    if (!current) return;
    this.serving.delete(name);
    this.resources.stopServing(current.resource.group, current.resource.resource);
    current.resource.engine.stop();
  }

  /** CRDFinalizer.sync: custom objects deleted, then the finalizer removed through /status. */
  private async finalize(name: string, crd: KubeObject): Promise<void> {
    // Still served for reads, updates and deletes until the CRD is gone; creates refused.
    const current = this.serving.get(name);
    if (current) this.resources.markTerminating(current.resource.group, current.resource.resource);
    if (!crdHasFinalizer(crd, customResourceCleanupFinalizer)) return;
    const inProgress = {
      type: 'Terminating',
      status: 'True' as const,
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    };
    await this.updateStatus(name, crd, (obj, now) => setCRDCondition(obj, inProgress, now));
    let done: Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
    if (current && isCRDConditionTrue(crd, 'Established')) {
      const store = current.resource.store;
      const ctx = this.context('DELETE', name);
      const all = await store.list({}, ctx);
      await store.deleteItems(all.items, {}, ctx);
      if ((await store.list({}, ctx)).items.length > 0) {
        // Objects with finalizers of their own: check again later.
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.enqueue(name);
        }, instancesRemainingRetryMs);
        t.unref?.();
        this.timers.add(t);
        return;
      }
      done = {
        type: 'Terminating',
        status: 'False',
        reason: 'InstanceDeletionCompleted',
        message: 'removed all instances',
      };
    } else {
      done = {
        type: 'Terminating',
        status: 'False',
        reason: 'NeverEstablished',
        message: 'resource was never established',
      };
    }
    // The update that empties the finalizers deletes the CRD (its afterWrite tears the rest down).
    await this.updateStatus(name, crd, (obj, now) => {
      setCRDCondition(obj, done, now);
      const meta = obj.metadata as unknown as Loose;
      const left = strings(meta.finalizers).filter((f) => f !== customResourceCleanupFinalizer);
      if (left.length > 0) meta.finalizers = left;
      else delete meta.finalizers;
    });
    // Gone with the CRD: no longer served, its watches ended.
    this.tearDown(name);
  }

  /**
   * UpdateStatus with `change` applied to the stored CRD. Nothing is written when `change` leaves
   * `crd` (what the sync read) as it was: a write would queue this sync again.
   */
  private async updateStatus(
    name: string,
    crd: KubeObject,
    change: (crd: KubeObject, now: number) => void,
  ): Promise<void> {
    const probe = structuredClone(crd);
    if (!isRecord((probe as unknown as Loose).status)) (probe as unknown as Loose).status = {};
    change(probe, this.resources.clock.now());
    if (JSON.stringify(probe) === JSON.stringify(crd)) return;
    const status = this.crds.store.withUpdateStrategy(
      statusStrategyFor(this.crds, this.crds.store.createStrategy),
    );
    try {
      await status.update(
        '',
        name,
        (existing) => {
          const obj = structuredClone(existing);
          const o = obj as unknown as Loose;
          if (!isRecord(o.status)) o.status = {};
          change(obj, this.resources.clock.now());
          return obj;
        },
        { context: this.context('PUT', `${name}/status`) },
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
