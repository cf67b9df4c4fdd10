// A controller written with @kubernetes/client-node 1.4.0 in the shape of a kubebuilder scaffold:
// leader election on a coordination.k8s.io Lease (client-go's leaderelection: acquire when the
// lease is free or expired, renew by an update at its resourceVersion), an informer on a custom
// resource, a reconcile that owns a ConfigMap (ownerReferences with controller: true), records a
// core/v1 Event and sets the resource's status through its /status subresource, with a Ready
// condition and observedGeneration. It knows nothing of listwatch-inspector: it runs unchanged
// against any apiserver.
import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  makeInformer,
  type KubernetesObject,
  type V1Lease,
} from '@kubernetes/client-node';

export interface Widget extends KubernetesObject {
  spec?: { greeting?: string };
  status?: {
    observedGeneration?: number;
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
}

export interface WidgetControllerOptions {
  kubeconfig: string;
  namespace: string;
  identity: string;
  group: string;
  version: string;
  plural: string;
  /** The Lease's name (the manager's LeaderElectionID). */
  leaseName: string;
  leaseDurationSeconds?: number;
  retryPeriodMs?: number;
  /** How long after an informer error it is started again (client-node's example: 5 s). */
  informerRestartMs?: number;
}

const status = (e: unknown): number | undefined =>
  e instanceof ApiException ? (e.code as number) : undefined;

export class WidgetController {
  readonly reconciled: string[] = [];
  readonly errors: unknown[] = [];
  /**
   * What the informer reported through its 'error' handler. client-node's ListWatch stops on any
   * error but a 410 (cache.ts doneHandler), so the controller starts it again, as client-node's
   * examples/typescript/informer/informer-with-error-handling.ts does.
   */
  readonly informerErrors: unknown[] = [];
  /** How many times the informer was started again after an error. */
  informerRestarts = 0;
  leader = false;
  private readonly kc = new KubeConfig();
  private readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly coordination: CoordinationV1Api;
  private informer?: ReturnType<typeof makeInformer<Widget>>;
  private renewTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly o: WidgetControllerOptions) {
    this.kc.loadFromFile(o.kubeconfig);
    this.core = this.kc.makeApiClient(CoreV1Api);
    this.custom = this.kc.makeApiClient(CustomObjectsApi);
    this.coordination = this.kc.makeApiClient(CoordinationV1Api);
  }

  /** Campaigns until it leads, then starts the informer (the manager's Start). */
  async start(): Promise<void> {
    while (!this.stopped && !(await this.tryAcquireOrRenew()))
      await new Promise((r) => setTimeout(r, this.o.retryPeriodMs ?? 200));
    if (this.stopped) return;
    this.leader = true;
    this.renewTimer = setInterval(
      () => void this.tryAcquireOrRenew().catch((e) => this.errors.push(e)),
      this.o.retryPeriodMs ?? 200,
    );
    const { namespace, group, version, plural } = this.o;
    this.informer = makeInformer<Widget>(
      this.kc,
      `/apis/${group}/${version}/namespaces/${namespace}/${plural}`,
      () =>
        this.custom.listNamespacedCustomObject({
          group,
          version,
          namespace,
          plural,
        }) as never,
    );
    this.informer.on('add', (w) => void this.reconcile(w));
    this.informer.on('update', (w) => void this.reconcile(w));
    this.informer.on('error', (e) => {
      if (this.stopped) return; // stop() aborts the watch, which reports an error too
      this.informerErrors.push(e);
      setTimeout(() => {
        if (this.stopped) return;
        this.informerRestarts++;
        void this.informer?.start();
      }, this.o.informerRestartMs ?? 200);
    });
    await this.informer.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.renewTimer);
    await this.informer?.stop();
  }

  /** client-go leaderelection's tryAcquireOrRenew over a Lease (create, or update at its RV). */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { namespace, leaseName: name, identity } = this.o;
    const duration = this.o.leaseDurationSeconds ?? 15;
    const now = new Date();
    let lease: V1Lease;
    try {
      lease = await this.coordination.readNamespacedLease({ name, namespace });
    } catch (e) {
      if (status(e) !== 404) throw e;
      await this.coordination.createNamespacedLease({
        namespace,
        body: {
          metadata: { name, namespace },
          spec: {
            holderIdentity: identity,
            leaseDurationSeconds: duration,
            acquireTime: now,
            renewTime: now,
            leaseTransitions: 0,
          },
        },
      });
      return true;
    }
    const spec = lease.spec ?? {};
    const renewed = spec.renewTime ? new Date(spec.renewTime).getTime() : 0;
    const held = spec.holderIdentity && spec.holderIdentity !== identity;
    if (held && renewed + (spec.leaseDurationSeconds ?? duration) * 1000 > now.getTime())
      return false;
    lease.spec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds: duration,
      renewTime: now,
      ...(held || !spec.acquireTime
        ? { acquireTime: now, leaseTransitions: (spec.leaseTransitions ?? 0) + (held ? 1 : 0) }
        : {}),
    };
    try {
      await this.coordination.replaceNamespacedLease({ name, namespace, body: lease });
      return true;
    } catch (e) {
      if (status(e) === 409) return false; // another candidate wrote first
      throw e;
    }
  }

  /** The reconcile: an owned ConfigMap, an Event, and the status through /status. */
  private async reconcile(w: Widget): Promise<void> {
    const { namespace, group, version, plural } = this.o;
    const name = w.metadata?.name ?? '';
    try {
      const configMap = {
        metadata: {
          name: `${name}-config`,
          namespace,
          ownerReferences: [
            {
              apiVersion: `${group}/${version}`,
              kind: w.kind ?? 'Widget',
              name,
              uid: w.metadata?.uid ?? '',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        data: { greeting: w.spec?.greeting ?? '' },
      };
      try {
        await this.core.createNamespacedConfigMap({ namespace, body: configMap });
      } catch (e) {
        if (status(e) !== 409) throw e;
        await this.core.replaceNamespacedConfigMap({
          name: `${name}-config`,
          namespace,
          body: configMap,
        });
      }
      const generation = w.metadata?.generation ?? 0;
      if (w.status?.observedGeneration === generation) return;
      await this.core.createNamespacedEvent({
        namespace,
        body: {
          // client-go's recorder names an Event `<object>.<unix nanos in hex>` (generateName
          // "hello." would be refused: a generated name's prefix must be a DNS subdomain).
          metadata: { name: `${name}.${(BigInt(Date.now()) * 1000000n).toString(16)}`, namespace },
          involvedObject: {
            apiVersion: `${group}/${version}`,
            kind: w.kind ?? 'Widget',
            name,
            namespace,
            uid: w.metadata?.uid,
            resourceVersion: w.metadata?.resourceVersion,
          },
          reason: 'Reconciled',
          message: `ConfigMap ${name}-config is up to date`,
          type: 'Normal',
          source: { component: 'widget-controller' },
          firstTimestamp: new Date(),
          lastTimestamp: new Date(),
          count: 1,
        },
      });
      // r.Status().Update(ctx, widget): a PUT of the whole object to /status at its RV.
      await this.custom.replaceNamespacedCustomObjectStatus({
        group,
        version,
        namespace,
        plural,
        name,
        body: {
          ...w,
          status: {
            observedGeneration: generation,
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'Reconciled',
                message: `ConfigMap ${name}-config is up to date`,
              },
            ],
          },
        },
      });
      this.reconciled.push(name);
    } catch (e) {
      this.errors.push(e);
    }
  }
}
