// Mirrors kubernetes pkg/registry/core/pod/strategy.go (release-1.36): podStrategy (generation 1
// on create and +1 per spec change, status Pending, unconditional updates, graceful deletion) and
// podStatusStrategy (status-strategy.ts's shape). Deliberate differences: of ValidatePodCreate only
// the name rule and a pod's containers (required, with a name and an image) are modelled; the
// status on create is its phase and qosClass (pod-qos.ts). CheckGracefulDelete: the period is the
// options', else spec.terminationGracePeriodSeconds, else 30 (SetDefaults_PodSpec's value, for a
// pod stored before it was defaulted); 0 for a pod no scheduler has bound (no spec.nodeName) and
// for a Failed or Succeeded one.
import type { KubeObject } from '../../engine';
import { FieldPath, required, type FieldError } from '../../engine/http-face';
import type { DeleteOptions } from '../delete-options';
import { nameIsDNSSubdomain, validateObjectMetaAccessor } from '../object-meta';
import { computePodQOS } from './pod-qos';
import { statusStrategyOf } from './status-strategy';
import { deepEqual, fixedKind, strategyDefaults, type ObjectStrategy } from './strategy';

type Loose = Record<string, unknown>;

/** v1.DefaultTerminationGracePeriodSeconds. */
export const defaultTerminationGracePeriodSeconds = 30;

function specOf(obj: KubeObject): unknown {
  return (obj as unknown as Loose).spec;
}

// A minimal ValidatePodSpec: containers are required, each with a name and an image.
function validatePodContainers(obj: KubeObject): FieldError[] {
  const path = FieldPath.of('spec', 'containers');
  const containers = (specOf(obj) as Loose | undefined)?.containers;
  if (!Array.isArray(containers) || containers.length === 0) return [required(path, '')];
  const errs: FieldError[] = [];
  containers.forEach((c: Loose | null, i) => {
    if (!c || typeof c.name !== 'string' || c.name === '')
      errs.push(required(path.index(i).child('name'), ''));
    if (!c || typeof c.image !== 'string' || c.image === '')
      errs.push(required(path.index(i).child('image'), ''));
  });
  return errs;
}

/** podStrategy.CheckGracefulDelete: always graceful, with the period written into the options. */
export function podCheckGracefulDelete(obj: KubeObject, options: DeleteOptions): boolean {
  const pod = obj as unknown as {
    spec?: { nodeName?: string; terminationGracePeriodSeconds?: number | null };
    status?: { phase?: string };
  };
  let period =
    typeof options.gracePeriodSeconds === 'number'
      ? options.gracePeriodSeconds
      : (pod.spec?.terminationGracePeriodSeconds ?? defaultTerminationGracePeriodSeconds);
  if (!pod.spec?.nodeName) period = 0;
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  if (period < 0) period = 1;
  options.gracePeriodSeconds = period;
  return true;
}

/** pod.Strategy. */
export const podStrategy: ObjectStrategy = {
  ...strategyDefaults,
  groupKind: fixedKind('', 'Pod'),
  namespaceScoped: true,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    obj.metadata.generation = 1;
    const spec = (specOf(obj) ?? {}) as Loose;
    (obj as unknown as Loose).status = { phase: 'Pending', qosClass: computePodQOS(spec) };
  },
  prepareForUpdate(obj, old) {
    const status = (old as unknown as Loose).status;
    if (status === undefined) delete (obj as unknown as Loose).status;
    else (obj as unknown as Loose).status = status;
    if (!deepEqual(specOf(obj), specOf(old)))
      obj.metadata.generation = (obj.metadata.generation ?? 0) + 1;
  },
  // ValidatePodCreate: ValidateObjectMeta(ValidatePodName), then the spec.
  validate: (obj) => [
    ...validateObjectMetaAccessor(obj.metadata, true, nameIsDNSSubdomain),
    ...validatePodContainers(obj),
  ],
  validateUpdate: (obj) => validatePodContainers(obj),
  resetFields: () => ({ v1: [['status']] }),
  checkGracefulDelete: podCheckGracefulDelete,
};

/** pod.StatusStrategy: status from the request, spec and metadata's own fields kept. */
export const podStatusStrategy: ObjectStrategy = statusStrategyOf(podStrategy, 'v1');
