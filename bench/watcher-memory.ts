// Benchmark: heap bytes per idle watcher. Opens 100,000 watches through the public API
// (allowWatchBookmarks, fast clients keeping no events, from the current RV: live and waiting)
// and reads the heap after a full collection before and after (needs --expose-gc). Everything a
// watch costs is counted: the cacher's watcher with its channels, the bookmark bucket entry, the
// request context and its deadline timer, the client, and what createResource keeps per watch.
// Baseline, measured in the same run: the same number of minimal per-watch records (an object with
// an id, a deadline, a state and two empty queues, in a Map) with one FakeClock timer each.
//   node esbuild.js && node --expose-gc out/bench/watcher-memory.js [watchers]
import { FakeClock } from '../src/engine/clock';
import { SeededRandom } from '../src/engine/rand';
import { createResource, type OpenedWatch } from '../src/engine/apiserver';
import {
  fmtBytes,
  fmtInt,
  fmtMs,
  hasGc,
  heapUsed,
  runAsScript,
  scriptArgs,
  timeAsync,
  type BenchRow,
} from './bench-util';

export interface WatcherMemoryOptions {
  watchers?: number;
  log?: (line: string) => void;
}

interface MinimalWatch {
  id: number;
  deadline: number;
  state: number;
  input: unknown[];
  result: unknown[];
}

export async function runWatcherMemory(o: WatcherMemoryOptions = {}): Promise<BenchRow[]> {
  const n = o.watchers ?? 100_000;
  const log = o.log ?? console.log;
  if (!hasGc()) log('watcher-memory: run with --expose-gc for exact heap figures');

  const clock = new FakeClock(0);
  const r = createResource({ clock, rand: new SeededRandom(5) });
  r.start();
  await r.waitReady();
  await r.step(20);
  const rv = String(r.etcd.currentRevision());
  // One watch first: code, shared structures and caches are not counted per watcher.
  const watches: OpenedWatch[] = [
    await r.watch({ resourceVersion: rv, allowWatchBookmarks: true, keepEvents: false }),
  ];
  const before = heapUsed();
  const openMs = await timeAsync(async () => {
    for (let i = 0; i < n; i++)
      watches.push(
        await r.watch({ resourceVersion: rv, allowWatchBookmarks: true, keepEvents: false }),
      );
  });
  await r.settle();
  const after = heapUsed();
  const perWatcher = (after - before) / n;
  const registered = r
    .openedWatches()
    .filter((w) => w.watcherId !== undefined && !w.client.closed).length;
  r.stop();
  watches.length = 0;

  // Baseline: minimal records and one timer each.
  const tclock = new FakeClock(0);
  const records = new Map<number, MinimalWatch>();
  const noop = (): void => undefined;
  const bBefore = heapUsed();
  for (let i = 0; i < n; i++) {
    const deadline = 1_800_000 + i;
    records.set(i, { id: i, deadline, state: 2, input: [], result: [] });
    tclock.afterFunc(deadline, noop);
  }
  const bAfter = heapUsed();
  const perRecord = (bAfter - bBefore) / n;
  if (records.size !== n) throw new Error('baseline records lost');

  log(
    `watcher-memory: ${fmtInt(n)} idle watchers (${fmtInt(registered)} open) opened in ${fmtMs(openMs)}: ` +
      `${fmtBytes(after - before)} = ${fmtBytes(perWatcher)} per watcher; minimal record + timer: ${fmtBytes(perRecord)}`,
  );
  return [
    {
      bench: 'watcher-memory',
      measure: `heap per idle watcher (${fmtInt(n)}) / minimal record + timer`,
      figure: fmtBytes(perWatcher),
      baseline: fmtBytes(perRecord),
      ratio: perWatcher / perRecord,
      note: `opened in ${fmtMs(openMs)}`,
    },
  ];
}

runAsScript('watcher-memory', () =>
  runWatcherMemory({ watchers: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
);
