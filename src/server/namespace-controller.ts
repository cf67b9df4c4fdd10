// Mirrors kubernetes pkg/controller/namespace/namespace_controller.go and
// deletion/{namespaced_resources_deleter.go,namespace_condition_updater.go} (release-1.36): the
// namespace controller of kube-controller-manager, which this server has none of, emulated in
// process so that a deleted namespace ends as it does in a cluster. 5 s after a namespace is
// marked for deletion (namespaceDeletionGracePeriod) it deletes every namespaced object in it with
// Background propagation (through each resource's registry Store, so finalizers and graceful pods
// keep their objects), writes the deletion conditions through the namespace Store's status
// strategy, and once nothing remains removes its `kubernetes` finalizer through the finalize
// subresource's (namespaceFinalizeStrategy), whose update deletes the namespace. While content remains it retries after estimate/2+1 s (15 s estimated for
// finalizers). Deliberate differences: the queue is fed by this server's namespace DELETE (no
// informer); the work runs one namespace at a time; discovery is the registry itself.
import type { KubeObject, RequestContext } from '../engine';
import { propagationBackground } from './delete-options';
import { formatTime } from './object-meta';
import type { ServedResources } from './served-resources';
import type { ServedResource } from './served-resource';
import { namespaceFinalizeStrategy, namespaceStatusStrategy } from './registry/namespace-strategy';
import { isNotFound } from './registry/store-delete';
import { specFinalizers } from './registry/namespace-storage';

/** namespaceDeletionGracePeriod. */
export const namespaceDeletionGracePeriodMs = 5000;

/** finalizerEstimateSeconds: the default wait for finalizers on remaining content. */
export const finalizerEstimateSeconds = 15;

/** The user agent of kube-controller-manager's namespace-controller client. */
export const namespaceControllerUserAgent = 'kube-controller-manager/namespace-controller';

/** v1.FinalizerKubernetes: the token this controller removes. */
const finalizerToken = 'kubernetes';

/** conditionTypes, with okReasons and okMessages. */
const conditionTypes: ReadonlyArray<[type: string, reason: string, message: string]> = [
  [
    'NamespaceDeletionDiscoveryFailure',
    'ResourcesDiscovered',
    'All resources successfully discovered',
  ],
  [
    'NamespaceDeletionGroupVersionParsingFailure',
    'ParsedGroupVersions',
    'All legacy kube types successfully parsed',
  ],
  [
    'NamespaceDeletionContentFailure',
    'ContentDeleted',
    'All content successfully deleted, may be waiting on finalization',
  ],
  ['NamespaceContentRemaining', 'ContentRemoved', 'All content successfully removed'],
  [
    'NamespaceFinalizersRemaining',
    'ContentHasNoFinalizers',
    'All content-preserving finalizers finished',
  ],
];

/** v1.NamespaceCondition in Go's field order. */
export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** What deleteAllContent found left: per resource, per finalizer, and the estimate. */
export interface ContentRemaining {
  estimateSeconds: number;
  /** `configmaps.` (resource.group) → instances. */
  resources: Map<string, number>;
  finalizers: Map<string, number>;
  errors: string[];
}

/**
 * namespaceConditionUpdater: the five conditions, the failing ones for what remains and the ok
 * variant of the others; a condition's lastTransitionTime moves only when its status does.
 * Returns the new list, or undefined when nothing changed.
 */
export function updateConditions(
  old: readonly NamespaceCondition[],
  remaining: ContentRemaining,
  now: number,
): NamespaceCondition[] | undefined {
  const time = formatTime(now);
  const failing = new Map<string, NamespaceCondition>();
  const sortedCounts = (m: Map<string, number>, fmt: (k: string, n: number) => string): string[] =>
    [...m]
      .filter(([, n]) => n !== 0)
      .map(([k, n]) => fmt(k, n))
      .sort();
  if (remaining.resources.size > 0)
    failing.set('NamespaceContentRemaining', {
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: time,
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${sortedCounts(remaining.resources, (r, n) => `${r} has ${n} resource instances`).join(', ')}`,
    });
  if (remaining.finalizers.size > 0)
    failing.set('NamespaceFinalizersRemaining', {
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      lastTransitionTime: time,
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${sortedCounts(remaining.finalizers, (f, n) => `${f} in ${n} resource instances`).join(', ')}`,
    });
  if (remaining.errors.length > 0) {
    const msgs = [...remaining.errors].sort();
    failing.set('NamespaceDeletionContentFailure', {
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      lastTransitionTime: time,
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
    });
  }
  const conditions = old.map((c) => ({ ...c }));
  let changed = false;
  for (const [type, reason, message] of conditionTypes) {
    const next = failing.get(type) ?? {
      type,
      status: 'False',
      lastTransitionTime: time,
      reason,
      message,
    };
    const prev = conditions.find((c) => c.type === type);
    if (!prev) {
      conditions.push(next);
      changed = true;
    } else if (
      prev.status !== next.status ||
      prev.message !== next.message ||
      prev.reason !== next.reason
    ) {
      if (prev.status !== next.status) prev.lastTransitionTime = time;
      prev.status = next.status;
      prev.reason = next.reason;
      prev.message = next.message;
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}

type Loose = Record<string, unknown>;

function statusOf(ns: KubeObject): Loose {
  const o = ns as unknown as Loose;
  if (!o.status || typeof o.status !== 'object') o.status = {};
  return o.status as Loose;
}

/**
 * The emulated controller. `enqueue` schedules a namespace's sync after the grace period;
 * `stop` cancels what is scheduled. Timers run on the wall clock (the registry's RealClock).
 */
export class NamespaceController {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly resources: ServedResources,
    private readonly o: { gracePeriodMs?: number; log?: (message: string) => void } = {},
  ) {}

  /** enqueueNamespace: AddAfter(namespaceDeletionGracePeriod). */
  enqueue(name: string, delayMs = this.o.gracePeriodMs ?? namespaceDeletionGracePeriodMs): void {
    if (this.stopped || this.timers.has(name)) return;
    const timer = setTimeout(() => {
      this.timers.delete(name);
      this.running = this.running.then(() => this.syncNamespace(name));
    }, delayMs);
    timer.unref?.();
    this.timers.set(name, timer);
  }

  /** Cancels every scheduled sync and resolves once the running one has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.running;
  }

  // syncNamespaceFromKey: ResourcesRemainingError requeues after estimate/2+1 seconds.
  private async syncNamespace(name: string): Promise<void> {
    if (this.stopped) return;
    try {
      const estimate = await this.delete(name);
      if (estimate > 0) this.enqueue(name, (Math.floor(estimate / 2) + 1) * 1000);
    } catch (e) {
      this.o.log?.(`namespace controller: ${name}: ${(e as Error).message}`);
      if (!this.stopped) this.enqueue(name, 1000);
    }
  }

  private context(method: 'GET' | 'PUT' | 'DELETE', path: string): RequestContext {
    return this.resources.requests.newContext(namespaceControllerUserAgent, method, path);
  }

  /**
   * namespacedResourcesDeleter.Delete: the content removed, then the finalizer token; the
   * estimate in seconds while content remains (ResourcesRemainingError), else 0.
   */
  async delete(name: string): Promise<number> {
    const nsServed = this.resources.namespaces;
    const path = `/api/v1/namespaces/${name}`;
    let ns: KubeObject;
    try {
      ns = await nsServed.store.get('', name, '', this.context('GET', path));
    } catch (e) {
      if (isNotFound(e)) return 0;
      throw e;
    }
    if (!ns.metadata.deletionTimestamp) return 0;
    if (specFinalizers(ns).length === 0) return 0;
    const remaining = await this.deleteAllContent(name);
    await this.updateStatusConditions(name, remaining);
    if (remaining.errors.length > 0) throw new Error(remaining.errors.join(', '));
    if (remaining.estimateSeconds > 0 || remaining.resources.size > 0) {
      return Math.max(remaining.estimateSeconds, 1);
    }
    await this.finalizeNamespace(name);
    return 0;
  }

  private namespacedResources(): ServedResource[] {
    return this.resources.perStorage.filter(
      (r) => r.namespaced && r.verbs.includes('deletecollection') && r.verbs.includes('list'),
    );
  }

  /** deleteAllContent: DeleteCollection (Background) per resource, then what is left. */
  async deleteAllContent(namespace: string): Promise<ContentRemaining> {
    const remaining: ContentRemaining = {
      estimateSeconds: 0,
      resources: new Map(),
      finalizers: new Map(),
      errors: [],
    };
    for (const served of this.namespacedResources()) {
      const collection = `${served.group === '' ? '/api' : `/apis/${served.group}`}/${served.version}/namespaces/${namespace}/${served.resource}`;
      try {
        const list = await served.store.list({ namespace }, this.context('GET', collection));
        await served.store.deleteItems(
          list.items,
          { propagationPolicy: propagationBackground },
          this.context('DELETE', collection),
        );
        const left = (await served.store.list({ namespace }, this.context('GET', collection)))
          .items;
        if (left.length === 0) continue;
        remaining.resources.set(`${served.resource}.${served.group}`, left.length);
        let estimate = 0;
        if (served.group === '' && served.resource === 'pods')
          estimate = estimateGracefulTerminationForPods(left);
        let withFinalizers = false;
        for (const item of left)
          for (const f of (item.metadata as { finalizers?: string[] }).finalizers ?? []) {
            remaining.finalizers.set(f, (remaining.finalizers.get(f) ?? 0) + 1);
            withFinalizers = true;
          }
        if (withFinalizers) estimate = Math.max(estimate, finalizerEstimateSeconds);
        remaining.estimateSeconds = Math.max(remaining.estimateSeconds, estimate);
      } catch (e) {
        remaining.errors.push((e as Error).message);
      }
    }
    return remaining;
  }

  /** The conditions written through the status subresource (spec kept), when they change. */
  private async updateStatusConditions(name: string, remaining: ContentRemaining): Promise<void> {
    const status = this.resources.namespaces.store.withUpdateStrategy(namespaceStatusStrategy);
    await status.update(
      '',
      name,
      (existing) => {
        const obj = structuredClone(existing);
        const current = statusOf(obj);
        const old = Array.isArray(current.conditions)
          ? (current.conditions as NamespaceCondition[])
          : [];
        const next = updateConditions(old, remaining, this.resources.clock.now());
        if (next) current.conditions = next;
        return obj;
      },
      { context: this.context('PUT', `/api/v1/namespaces/${name}/status`) },
    );
  }

  /**
   * finalizeNamespace: spec.finalizers without the token (sorted, as a set), through finalize,
   * whose update deletes the namespace once none are left.
   */
  private async finalizeNamespace(name: string): Promise<void> {
    const finalize = this.resources.namespaces.store.withUpdateStrategy(namespaceFinalizeStrategy);
    try {
      await finalize.update(
        '',
        name,
        (existing) => {
          const obj = structuredClone(existing);
          const spec = (obj as unknown as Loose).spec as Loose;
          spec.finalizers = [...new Set(specFinalizers(existing))]
            .filter((f) => f !== finalizerToken)
            .sort();
          return obj;
        },
        { context: this.context('PUT', `/api/v1/namespaces/${name}/finalize`) },
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}

/** estimateGracefulTerminationForPods: the longest grace period of a pod not yet terminal. */
function estimateGracefulTerminationForPods(pods: readonly KubeObject[]): number {
  let estimate = 0;
  for (const pod of pods) {
    const p = pod as unknown as {
      spec?: { terminationGracePeriodSeconds?: number };
      status?: { phase?: string };
    };
    const phase = p.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') continue;
    const grace = p.spec?.terminationGracePeriodSeconds ?? 30;
    if (grace > estimate) estimate = grace;
  }
  return estimate;
}
