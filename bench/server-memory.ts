// Benchmark: the live apiserver's memory per HTTP watch (src/server ApiServer in this process; the
// clients in bench/http-clients.ts, a process of their own, so this heap holds only the server),
// each next to a bare Node HTTP server holding the same connections, measured in the same run:
//  - heap per idle HTTP watcher (a watch from the current resourceVersion, nothing to send), against
//    a bare held response measured in a process of its own, each in a settled state (see
//    heldHeapPerResponse: neither counts the code its path compiles nor HTTP parsers the other's
//    closed connections left behind);
//  - 10,000 watch connections opened and closed, 1,000 at a time: the heap after the last batch
//    against after the first, and the watchers left registered in the cacher (none may be).
//   node esbuild.js && node --expose-gc out/bench/server-memory.js [watchers]
import { ApiServer } from '../src/server/api-server';
import { spawnSync } from 'child_process';
import {
  fmtBytes,
  fmtInt,
  fmtMs,
  hasGc,
  heapUsed,
  isEntryPoint,
  runAsScript,
  scriptArgs,
  timeAsync,
  type BenchRow,
} from './bench-util';
import { BareHttpServer, HttpClients } from './http-clients-driver';

export interface ServerMemoryOptions {
  /** Idle watchers for the heap figure. */
  watchers?: number;
  /** Connections opened and closed in all, and per batch. */
  churn?: number;
  batch?: number;
  log?: (line: string) => void;
}

/** Resolves once `done()` holds; fails after a generous wait (a leak, not a slow server). */
async function until(done: () => boolean, what: string): Promise<void> {
  const giveUpAt = Date.now() + 60_000;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`server-memory: never ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How many freed HTTP parsers Node keeps for new connections (_http_common's FreeList). */
const nodeFreeParsers = 1000;

/**
 * Heap bytes per response a server holds, in a settled state: n connections opened and closed
 * first (the code the server's path compiles is compiled then, not counted per response), then
 * max(n, 1,000) held (they take the parsers Node kept from the closed ones), then n more held:
 * those are measured, each with a parser of its own, as a server holding many watches has. `mark`
 * is told before and after them (a heap snapshot there shows what they hold). All are closed after.
 */
export async function heldHeapPerResponse(
  clients: HttpClients,
  url: string,
  p: string,
  token: string | undefined,
  held: () => number,
  n: number,
  mark?: (at: 'before' | 'after') => void,
): Promise<{ perResponse: number; before: number; after: number; ms: number }> {
  await clients.open(url, p, n, token);
  await until(() => held() === n, `held ${n} responses to warm up`);
  await clients.close();
  await until(() => held() === 0, 'dropped the warm-up responses');
  const absorb = Math.max(n, nodeFreeParsers);
  await clients.open(url, p, absorb, token);
  await until(() => held() === absorb, `held ${absorb} responses`);
  const before = heapUsed();
  mark?.('before');
  const opened = await clients.open(url, p, n, token);
  await until(() => held() === absorb + n, `held ${absorb + n} responses`);
  const after = heapUsed();
  mark?.('after');
  await clients.close();
  await until(() => held() === 0, 'dropped the held responses');
  return { perResponse: (after - before) / n, before, after, ms: opened.ms };
}

/** The bare server's heldHeapPerResponse, in this process (run as `--bare-held n`). */
async function bareHeldHeap(n: number): Promise<number> {
  const bare = new BareHttpServer();
  await bare.start();
  const clients = new HttpClients();
  try {
    return (
      await heldHeapPerResponse(clients, bare.url, '/watch', undefined, () => bare.watchers.size, n)
    ).perResponse;
  } finally {
    clients.stop();
    await bare.stop();
  }
}

const bareHeldFlag = '--bare-held';
const bareHeldMarker = '@@bare-held ';

/** bareHeldHeap in a process of its own: a fresh heap that no other server's connections used. */
function bareHeldHeapInProcess(n: number): number {
  const r = spawnSync(process.execPath, ['--expose-gc', __filename, bareHeldFlag, String(n)], {
    encoding: 'utf8',
  });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(bareHeldMarker));
  if (r.status !== 0 || line === undefined)
    throw new Error(`server-memory: the bare server's process failed: ${r.stderr ?? ''}`);
  return Number(line.slice(bareHeldMarker.length));
}

export async function runServerMemory(o: ServerMemoryOptions = {}): Promise<BenchRow[]> {
  const n = o.watchers ?? 2000;
  const churn = o.churn ?? 10_000;
  const batch = o.batch ?? 1000;
  const log = o.log ?? console.log;
  if (!hasGc()) log('server-memory: run with --expose-gc for exact heap figures');

  // As `listwatch serve` runs by default: no clients report (--clients-report) folding requests.
  const api = await ApiServer.start();
  const bare = new BareHttpServer();
  await bare.start();
  const clients = new HttpClients();
  try {
    const pods = api.resources.find('', 'v1', 'pods');
    if (!pods) throw new Error('server-memory: no pods resource');
    const watchers = (): number => pods.engine.cacher.watcherCount();
    const res = await fetch(new URL('/api/v1/namespaces/default/pods?limit=1', api.url), {
      headers: { Authorization: `Bearer ${api.token}` },
    });
    const rv = ((await res.json()) as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    const watchPath = `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${rv}`;

    // Heap per idle watcher, and per bare held response in a process of its own.
    const ours = await heldHeapPerResponse(clients, api.url, watchPath, api.token, watchers, n);
    const perWatcher = ours.perResponse;
    const perBare = bareHeldHeapInProcess(n);

    // Churn: batches opened, then closed, until the server holds none of them again.
    const cycle = async (
      url: string,
      p: string,
      token: string | undefined,
      held: () => number,
    ): Promise<{ first: number; last: number; ms: number }> => {
      let first = 0;
      let last = 0;
      const ms = await timeAsync(async () => {
        for (let done = 0, k = 0; done < churn; done += batch, k++) {
          await clients.open(url, p, batch, token);
          await until(() => held() === batch, `held a batch of ${batch}`);
          await clients.close();
          await until(() => held() === 0, 'let a closed batch go');
          if (k === 0) first = heapUsed();
        }
        last = heapUsed();
      });
      return { first, last, ms };
    };
    const ourChurn = await cycle(api.url, watchPath, api.token, watchers);
    const left = watchers();
    const bareChurn = await cycle(bare.url, '/watch', undefined, () => bare.watchers.size);
    const ratio = ourChurn.last / ourChurn.first;
    const bareRatio = bareChurn.last / bareChurn.first;

    log(
      `server-memory: ${fmtInt(n)} idle HTTP watchers (opened in ${fmtMs(ours.ms)}): ${fmtBytes(ours.after - ours.before)} = ${fmtBytes(perWatcher)} per watcher; bare server (own process): ${fmtBytes(perBare)} per held response`,
    );
    log(
      `  ${fmtInt(churn)} watch connections opened and closed ${fmtInt(batch)} at a time in ${fmtMs(ourChurn.ms)}: heap ${fmtBytes(ourChurn.first)} after the first batch, ${fmtBytes(ourChurn.last)} after the last (x${ratio.toFixed(3)}), ${left} watchers left; bare server x${bareRatio.toFixed(3)}`,
    );
    return [
      {
        bench: 'server-memory',
        measure: `heap per idle HTTP watcher (${fmtInt(n)}) / bare held response`,
        figure: fmtBytes(perWatcher),
        baseline: fmtBytes(perBare),
        ratio: perWatcher / perBare,
        // Issue #25's goal.
        goal: { text: '<= 1.5', met: perWatcher / perBare <= 1.5 },
        note: 'server heap only (clients in their own process); warm code, no reused parsers',
      },
      {
        bench: 'server-memory',
        measure: `heap after ${fmtInt(churn)} watches opened+closed / after the first ${fmtInt(batch)}`,
        figure: fmtBytes(ourChurn.last),
        baseline: fmtBytes(ourChurn.first),
        ratio,
        goal: { text: '< 1.10, 0 left', met: ratio < 1.1 && left === 0 },
        note: `${left} watchers left; bare server x${bareRatio.toFixed(3)}`,
      },
    ];
  } finally {
    clients.stop();
    await bare.stop();
    await api.stop();
  }
}

if (isEntryPoint('server-memory') && scriptArgs()[0] === bareHeldFlag) {
  bareHeldHeap(Number(scriptArgs()[1])).then(
    (bytes) => console.log(`${bareHeldMarker}${bytes}`),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
} else
  runAsScript('server-memory', () =>
    runServerMemory({ watchers: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
  );
