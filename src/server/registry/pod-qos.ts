// Mirrors kubernetes pkg/apis/core/helper/qos/qos.go (release-1.36) ComputePodQOS, which the pod
// strategy's PrepareForCreate stores as status.qosClass: BestEffort without cpu or memory requests
// or limits, Guaranteed when every container limits both and every request equals its limit,
// Burstable otherwise. Deliberate difference: pod-level resources (spec.resources) are not read.
import { quantityValue } from '../resource-quantity';

type Loose = Record<string, unknown>;

/** The compute resources QoS reads (isSupportedQoSComputeResource). */
const qosComputeResources = ['cpu', 'memory'];

const objectOf = (v: unknown): Loose | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : undefined;

/** ComputePodQOS of a Pod's spec. */
export function computePodQOS(spec: Loose): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  const containers = [spec.containers, spec.initContainers].flatMap((v) =>
    Array.isArray(v) ? v.map(objectOf).filter((c): c is Loose => !!c) : [],
  );
  for (const c of containers) {
    const resources = objectOf(c.resources);
    for (const [name, q] of Object.entries(objectOf(resources?.requests) ?? {})) {
      const v = quantityValue(q) ?? 0;
      if (qosComputeResources.includes(name) && v > 0)
        requests.set(name, (requests.get(name) ?? 0) + v);
    }
    const found = new Set<string>();
    for (const [name, q] of Object.entries(objectOf(resources?.limits) ?? {})) {
      const v = quantityValue(q) ?? 0;
      if (qosComputeResources.includes(name) && v > 0) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0) + v);
      }
    }
    if (!qosComputeResources.every((r) => found.has(r))) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  // A request without an equal limit cannot be Guaranteed.
  if (isGuaranteed)
    for (const [name, req] of requests)
      if (limits.get(name) !== req) {
        isGuaranteed = false;
        break;
      }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
