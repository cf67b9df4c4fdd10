// No single upstream counterpart: what the strategy.go files of the namespaced workload kinds with
// a spec share (apps' deployment, replicaset, statefulset, daemonset; batch's job, cronjob):
// generation 1 on create and +1 when the spec changes, ValidateObjectMeta with a DNS-1123
// subdomain name, then the kind's spec rules on create and update. Each kind's file keeps only
// what is its own.
import type { KubeObject } from '../../engine';
import type { FieldError } from '../../engine/http-face';
import { nameIsDNSSubdomain, validateObjectMetaAccessor } from '../object-meta';
import {
  bumpGenerationOnSpecChange,
  fixedKind,
  strategyDefaults,
  type ObjectStrategy,
} from './strategy';

export interface SpecStrategyOptions {
  group: string;
  kind: string;
  /** The kind's spec rules, on create and on update. */
  validateSpec(obj: KubeObject): FieldError[];
  /** The update-only rules (an immutable selector, StatefulSet's forbidden updates). */
  validateUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** What PrepareForCreate does besides generation 1 (a Job's generated selector). */
  prepareForCreate?(obj: KubeObject): void;
  /** PrepareForUpdate when the kind's rule is not the spec-change one (a DaemonSet's). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject): void;
  /** Annotation changes bump generation too (a Deployment's are copied to its ReplicaSets). */
  annotationsBumpGeneration?: boolean;
}

/** The strategy of a namespaced workload kind with a spec. */
export function specStrategy(o: SpecStrategyOptions): ObjectStrategy {
  return {
    ...strategyDefaults,
    groupKind: fixedKind(o.group, o.kind),
    namespaceScoped: true,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      obj.metadata.generation = 1;
      o.prepareForCreate?.(obj);
    },
    prepareForUpdate:
      o.prepareForUpdate ??
      ((obj, old) => bumpGenerationOnSpecChange(obj, old, o.annotationsBumpGeneration)),
    validate: (obj) => [
      ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
      ...o.validateSpec(obj),
    ],
    validateUpdate: (obj, old) => [...o.validateSpec(obj), ...(o.validateUpdate?.(obj, old) ?? [])],
    resetFields: () => ({}),
  };
}
