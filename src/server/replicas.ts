// No upstream counterpart as one file: `serve --replicas N` runs N apiservers over one etcd, as an
// HA control plane does, behind one URL that spreads requests as the load balancer in front of
// kube-apiservers does (round robin per request; `--sticky`: per TCP connection, as an L4 balancer
// such as kube-proxy's or a cloud NLB keeps a connection on one backend). Each replica has its own
// watch caches fed by its own etcd watch, so each lags on its own, and a client that reads a
// resource version through one replica and then asks another for it exactly may meet the cacher's
// `Too large resource version` (storage/cacher: waitUntilFreshAndBlock).
import type { EtcdChoice } from './etcd-choice';

/** More replicas than this would only multiply the memory of one process (each a full apiserver). */
export const maxReplicas = 8;

/** The audit annotation that names the replica that served a request (`serve --replicas`). */
export const replicaAnnotation = 'listwatch.dev/replica';

/** `--replicas N`: the count, or the message that says what is wrong with it. */
export function parseReplicas(text: string): number | { message: string } {
  if (!/^[0-9]+$/.test(text) || Number(text) < 1 || Number(text) > maxReplicas)
    return {
      message: `--replicas expects a number of apiservers 1..${maxReplicas}, got ${JSON.stringify(text)}`,
    };
  return Number(text);
}

/**
 * Why `replicas` apiservers cannot run over `etcd`, or undefined. The in-memory etcd lives inside
 * one engine: replicas over it would be one apiserver's objects seen N times, not N apiservers
 * whose caches each follow etcd through their own watch.
 */
export function replicasProblem(
  replicas: number,
  etcd: EtcdChoice | undefined,
): string | undefined {
  if (replicas < 2 || (etcd !== undefined && etcd.kind !== 'memory')) return undefined;
  return `--replicas ${replicas} needs an etcd the replicas share: --etcd spawn (a private etcd-server) or --etcd http://host:port; each replica is an apiserver with its own watch caches fed by its own etcd watch, and the in-memory etcd lives inside one apiserver`;
}

/** How requests are spread, as the ready line and --help say it. */
export function spreadText(replicas: number, sticky: boolean): string {
  if (replicas === 1) return '1 replica';
  return `${replicas} replicas, ${sticky ? 'each TCP connection kept on one (--sticky)' : 'round robin per request'}`;
}

/**
 * The load balancer's choice: the next replica in turn for each request, or (`sticky`) for each
 * new connection, which then keeps it. A watch stays where it was accepted either way: it is one
 * request. Replicas are numbered 1..N.
 */
export class ReplicaPicker<S extends object> {
  private next = 0;
  private readonly connections = new WeakMap<S, number>();

  constructor(
    readonly replicas: number,
    readonly sticky: boolean,
  ) {}

  /** The replica (1..N) for a request on connection `socket`. */
  pick(socket: S): number {
    if (this.replicas === 1) return 1;
    if (!this.sticky) return this.turn();
    let n = this.connections.get(socket);
    if (n === undefined) this.connections.set(socket, (n = this.turn()));
    return n;
  }

  private turn(): number {
    const n = this.next + 1;
    this.next = (this.next + 1) % this.replicas;
    return n;
  }
}
