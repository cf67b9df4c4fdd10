// Benchmark: a 100,000-pod LIST through the engine over a real etcd (Debian's etcd 3.4, spawned on
// loopback with a fresh data directory), next to the same pages read with the raw client.
//   (1) the etcd3 store's GetList with limit 500, following its continue tokens to the end: how an
//       apiserver pages a client's `limit=500` LIST through etcd (the first page at the current
//       revision, the rest pinned at its revision), over GrpcEtcd;
//   (2) baseline: GrpcEtcd.range with the keys, limits and revisions (1) sent, and nothing else.
//   Ratio = baseline time / engine time (goal >= 0.8: the engine adds little to etcd's own cost),
//   the median of the per-pass ratios of `passes` alternating passes.
//   (3) a filtered LIST (label shard=42, 1% of the pods, limit 500): its etcd calls (key, rangeEnd,
//   limit, revision, kvs returned), items and continue token over the real etcd against the
//   in-memory model's, loaded with the same transactions: they must be identical (no timing).
// The pods are written in transactions of at most etcd's --max-txn-ops (128) puts and well within
// its --max-request-bytes (1.5 MiB). etcd is stopped and its data directory removed at the end.
//   node esbuild.js && node --expose-gc out/bench/etcd-list.js [pods]
import { RealClock } from '../src/engine/clock';
import {
  MemoryEtcd,
  defaultMaxRequestBytes,
  defaultMaxTxnOps,
} from '../src/engine/etcd/memory-etcd';
import type { EtcdMember } from '../src/engine/etcd/etcd-member';
import type { RequestOp, TxnRequest } from '../src/engine/etcd/kv';
import type { EtcdRequestRecord } from '../src/engine/etcd/request-recorder';
import { EtcdStore, type ListResult } from '../src/engine/etcd3/store';
import { encodeStoredObject } from '../src/engine/encoding/byte-string';
import { SeededRandom } from '../src/engine/rand';
import { PodGenerator } from '../src/engine/storage/objects';
import { GrpcEtcd } from '../src/etcd-client/grpc-etcd';
import { spawnEtcd } from '../src/etcd-client/etcd-process';
import {
  atLeast,
  fmtInt,
  fmtMs,
  gc,
  median,
  runAsScript,
  scriptArgs,
  timeAsync,
  type BenchRow,
} from './bench-util';

/** A client's `limit=500` LIST, as kubectl and most controllers page. */
const pageLimit = 500;
/** Alternating passes of (1) and (2); odd, for a true median. */
const passes = 5;
/** Transactions in flight while loading. */
const loadConcurrency = 8;
/** The filtered LIST's label selector: `shard` is i % 100, so 1% of the pods. */
const filterLabel = 'shard=42';

export interface EtcdListOptions {
  pods?: number;
  log?: (line: string) => void;
}

/** The load's transactions: batches of puts within etcd's txn limits. */
function loadTxns(pods: number): TxnRequest[] {
  const gen = new PodGenerator(new SeededRandom(42), new RealClock());
  const txns: TxnRequest[] = [];
  let ops: RequestOp[] = [];
  let bytes = 0;
  // Leaves room for the txn's own framing under --max-request-bytes.
  const maxBytes = defaultMaxRequestBytes / 2;
  for (let i = 0; i < pods; i++) {
    const p = gen.next();
    (p.metadata.labels as Record<string, string>).shard = String(i % 100);
    const key = `/registry/pods/${p.metadata.namespace}/${p.metadata.name}`;
    const value = encodeStoredObject(p);
    if (ops.length === defaultMaxTxnOps || bytes + key.length + value.length > maxBytes) {
      txns.push({ success: ops });
      ops = [];
      bytes = 0;
    }
    ops.push({ requestPut: { key, value } });
    bytes += key.length + value.length;
  }
  if (ops.length) txns.push({ success: ops });
  return txns;
}

/** Writes the transactions in order, `concurrency` at a time (one revision each). */
async function load(etcd: EtcdMember, txns: TxnRequest[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < txns.length) await etcd.txn(txns[next++]);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function podStore(etcd: EtcdMember): EtcdStore {
  return new EtcdStore({
    etcd,
    clock: new RealClock(),
    groupResource: { group: '', resource: 'pods' },
  });
}

/** Every page of a LIST, following continue tokens. */
async function listAll(store: EtcdStore, label?: string): Promise<ListResult[]> {
  const pages: ListResult[] = [];
  let cont: string | undefined;
  do {
    const page = await store.getList('/pods/', {
      predicate: { label, limit: pageLimit, continue: cont },
    });
    pages.push(page);
    cont = page.continue;
  } while (cont);
  return pages;
}

/** A record's fields the comparison holds identical (not its time, latency or header). */
function callOf(r: EtcdRequestRecord): string {
  return `${r.op} ${JSON.stringify(r.key)} ${JSON.stringify(r.rangeEnd)} limit=${r.limit} rev=${r.revision} kvs=${r.kvs}`;
}

/** What the filtered LIST asked of etcd and answered, for the comparison. */
async function filteredList(etcd: EtcdMember): Promise<{ calls: string[]; pages: string[] }> {
  const store = podStore(etcd);
  const calls: string[] = [];
  const remove = etcd.addRequestListener((r) => calls.push(callOf(r)));
  try {
    const pages = await listAll(store, filterLabel);
    return {
      calls,
      pages: pages.map(
        (p) =>
          `rv=${p.resourceVersion} items=${p.items.map((i) => i.metadata.name).join(',')} continue=${p.continue ?? ''}`,
      ),
    };
  } finally {
    remove();
  }
}

export async function runEtcdList(o: EtcdListOptions = {}): Promise<BenchRow[]> {
  const pods = o.pods ?? 100_000;
  const log = o.log ?? ((line: string) => console.log(line));
  const txns = loadTxns(pods);
  const etcdProcess = await spawnEtcd();
  let client: GrpcEtcd | undefined;
  try {
    log(
      `etcd ${etcdProcess.clientURLs.join(',')} (pid ${etcdProcess.pid}, data ${etcdProcess.dataDir})`,
    );
    client = await GrpcEtcd.connect({ endpoints: etcdProcess.clientURLs });
    const loadMs = await timeAsync(() => load(client as GrpcEtcd, txns, loadConcurrency));
    log(`loaded ${fmtInt(pods)} pods in ${fmtInt(txns.length)} txns in ${fmtMs(loadMs)}`);

    // (1) and (2), alternating; (2) replays the range calls (1) made, as it made them.
    const store = podStore(client);
    let ranges: EtcdRequestRecord[] = [];
    let items = 0;
    const engineMs: number[] = [];
    const rawMs: number[] = [];
    for (let pass = 0; pass < passes; pass++) {
      const seen: EtcdRequestRecord[] = [];
      const remove = client.addRequestListener((r) => seen.push(r));
      gc();
      let pages: ListResult[] = [];
      engineMs.push(
        await timeAsync(async () => {
          pages = await listAll(store);
        }),
      );
      remove();
      items = pages.reduce((n, p) => n + p.items.length, 0);
      if (items !== pods) throw new Error(`the LIST returned ${items} pods, ${pods} were written`);
      ranges = seen.filter((r) => r.op === 'range');
      pages = [];
      gc();
      let kvs = 0;
      rawMs.push(
        await timeAsync(async () => {
          for (const r of ranges) {
            const resp = await (client as GrpcEtcd).range({
              key: r.key,
              rangeEnd: r.rangeEnd,
              limit: r.limit,
              revision: r.revision,
            });
            kvs += resp.kvs.length;
          }
        }),
      );
      if (kvs !== ranges.reduce((n, r) => n + r.kvs, 0))
        throw new Error(`the raw pages returned ${kvs} keys, the engine's ${items}`);
      log(
        `pass ${pass + 1}: engine ${fmtMs(engineMs[pass])}, raw client ${fmtMs(rawMs[pass])} (${ranges.length} ranges)`,
      );
    }
    const ratios = engineMs.map((e, i) => rawMs[i] / e);
    const ratio = median(ratios);

    // (3) the filtered LIST over the real etcd, and over the model loaded with the same txns.
    const real = await filteredList(client);
    const model = new MemoryEtcd({ clock: new RealClock() });
    await load(model, txns, 1);
    const memory = await filteredList(model);
    model.close();
    const identical =
      JSON.stringify(real) === JSON.stringify(memory) &&
      client.currentRevision() === model.currentRevision();
    if (!identical) {
      log('filtered LIST over etcd 3.4:');
      for (const c of real.calls) log(`  ${c}`);
      log('filtered LIST over the in-memory model:');
      for (const c of memory.calls) log(`  ${c}`);
    }
    const kvsOf = (calls: string[]) =>
      calls.reduce((n, c) => n + Number(/kvs=(\d+)$/.exec(c)?.[1] ?? 0), 0);
    return [
      {
        bench: 'etcd-list',
        measure: `LIST ${fmtInt(pods)} pods, limit ${pageLimit}: raw client / engine (etcd 3.4)`,
        figure: fmtMs(median(engineMs)),
        baseline: fmtMs(median(rawMs)),
        ratio,
        goal: atLeast(ratio, 0.8),
        note: `${ranges.length} ranges, ${fmtInt(items)} items; ${passes} alternating passes, ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
      },
      {
        bench: 'etcd-list',
        measure: `filtered LIST (${filterLabel}, 1%) etcd calls: etcd 3.4 vs model`,
        figure: `${real.calls.length} calls, ${fmtInt(kvsOf(real.calls))} kvs`,
        baseline: `${memory.calls.length} calls, ${fmtInt(kvsOf(memory.calls))} kvs`,
        ratio: NaN,
        goal: { text: 'identical', met: identical },
        note: identical
          ? 'identical calls (key, rangeEnd, limit, revision, kvs), items and tokens'
          : 'the calls differ (listed above)',
      },
    ];
  } finally {
    client?.close();
    await etcdProcess.stop();
  }
}

runAsScript('etcd-list', () => {
  const [pods] = scriptArgs();
  return runEtcdList({ pods: pods === undefined ? undefined : Number(pods) });
});
