// Mirrors the shapes of k8s.io/api core/v1 Pod and k8s.io/apimachinery meta/v1 ObjectMeta/ListMeta (release-1.36), plus a deterministic pod generator.
// Objects are plain JSON built with keys in Go's struct-field order and empty fields left out
// (omitempty), so JSON.stringify of them matches what the apiserver would write. Label maps are
// built in sorted key order as Go marshals maps (integer-like keys are the one JS exception).
// Deliberately compact: a benchmark keeps 1,000,000 of them as JSON values.
import { setOwn } from '../encoding/own-key';
import type { Clock } from '../clock';
import type { SeededRandom } from '../rand';
import type { ListMeta } from './errors';
import { compareStrings } from './go-strings';

/** meta/v1 ObjectMeta (the subset the simulator uses), in Go's field order. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Go's ObjectMeta JSON field order, used to put a late-set field (resourceVersion) in its place. */
export const objectMetaFieldOrder: readonly string[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/** Any Kubernetes object: TypeMeta + ObjectMeta + whatever else. */
export interface KubeObject {
  kind?: string;
  apiVersion?: string;
  metadata: ObjectMeta;
}

/** A list object (PodList etc.): TypeMeta + ListMeta + items. */
export interface KubeList<T = KubeObject> {
  kind?: string;
  apiVersion?: string;
  metadata: ListMeta;
  items: T[];
}

export interface Container {
  name: string;
  image?: string;
  resources: Record<string, never>;
}

/** core/v1 PodSpec (subset), Go field order. `containers` has no omitempty upstream: null when unset. */
export interface PodSpec {
  containers: Container[] | null;
  restartPolicy?: string;
  serviceAccountName?: string;
  nodeName?: string;
  hostNetwork?: boolean;
  schedulerName?: string;
}

/** core/v1 PodStatus (subset), Go field order. */
export interface PodStatus {
  phase?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  podIP?: string;
  podIPs?: { ip: string }[];
}

export interface Pod extends KubeObject {
  kind: 'Pod';
  apiVersion: 'v1';
  metadata: ObjectMeta;
  spec: PodSpec;
  status: PodStatus;
}

export type PodList = KubeList<Pod>;

/** Virtual time 0 of a FakeClock is this instant (2024-01-01T00:00:00Z) in creation timestamps. */
export const objectEpochMs = 1704067200000;

/** RFC 3339 in UTC with second precision, as metav1.Time marshals: `YYYY-MM-DDTHH:MM:SSZ`. */
export function formatRFC3339(epochMs: number): string {
  const secs = Math.floor(epochMs / 1000);
  const days = Math.floor(secs / 86400);
  const sod = secs - days * 86400;
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm); no Date object involved.
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const hh = Math.floor(sod / 3600);
  const mm = Math.floor((sod % 3600) / 60);
  const ss = sod % 60;
  return `${String(y).padStart(4, '0')}-${p2(m)}-${p2(d)}T${p2(hh)}:${p2(mm)}:${p2(ss)}Z`;
}

// Generators stamp many objects within the same second: remember the last one formatted.
let lastStampSecond = NaN;
let lastStamp = '';

/** The creation timestamp for a clock reading (ms of virtual time since objectEpochMs). */
export function creationTimestampAt(clock: Clock): string {
  const ms = objectEpochMs + clock.now();
  const sec = Math.floor(ms / 1000);
  if (sec !== lastStampSecond) {
    lastStamp = formatRFC3339(ms);
    lastStampSecond = sec;
  }
  return lastStamp;
}

/**
 * The etcd key of a namespaced object: `<prefix>/<namespace>/<name>` (a trailing '/' on the prefix
 * is tolerated). An empty namespace gives `<prefix>//<name>`, like upstream's test helper
 * computePodKey, whose keys (`/pods//pod-N`) RunTestListPaginationRareObject relies on.
 */
export function podKey(prefix: string, namespace: string, name: string): string {
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return `${p}/${namespace}/${name}`;
}

/** A copy of a string map with keys in Go's marshal order (sorted bytewise). */
export function sortedMap(m: Readonly<Record<string, string>>): Record<string, string> {
  const keys = Object.keys(m);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = compareStrings(keys[i - 1], keys[i]) < 0;
  if (!sorted) keys.sort(compareStrings);
  const out: Record<string, string> = {};
  for (const k of keys) setOwn(out, k, m[k]);
  return out;
}

export interface PodOptions {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  containers?: Container[] | null;
  restartPolicy?: string;
  serviceAccountName?: string;
  nodeName?: string;
  hostNetwork?: boolean;
  schedulerName?: string;
  phase?: string;
  nominatedNodeName?: string;
  hostIP?: string;
  podIP?: string;
}

/** A Pod with only the given fields set, keys in Go's order, empties omitted. */
export function makePod(o: PodOptions): Pod {
  const metadata: ObjectMeta = { name: o.name };
  if (o.namespace) metadata.namespace = o.namespace;
  if (o.uid) metadata.uid = o.uid;
  if (o.resourceVersion) metadata.resourceVersion = o.resourceVersion;
  if (o.creationTimestamp) metadata.creationTimestamp = o.creationTimestamp;
  if (o.labels && Object.keys(o.labels).length > 0) metadata.labels = sortedMap(o.labels);
  if (o.annotations && Object.keys(o.annotations).length > 0)
    metadata.annotations = sortedMap(o.annotations);
  const spec: PodSpec = { containers: o.containers ?? null };
  if (o.restartPolicy) spec.restartPolicy = o.restartPolicy;
  if (o.serviceAccountName) spec.serviceAccountName = o.serviceAccountName;
  if (o.nodeName) spec.nodeName = o.nodeName;
  if (o.hostNetwork) spec.hostNetwork = true;
  if (o.schedulerName) spec.schedulerName = o.schedulerName;
  const status: PodStatus = {};
  if (o.phase) status.phase = o.phase;
  if (o.nominatedNodeName) status.nominatedNodeName = o.nominatedNodeName;
  if (o.hostIP) status.hostIP = o.hostIP;
  if (o.podIP) status.podIP = o.podIP;
  return { kind: 'Pod', apiVersion: 'v1', metadata, spec, status };
}

/** A random (version 4 shaped) UID drawn from the seeded generator: same seed, same UIDs. */
export function newUID(rand: SeededRandom): string {
  // 16 random bytes, two per draw (each float64 carries 32 random bits), as 8 16-bit halves.
  const h: string[] = [];
  for (let i = 0; i < 4; i++) {
    const w = Math.floor(rand.float64() * 4294967296);
    h.push(hex4(Math.floor(w / 65536)), hex4(w % 65536));
  }
  const v = parseInt(h[3], 16);
  h[3] = hex4((v & 0x0fff) | 0x4000); // version 4
  const x = parseInt(h[4], 16);
  h[4] = hex4((x & 0x3fff) | 0x8000); // RFC 4122 variant
  return `${h[0]}${h[1]}-${h[2]}-${h[3]}-${h[4]}-${h[5]}${h[6]}${h[7]}`;
}

// Two hex digits for every byte: UIDs for a million objects without per-digit work, from a table
// small enough to cost nothing at start-up (one of 65,536 four-digit strings took 10-50 ms).
const hex2: readonly string[] = Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, '0'),
);

/** Four hex digits of a 16-bit value. */
function hex4(v: number): string {
  return hex2[v >>> 8] + hex2[v & 0xff];
}

// The alphabet of rand.String / SafeEncodeString (no vowels, no look-alikes), as in pod names.
const nameAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const suffixSpace = 27 ** 5; // 14,348,907 distinct 5-character suffixes
// Coprime with 27^5, so index -> index*k mod 27^5 is a bijection: unique yet random-looking suffixes.
const suffixMultiplier = 7368787;
const suffixOffset = 5123457; // so that pod 0 is not `…-bbbbb`

function encodeSuffix(n: number, len: number): string {
  let s = '';
  for (let i = 0; i < len; i++) {
    s += nameAlphabet[n % 27];
    n = Math.floor(n / 27);
  }
  return s;
}

export interface PodGeneratorOptions {
  /** Namespaces to spread pods over (default: ten realistic names). */
  namespaces?: readonly string[];
  /** Workload names (default: eight). */
  apps?: readonly string[];
  /** Number of nodes `node-0` … (default 50). */
  nodes?: number;
}

const defaultNamespaces = [
  'default',
  'kube-system',
  'monitoring',
  'ingress-nginx',
  'payments',
  'checkout',
  'search',
  'analytics',
  'platform',
  'batch',
];
const defaultApps = [
  'web',
  'api',
  'worker',
  'cache',
  'db-proxy',
  'frontend',
  'scheduler',
  'exporter',
];

/**
 * Realistic, deterministic pods: Deployment-style names (`web-5d8f7c9b6-x7k2p`, unique for the
 * first 14 million pods of a generator), labels app + pod-template-hash, a node, a phase
 * (90% Running), a pod IP when running, a seeded UID and the clock's virtual time as creation time.
 */
export class PodGenerator {
  private count = 0;
  private readonly namespaces: readonly string[];
  private readonly apps: readonly string[];
  private readonly nodes: number;
  // One pod-template-hash per (namespace, app), drawn once so replicas share it like a ReplicaSet.
  private readonly hashes: (string | undefined)[] = [];

  constructor(
    private readonly rand: SeededRandom,
    private readonly clock: Clock,
    opts: PodGeneratorOptions = {},
  ) {
    this.namespaces = opts.namespaces ?? defaultNamespaces;
    this.apps = opts.apps ?? defaultApps;
    this.nodes = opts.nodes ?? 50;
    if (this.namespaces.length === 0)
      throw new RangeError('PodGenerator: namespaces must not be empty');
    if (this.apps.length === 0) throw new RangeError('PodGenerator: apps must not be empty');
    if (!(this.nodes > 0))
      throw new RangeError(`PodGenerator: nodes must be positive, got ${this.nodes}`);
  }

  /** Number of pods generated so far. */
  generated(): number {
    return this.count;
  }

  next(): Pod {
    const i = this.count++;
    const r = this.rand;
    const nsIndex = r.intn(this.namespaces.length);
    const appIndex = r.intn(this.apps.length);
    const namespace = this.namespaces[nsIndex];
    const app = this.apps[appIndex];
    const hashIndex = nsIndex * this.apps.length + appIndex;
    let hash = this.hashes[hashIndex];
    if (hash === undefined) {
      hash = encodeSuffix(r.intn(suffixSpace), 5) + encodeSuffix(r.intn(suffixSpace), 4);
      this.hashes[hashIndex] = hash;
    }
    const suffix = encodeSuffix(
      ((i % suffixSpace) * suffixMultiplier + suffixOffset) % suffixSpace,
      5,
    );
    const node = r.intn(this.nodes);
    const roll = r.float64();
    const phase =
      roll < 0.9 ? 'Running' : roll < 0.95 ? 'Pending' : roll < 0.98 ? 'Succeeded' : 'Failed';
    const running = phase === 'Running';
    return makePod({
      name: `${app}-${hash}-${suffix}`,
      namespace,
      uid: newUID(r),
      creationTimestamp: creationTimestampAt(this.clock),
      labels: { app, 'pod-template-hash': hash },
      containers: [{ name: app, image: `${app}:1.0`, resources: {} }],
      restartPolicy: 'Always',
      serviceAccountName: 'default',
      nodeName: phase === 'Pending' ? undefined : `node-${node}`,
      schedulerName: 'default-scheduler',
      phase,
      podIP: running ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` : undefined,
    });
  }

  /** The next `n` pods. */
  take(n: number): Pod[] {
    const out: Pod[] = [];
    for (let k = 0; k < n; k++) out.push(this.next());
    return out;
  }
}

/**
 * Sets (or, with undefined, removes) an ObjectMeta field at its place in Go's field order, so JSON
 * output stays byte-identical to the apiserver's.
 */
export function setMetaFieldInOrder(
  meta: Record<string, unknown>,
  field: string,
  value: unknown,
): void {
  if (value === undefined) {
    delete meta[field];
    return;
  }
  if (field in meta) {
    meta[field] = value;
    return;
  }
  const rank = objectMetaFieldOrder.indexOf(field);
  const later = Object.keys(meta).filter((k) => {
    const r = objectMetaFieldOrder.indexOf(k);
    return r > rank || r < 0;
  });
  const saved = later.map((k) => [k, meta[k]] as const);
  for (const k of later) delete meta[k];
  meta[field] = value;
  for (const [k, v] of saved) setOwn(meta, k, v);
}
