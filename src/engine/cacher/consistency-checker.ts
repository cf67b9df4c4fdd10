// Mirrors k8s.io/apiserver pkg/storage/cacher/delegator.go consistencyChecker (release-1.36; master
// moves it unchanged to pkg/storage/cacher/consistency/checker.go as Checker/CalculateDigests):
// calculateDigests, calculateStoreDigest, addObjectToDigest (FNV-1 64 over namespace/name/RV of
// every item, cache at RV "0" then etcd at the cache's RV with Exact, paged by 10000) and check
// (MarkConsistent and apiserver_storage_consistency_checks_total) and startChecking's jittered
// 5-minute loop (NewCacheDelegator starts it under DetectCacheInconsistency). Not modelled: the
// klog lines and the KUBE_WATCHCACHE_CONSISTENCY_CHECKER panic.
import type { Clock, Timer } from '../clock';
import type { SeededRandom } from '../rand';
import type { GroupResource } from '../storage/group-resource';
import { utf8Bytes } from '../encoding/go-utf8';
import { MetricsRegistry, type Counter } from '../metrics/registry';
import {
  newListOptions,
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
  type ListOptions,
} from '../storage/list-options';
import type { KubeObject } from '../storage/objects';
import { SelectionPredicate } from '../storage/selection-predicate';
import type { ListResult } from '../etcd3/store';
import { storageWatchListPageSize } from './reflector';
import { jitter } from './cacher';

/** getLister: what the checker reads from each side. */
export interface GetLister {
  getList(key: string, opts: ListOptions): Promise<ListResult>;
}

/** The cacher side: its lists, its readiness, and the switch the verdict flips. */
export interface ConsistencyCheckedCacher extends GetLister {
  isReady(): boolean;
  markConsistent(consistent: boolean): void;
}

/** namespaceNameRV: one item as the digest sees it. */
export interface NamespaceNameRV {
  namespace: string;
  name: string;
  rv: string;
}

/** diffDetail: the first position where the two lists differ; a missing side is undefined. */
export interface DiffDetail {
  index: number;
  cacheItem?: NamespaceNameRV;
  etcdItem?: NamespaceNameRV;
}

/** storageDigest. */
export interface StorageDigest {
  resourceVersion: string;
  cacheDigest: string;
  etcdDigest: string;
  diffDetail?: DiffDetail;
}

const fnv64Offset = 0xcbf29ce484222325n;
const fnv64Prime = 0x100000001b3n;

/** hash/fnv New64 (FNV-1: multiply, then xor), the hash addObjectToDigest writes into. */
class Fnv64 {
  private h = fnv64Offset;

  write(s: string): void {
    let h = this.h;
    for (const b of utf8Bytes(s)) h = BigInt.asUintN(64, h * fnv64Prime) ^ BigInt(b);
    this.h = h;
  }

  /** fmt.Sprintf("%x", h.Sum64()): lower-case hex without padding. */
  hex(): string {
    return this.h.toString(16);
  }
}

/** addObjectToDigest: namespace "/" name "/" resourceVersion. */
function addObjectToDigest(h: Fnv64, meta: NamespaceNameRV): void {
  h.write(meta.namespace);
  h.write('/');
  h.write(meta.name);
  h.write('/');
  h.write(meta.rv);
}

function namespaceNameRV(obj: KubeObject): NamespaceNameRV {
  const m = obj.metadata ?? {};
  return { namespace: m.namespace ?? '', name: m.name ?? '', rv: m.resourceVersion ?? '' };
}

function sameItem(a: NamespaceNameRV, b: NamespaceNameRV): boolean {
  return a.namespace === b.namespace && a.name === b.name && a.rv === b.rv;
}

/** ConsistencyCheckPeriod: how often the cache is compared with etcd. */
export const consistencyCheckPeriodMs = 5 * 60 * 1000;

/** startChecking's jitter: each wait is in [period, 1.5·period). */
const consistencyCheckJitter = 0.5;

export class ConsistencyChecker {
  private readonly checksTotal: Counter;

  constructor(
    readonly resourcePrefix: string,
    readonly groupResource: GroupResource,
    private readonly cacher: ConsistencyCheckedCacher,
    private readonly etcd: GetLister,
    registry: MetricsRegistry = new MetricsRegistry(),
  ) {
    this.checksTotal = registry.counter(
      'apiserver_storage_consistency_checks_total',
      'Counter for status of consistency checks between etcd and watch cache',
      ['group', 'resource', 'status'],
    );
  }

  /**
   * startChecking: waits a jittered period first (wait.JitterUntil would check at once), then
   * checks, and waits again after each check ends (sliding), until the returned stop is called.
   * The jitter is wait.Jitter's: period + rand·0.5·period, drawn from `rand`.
   */
  startChecking(clock: Clock, rand: SeededRandom): () => void {
    let stopped = false;
    let timer: Timer | undefined;
    const schedule = (): void => {
      const wait = jitter(rand, consistencyCheckPeriodMs, consistencyCheckJitter);
      timer = clock.afterFunc(wait, () => {
        void this.check().then(() => {
          if (!stopped) schedule();
        });
      });
    };
    schedule();
    return () => {
      stopped = true;
      timer?.stop();
    };
  }

  /**
   * check: equal digests mark the cache consistent, different ones inconsistent (which stops its
   * snapshots); an error changes nothing. Each outcome is counted by status.
   */
  async check(): Promise<void> {
    const gr = { group: this.groupResource.group, resource: this.groupResource.resource };
    let digests: StorageDigest;
    try {
      digests = await this.calculateDigests();
    } catch {
      this.checksTotal.inc({ ...gr, status: 'error' });
      return;
    }
    if (digests.cacheDigest === digests.etcdDigest) {
      this.checksTotal.inc({ ...gr, status: 'success' });
      this.cacher.markConsistent(true);
      return;
    }
    this.checksTotal.inc({ ...gr, status: 'failure' });
    this.cacher.markConsistent(false);
  }

  /**
   * calculateDigests: the cache's digest at RV "0" (whatever it holds), then etcd's at exactly the
   * cache's RV; on the way, the first item where they differ.
   */
  async calculateDigests(): Promise<StorageDigest> {
    if (!this.cacher.isReady()) throw new Error('cache is not ready');
    let cacheItems: NamespaceNameRV[] = [];
    let foundDiff: DiffDetail | undefined;
    let etcdIndex = 0;

    let cache: { digest: string; rv: string };
    try {
      cache = await this.calculateStoreDigest(this.cacher, '0', 0, (item) => {
        cacheItems.push(item);
      });
    } catch (e) {
      throw new Error(`failed calculating cache digest: ${(e as Error).message}`);
    }
    let etcd: { digest: string; rv: string };
    try {
      etcd = await this.calculateStoreDigest(
        this.etcd,
        cache.rv,
        storageWatchListPageSize,
        (etcdItem) => {
          if (foundDiff) return;
          if (cacheItems.length <= etcdIndex) {
            foundDiff = { index: etcdIndex, etcdItem };
            cacheItems = [];
            return;
          }
          const cacheItem = cacheItems[etcdIndex];
          if (!sameItem(cacheItem, etcdItem)) {
            foundDiff = { index: etcdIndex, etcdItem, cacheItem };
            cacheItems = [];
            return;
          }
          etcdIndex++;
        },
      );
    } catch (e) {
      throw new Error(`failed calculating etcd digest: ${(e as Error).message}`);
    }
    if (cacheItems.length > etcdIndex)
      foundDiff = { index: etcdIndex, cacheItem: cacheItems[etcdIndex] };
    if (cache.rv !== etcd.rv) {
      throw new Error(
        `etcd returned different resource version then expected, cache: ${JSON.stringify(cache.rv)}, etcd: ${JSON.stringify(etcd.rv)}`,
      );
    }
    const digest: StorageDigest = {
      resourceVersion: cache.rv,
      cacheDigest: cache.digest,
      etcdDigest: etcd.digest,
    };
    if (foundDiff) digest.diffDetail = foundDiff;
    return digest;
  }

  /**
   * calculateStoreDigest: RV "0" is read NotOlderThan (and the list's RV becomes the digest's),
   * any other Exact; continue pages follow with the token alone.
   */
  private async calculateStoreDigest(
    store: GetLister,
    resourceVersion: string,
    limit: number,
    visit: (item: NamespaceNameRV) => void,
  ): Promise<{ digest: string; rv: string }> {
    let rv = resourceVersion;
    // Go passes ListOptions by value: each page gets its own.
    let page = {
      resourceVersion,
      resourceVersionMatch:
        resourceVersion === '0' ? resourceVersionMatchNotOlderThan : resourceVersionMatchExact,
      continue: '',
    };
    const h = new Fnv64();
    for (;;) {
      const opts = newListOptions({
        recursive: true,
        predicate: new SelectionPredicate({ limit, continue: page.continue }),
        resourceVersion: page.resourceVersion,
        resourceVersionMatch: page.resourceVersionMatch,
      });
      const list = await store.getList(this.resourcePrefix, opts);
      for (const obj of list.items) {
        const item = namespaceNameRV(obj);
        addObjectToDigest(h, item);
        visit(item);
      }
      if (rv === '0') rv = list.resourceVersion;
      if (!list.continue) return { digest: h.hex(), rv };
      page = { resourceVersion: '', resourceVersionMatch: '', continue: list.continue };
    }
  }
}
