// No single upstream counterpart: upstream wires each kind's strategy into its Store in the kind's
// own storage.go (pkg/registry/<group>/<kind>/storage); here one table picks it for each served
// resource: the kinds with a file of their own, a custom resource's from its CRD, and
// generic-strategy.ts for every other built-in.
import type { ServedResource } from '../served-resource';
import { configMapStrategy } from './configmap-strategy';
import { customResourceStrategy } from './customresource-strategy';
import { genericStrategy } from './generic-strategy';
import { namespaceStrategy } from './namespace-strategy';
import { podStrategy } from './pod-strategy';
import type { DeleteStrategy } from './store-delete';
import type { ObjectStrategy } from './strategy';

/** The built-in kinds with a strategy of their own, by `<group>/<resource>` ('' for core). */
const builtInStrategies: Readonly<Record<string, ObjectStrategy>> = {
  '/pods': podStrategy,
  '/configmaps': configMapStrategy,
  '/namespaces': namespaceStrategy,
};

type StrategyTarget = Pick<
  ServedResource,
  'group' | 'version' | 'resource' | 'kind' | 'namespaced' | 'jsonOnly'
>;

/** The strategy (rest.RESTCreateStrategy/RESTUpdateStrategy) of a served resource. */
export function strategyFor(served: StrategyTarget): ObjectStrategy {
  if (served.jsonOnly)
    return customResourceStrategy(served.group, served.version, served.kind, served.namespaced);
  const key = `${served.group}/${served.resource}`;
  return Object.hasOwn(builtInStrategies, key)
    ? builtInStrategies[key]
    : genericStrategy(served.group, served.kind, served.namespaced);
}

/** The resource's RESTDeleteStrategy: its kind, and CheckGracefulDelete when it has one (pods). */
export function deleteStrategyOf(served: StrategyTarget): DeleteStrategy {
  const { checkGracefulDelete } = strategyFor(served);
  return checkGracefulDelete ? { kind: served.kind, checkGracefulDelete } : { kind: served.kind };
}
