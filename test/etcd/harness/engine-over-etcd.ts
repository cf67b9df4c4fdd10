// Test harness: the engine's pods resource over a real etcd as the fault tests run it (a real
// clock, RequestWatchProgress as kube-apiserver decides it from the members' versions, its
// reflector's events kept), and one way to log a fault run. No upstream counterpart.
import { createResource, type Resource } from '../../../src/engine/apiserver';
import { RealClock } from '../../../src/engine/clock';
import { membersSupportRequestWatchProgress } from '../../../src/engine/etcd3/feature-support-checker';
import { SeededRandom } from '../../../src/engine/rand';
import type { GrpcEtcd } from '../../../src/etcd-client/grpc-etcd';
import { recoveryLine, ReflectorEvents, type FaultLoadResult } from './fault-workload';

/**
 * What kube-apiserver's storage feature checker decides for these members (CheckClient:
 * membersSupportRequestWatchProgress of their Maintenance Status versions), logged with `label`.
 * Without it the cacher serves no consistent read from the watch cache: they go to etcd.
 */
async function checkRequestWatchProgress(
  etcd: GrpcEtcd,
  urls: readonly string[],
  label: string,
): Promise<boolean> {
  const versions = await Promise.all(urls.map(async (u) => (await etcd.status(u)).version));
  const supported = membersSupportRequestWatchProgress(versions);
  console.log(
    `${label}: etcd ${versions.join(', ')}: RequestWatchProgress ` +
      `${supported ? 'supported' : 'unsupported (consistent reads go to etcd)'}`,
  );
  return supported;
}

/** A started, ready pods resource over `etcd` (whose members are `urls`); `label` prefixes its log. */
export async function engineOverEtcd(
  etcd: GrpcEtcd,
  urls: readonly string[],
  label: string,
  rand: SeededRandom,
): Promise<{ resource: Resource<GrpcEtcd>; reflector: ReflectorEvents }> {
  const reflector = new ReflectorEvents();
  const requestWatchProgressSupported = await checkRequestWatchProgress(etcd, urls, label);
  const resource = createResource({
    clock: new RealClock(),
    rand: new SeededRandom(rand.intn(4294967296)),
    etcd,
    eventSink: reflector.inspector,
    cache: { requestWatchProgressSupported },
  });
  resource.start();
  await resource.waitReady();
  return { resource, reflector };
}

/** A fault run's failed writes (the first five) and its recovery line, prefixed with `label`. */
export function logFaultRun(label: string, run: FaultLoadResult): void {
  if (run.log.errors.length)
    console.log(`${label}: failed writes: ${run.log.errors.slice(0, 5).join('; ')}`);
  console.log(recoveryLine(label, run));
}
