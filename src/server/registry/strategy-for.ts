// No single upstream counterpart: upstream wires each kind's strategy into its Store in the kind's
// own storage.go (pkg/registry/<group>/<kind>/storage); here one table picks it for each served
// resource: the kinds with a file of their own, a custom resource's from its CRD, and
// generic-strategy.ts for every other built-in.
import type { ServedResource } from '../served-resource';
import { configMapStrategy } from './configmap-strategy';
import { cronJobStrategy } from './cronjob-strategy';
import { daemonSetStrategy } from './daemonset-strategy';
import { deploymentStrategy } from './deployment-strategy';
import { jobStrategy } from './job-strategy';
import { replicaSetStrategy } from './replicaset-strategy';
import { secretStrategy } from './secret-strategy';
import type { ServiceAllocators } from './service-allocators';
import { serviceStrategy } from './service-strategy';
import { statefulSetStrategy } from './statefulset-strategy';
import { customResourceStrategy } from './customresource-strategy';
import {
  customResourceDefinitionStatusStrategy,
  customResourceDefinitionStrategy,
} from './customresourcedefinition-strategy';
import { genericStrategy } from './generic-strategy';
import { namespaceStrategy } from './namespace-strategy';
import { podStrategy } from './pod-strategy';
import { statusStrategyOf } from './status-strategy';
import { withStatusKept } from './status-kept';
import type { DeleteStrategy } from './store-delete';
import { apiVersionOf, type ObjectStrategy } from './strategy';

const crdKey = 'apiextensions.k8s.io/customresourcedefinitions';

/** The built-in kinds with a strategy of their own, by `<group>/<resource>` ('' for core). */
const builtInStrategies: Readonly<Record<string, ObjectStrategy>> = {
  '/pods': podStrategy,
  '/configmaps': configMapStrategy,
  '/namespaces': namespaceStrategy,
  'apiextensions.k8s.io/customresourcedefinitions': customResourceDefinitionStrategy,
};

/**
 * The built-in kinds with a strategy of their own whose status rules are status-kept.ts's (every
 * one served with /status takes the generic wrapper, as the generic strategy does).
 */
const kindStrategies: Readonly<Record<string, (of: ServerState) => ObjectStrategy>> = {
  '/secrets': () => secretStrategy,
  '/services': (of) => serviceStrategy(of.serviceAllocators),
  'apps/deployments': () => deploymentStrategy,
  'apps/replicasets': () => replicaSetStrategy,
  'apps/statefulsets': () => statefulSetStrategy,
  'apps/daemonsets': () => daemonSetStrategy,
  'batch/jobs': () => jobStrategy,
  'batch/cronjobs': () => cronJobStrategy,
};

/**
 * The kinds upstream bumps metadata.generation for (1 on create, +1 per spec change) that have no
 * file of their own here: their strategies set it and nothing else this server models.
 */
const specGenerationKinds = new Set([
  '/replicationcontrollers',
  'networking.k8s.io/ingresses',
  'networking.k8s.io/networkpolicies',
  'policy/poddisruptionbudgets',
]);

export type StrategyTarget = Pick<
  ServedResource,
  | 'group'
  | 'version'
  | 'resource'
  | 'kind'
  | 'namespaced'
  | 'jsonOnly'
  | 'builtin'
  | 'crdSubresources'
  | 'openAPIV3Schema'
>;

/** What a kind's strategy keeps of one server's state (ServedResources owns it). */
export interface ServerState {
  /** The Services' ClusterIPs and NodePorts (service-allocators.ts). */
  serviceAllocators: ServiceAllocators;
}

/** Whether the resource serves `/status`: its API row lists it, or its CRD declares it. */
export function hasStatusSubresource(
  served: Pick<StrategyTarget, 'builtin' | 'crdSubresources' | 'jsonOnly'>,
): boolean {
  return served.jsonOnly
    ? !!served.crdSubresources?.status
    : !!served.builtin?.subresources.some((s) => s.name === 'status');
}

/** The strategy (rest.RESTCreateStrategy/RESTUpdateStrategy) of a served resource. */
export function strategyFor(served: StrategyTarget, state: ServerState): ObjectStrategy {
  if (served.jsonOnly) {
    const cr = customResourceStrategy(
      served.group,
      served.version,
      served.kind,
      served.namespaced,
      served.openAPIV3Schema,
    );
    return hasStatusSubresource(served)
      ? withStatusKept(cr, apiVersionOf(served.group, served.version), { zero: undefined })
      : cr;
  }
  const key = `${served.group}/${served.resource}`;
  // The kinds with a file of their own keep their status there (pods, namespaces).
  if (Object.hasOwn(builtInStrategies, key)) return builtInStrategies[key];
  const generic = Object.hasOwn(kindStrategies, key)
    ? kindStrategies[key](state)
    : genericStrategy(served.group, served.kind, served.namespaced, specGenerationKinds.has(key));
  return hasStatusSubresource(served)
    ? withStatusKept(
        generic,
        apiVersionOf(served.group, served.version),
        served.group === '' && served.resource === 'nodes'
          ? { keep: true }
          : { zero: (served.builtin?.newObject() as unknown as { status?: unknown }).status },
      )
    : generic;
}

/**
 * The strategy of the resource's `/status` (status-strategy.ts's, from `main`, the one its Store
 * creates with).
 */
export function statusStrategyFor(served: StrategyTarget, main: ObjectStrategy): ObjectStrategy {
  if (!served.jsonOnly && `${served.group}/${served.resource}` === crdKey)
    return customResourceDefinitionStatusStrategy;
  return statusStrategyOf(main, apiVersionOf(served.group, served.version));
}

/** A kind's RESTDeleteStrategy: its kind, and CheckGracefulDelete when it has one (pods). */
export function deleteStrategyOf(kind: string, strategy: ObjectStrategy): DeleteStrategy {
  const { checkGracefulDelete } = strategy;
  return checkGracefulDelete ? { kind, checkGracefulDelete } : { kind };
}
