// Benchmark: the live apiserver's memory per HTTP watch (src/server ApiServer in this process; the
// clients in bench/http-clients.ts, a process of their own, so this heap holds only the server),
// each next to a bare Node HTTP server holding the same connections, measured in the same run:
//  - heap per idle HTTP watcher (a watch from the current resourceVersion, nothing to send);
//  - 10,000 watch connections opened and closed, 1,000 at a time: the heap after the last batch
//    against after the first, and the watchers left registered in the cacher (none may be).
//   node esbuild.js && node --expose-gc out/bench/server-memory.js [watchers]
import { ApiServer } from '../src/server/api-server';
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

    // Heap per idle watcher. One connection first: code and shared structures are not counted.
    await clients.open(api.url, watchPath, 1, api.token);
    await until(() => watchers() === 1, 'registered the first watcher');
    const before = heapUsed();
    const opened = await clients.open(api.url, watchPath, n, api.token);
    await until(() => watchers() === n + 1, `registered ${n + 1} watchers`);
    const after = heapUsed();
    await clients.close();
    await until(() => watchers() === 0, 'removed the closed watchers');

    await clients.open(bare.url, '/watch', 1);
    await until(() => bare.watchers.size === 1, 'held the first bare response');
    const bBefore = heapUsed();
    await clients.open(bare.url, '/watch', n);
    await until(() => bare.watchers.size === n + 1, `held ${n + 1} bare responses`);
    const bAfter = heapUsed();
    await clients.close();
    await until(() => bare.watchers.size === 0, 'dropped the closed bare responses');
    const perWatcher = (after - before) / n;
    const perBare = (bAfter - bBefore) / n;

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
      `server-memory: ${fmtInt(n)} idle HTTP watchers (opened in ${fmtMs(opened.ms)}): ${fmtBytes(after - before)} = ${fmtBytes(perWatcher)} per watcher; bare server: ${fmtBytes(perBare)} per held response`,
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
        note: 'server heap only (clients in their own process)',
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

runAsScript('server-memory', () =>
  runServerMemory({ watchers: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
);
