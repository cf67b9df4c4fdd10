// Mirrors kubernetes pkg/registry/core/service/storage/alloc.go (release-1.36) and the allocators
// behind it (pkg/registry/core/service/ipallocator, portallocator): a Service's clusterIP from the
// service CIDR 10.96.0.0/12 (kube-apiserver's default --service-cluster-ip-range; 10.96.0.1 is the
// `kubernetes` Service's) and its nodePorts from 30000-32767. Deliberate differences: there is no
// bitmap in etcd and no repair loop. An address or a port is chosen deterministically (an FNV-1a
// hash of the Service's namespace/name, then the next free one) and stays the Service's for the
// life of the process, deleted or not, so a dry run, a retry or a re-create gets the same one; it
// is unique among the Services this server created, which is all a client can observe. The state
// belongs to one server's ServedResources (two servers in one process are two clusters). Upstream
// keeps it in etcd (the ipallocator's and portallocator's bitmaps under /registry/ranges/), so
// several apiservers over one etcd share it: `serve --replicas` replicas share replica 1's.

/** The service CIDR: 10.96.0.0/12. */
const serviceCIDR = '10.96.0.0/12';
const cidrBase = (10 << 24) | (96 << 16);
const cidrSize = 1 << 20;
/** The service node port range (--service-node-port-range). */
const nodePortMin = 30000;
const nodePortMax = 32767;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const ipString = (n: number): string =>
  [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');

function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  if (bytes.some((b) => b > 255)) return undefined;
  return ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
}

/** An allocation failure: upstream's allocator error text. */
export class AllocationError extends Error {}

/** The allocations of one server: owner (`ns/name`) by address and by node port. */
export class ServiceAllocators {
  private readonly ips = new Map<number, string>();
  private readonly ports = new Map<number, string>();

  /** ipallocator.AllocateNext for `owner`: its address, or the next free one from its hash. */
  allocateNextIP(owner: string): string {
    for (const [ip, o] of this.ips) if (o === owner) return ipString(ip);
    // The network address, 10.96.0.1 (the kubernetes Service) and the broadcast are never given.
    const usable = cidrSize - 3;
    const start = fnv1a(owner) % usable;
    for (let i = 0; i < usable; i++) {
      const ip = (cidrBase + 2 + ((start + i) % usable)) >>> 0;
      if (!this.ips.has(ip)) {
        this.ips.set(ip, owner);
        return ipString(ip);
      }
    }
    throw new AllocationError('range is full');
  }

  /** ipallocator.Allocate: the address asked for, when in range and not another Service's. */
  allocateIP(owner: string, ip: string): void {
    const n = parseIPv4(ip);
    if (n === undefined || n < cidrBase || n >= cidrBase + cidrSize)
      throw new AllocationError(
        `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceCIDR}`,
      );
    const holder = this.ips.get(n);
    if (holder !== undefined && holder !== owner)
      throw new AllocationError('provided IP is already allocated');
    this.ips.set(n, owner);
  }

  /** portallocator.AllocateNext for one port of `owner`. */
  allocateNextNodePort(owner: string): number {
    for (const [port, o] of this.ports) if (o === owner) return port;
    const size = nodePortMax - nodePortMin + 1;
    const start = fnv1a(owner) % size;
    for (let i = 0; i < size; i++) {
      const port = nodePortMin + ((start + i) % size);
      if (!this.ports.has(port)) {
        this.ports.set(port, owner);
        return port;
      }
    }
    throw new AllocationError('range is full');
  }

  /** portallocator.Allocate: the node port asked for. */
  allocateNodePort(owner: string, port: number): void {
    if (port < nodePortMin || port > nodePortMax)
      throw new AllocationError(
        `provided port is not in the valid range. The range of valid ports is ${nodePortMin}-${nodePortMax}`,
      );
    const holder = this.ports.get(port);
    // One Service may use one node port for several of its ports (another protocol).
    if (holder !== undefined && holder.split('#')[0] !== owner.split('#')[0])
      throw new AllocationError('provided port is already allocated');
    this.ports.set(port, owner);
  }
}
