// Benchmark: the live apiserver (src/server ApiServer, in this process) over HTTP, each figure next
// to a bare Node HTTP server measured in the same run, interleaved, from the same client process
// (bench/http-clients.ts, on the other core):
//  - one write fanned out to 1,000 HTTP watch connections (JSON): from sending the POST until
//    every connection holds its event; baseline: a POST whose body, the same event line
//    pre-encoded, the bare server writes to 1,000 chunked responses. Goal >= 0.5 (of the rates).
//  - a 10,000-pod LIST (JSON, no limit, as the server answers it by default); baseline: the bare
//    server sending the same bytes, timed in alternating back-to-back pairs; the figure is the
//    median of the pairs' ratios (issue #25). Goal >= 0.9. The first LIST's time (every item
//    encoded, none memoised yet) is logged and noted next to it.
//   node esbuild.js && node --expose-gc out/bench/server-fanout.js [watchers]
//   (watchers 0: the LIST alone, no watch connections and no fan-out row)
import { ApiServer } from '../src/server/api-server';
import {
  atLeast,
  fmtBytes,
  fmtInt,
  fmtMs,
  median,
  runAsScript,
  scriptArgs,
  timeAsync,
  type BenchRow,
} from './bench-util';
import { BareHttpServer, HttpClients } from './http-clients-driver';

export interface ServerFanoutOptions {
  watchers?: number;
  pods?: number;
  /** Timed writes (odd: a true median). */
  repeats?: number;
  warmup?: number;
  /** Timed LIST pairs (odd: a true median), after listWarmup untimed pairs. */
  listRepeats?: number;
  listWarmup?: number;
  log?: (line: string) => void;
}

/** `fan-00007`: names of one length, so the baseline's line is as long as the server's. */
const podName = (prefix: string, k: number): string => `${prefix}-${String(k).padStart(5, '0')}`;

async function request(
  server: ApiServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const res = await fetch(new URL(path, server.url), {
    method,
    headers: {
      Authorization: `Bearer ${server.token}`,
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

const pod = (name: string): object => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'fanout' } },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
});

/** One write fanned out to `n` watch connections of ours and of the bare server, interleaved. */
async function fanOut(
  api: ApiServer,
  bare: BareHttpServer,
  ours: HttpClients,
  base: HttpClients,
  n: number,
  warmup: number,
  repeats: number,
): Promise<{
  fanMs: number[];
  bareMs: number[];
  line: string;
  openedOurs: number;
  oursOpenMs: number;
  bareOpenMs: number;
}> {
  const collection = '/api/v1/namespaces/bench/pods';
  const listed = await request(api, 'GET', `${collection}?limit=1`);
  const rv = (JSON.parse(listed.body) as { metadata: { resourceVersion: string } }).metadata
    .resourceVersion;
  const watchPath = `${collection}?watch=true&resourceVersion=${rv}`;
  const openedOurs = await ours.open(api.url, watchPath, n, api.token);
  const openedBase = await base.open(bare.url, '/watch', n);

  // The baseline's line: the server's own event line for the first write (read by one more
  // watch here), renamed per write.
  const capture = await fetch(new URL(watchPath, api.url), {
    headers: { Authorization: `Bearer ${api.token}` },
  });
  const reader = capture.body?.getReader();
  if (!reader) throw new Error(`server-fanout: watch ${capture.status} without a body`);
  let line = '';
  const fanMs: number[] = [];
  const bareMs: number[] = [];
  for (let k = 0; k < warmup + repeats; k++) {
    const name = podName('fan', k);
    const marker = `"name":"${name}"`;
    const w = await ours.write(api.url, collection, JSON.stringify(pod(name)), marker, api.token);
    if (k === 0) {
      let text = '';
      while (!text.includes('\n')) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      await reader.cancel();
      line = text.slice(0, text.indexOf('\n') + 1);
      if (!line.includes(marker)) throw new Error(`server-fanout: no event line for ${name}`);
    }
    const baseName = podName('bas', k);
    const b = await base.write(
      bare.url,
      '/write',
      line.replace(`"name":"${podName('fan', 0)}"`, `"name":"${baseName}"`),
      `"name":"${baseName}"`,
    );
    if (k >= warmup) {
      fanMs.push(w.ms);
      bareMs.push(b.ms);
    }
  }

  return {
    fanMs,
    bareMs,
    line,
    openedOurs: openedOurs.opened,
    oursOpenMs: openedOurs.ms,
    bareOpenMs: openedBase.ms,
  };
}

export async function runServerFanout(o: ServerFanoutOptions = {}): Promise<BenchRow[]> {
  const n = o.watchers ?? 1000;
  const pods = o.pods ?? 10_000;
  const repeats = o.repeats ?? 21;
  const warmup = o.warmup ?? 30;
  const listRepeats = o.listRepeats ?? 41;
  const listWarmup = o.listWarmup ?? 6;
  const log = o.log ?? console.log;

  let server: ApiServer | undefined;
  const startMs = await timeAsync(async () => {
    // The engine and its sockets alone: no clients report folding every request.
    server = await ApiServer.start({ seed: { pods } });
  });
  if (!server) throw new Error('server-fanout: ApiServer did not start');
  const api = server;
  const bare = new BareHttpServer();
  await bare.start();
  const ours = new HttpClients();
  const base = new HttpClients();
  try {
    const ns = await request(api, 'POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'bench' },
    });
    if (ns.status !== 201) throw new Error(`create namespace bench: ${ns.status} ${ns.body}`);
    const fan = n > 0 ? await fanOut(api, bare, ours, base, n, warmup, repeats) : undefined;

    // The LIST: the server's answer, then the same bytes from the bare server. The first LIST
    // encodes every item; later ones reuse the items' encodings (src/server/list-item-json.ts).
    // Timed in pairs, one of each back to back, the order swapped every pair (neither always meets
    // the other's leftovers: its GC, its client's buffers), after warm-up pairs; the figure is the
    // median of the pairs' ratios: two requests a few ms apart share the shared machine's load,
    // which a ratio of two medians taken over seconds does not.
    const listPath = '/api/v1/namespaces/default/pods';
    const first = await ours.get(api.url, listPath, api.token);
    if (first.status !== 200) throw new Error(`server-fanout: first LIST ${first.status}`);
    const listBody = await request(api, 'GET', listPath);
    const items = (JSON.parse(listBody.body) as { items: unknown[] }).items.length;
    bare.setList(Buffer.from(listBody.body), 'application/json');
    const listMs: number[] = [];
    const bareListMs: number[] = [];
    const pairRatios: number[] = [];
    let bytes = 0;
    for (let k = 0; k < listWarmup + listRepeats; k++) {
      const oursFirst = k % 2 === 0;
      const b0 = oursFirst ? undefined : await base.get(bare.url, '/list');
      const r = await ours.get(api.url, listPath, api.token);
      const b = b0 ?? (await base.get(bare.url, '/list'));
      if (r.status !== 200 || b.bytes !== r.bytes) {
        throw new Error(`server-fanout: LIST ${r.status}, ${r.bytes} bytes; bare ${b.bytes} bytes`);
      }
      bytes = r.bytes;
      if (k >= listWarmup) {
        listMs.push(r.ms);
        bareListMs.push(b.ms);
        pairRatios.push(b.ms / r.ms);
      }
    }

    const l = median(listMs);
    const lb = median(bareListMs);
    const lr = median(pairRatios);
    const sortedRatios = [...pairRatios].sort((x, y) => x - y);
    const quartile = (q: number): string =>
      sortedRatios[Math.round(q * (sortedRatios.length - 1))].toFixed(2);
    const rows: BenchRow[] = [];
    log(`server-fanout: ApiServer with ${fmtInt(pods)} pods started in ${fmtMs(startMs)}`);
    if (fan) {
      const f = median(fan.fanMs);
      const fb = median(fan.bareMs);
      const lineBytes = fmtBytes(Buffer.byteLength(fan.line));
      log(
        `  ${fmtInt(fan.openedOurs)} watch connections opened in ${fmtMs(fan.oursOpenMs)} (bare: ${fmtMs(fan.bareOpenMs)})`,
      );
      log(
        `  one write -> ${fmtInt(n)} watch connections, median of ${repeats} after ${warmup}: ${fmtMs(f)}; bare server writing the pre-encoded ${lineBytes} line: ${fmtMs(fb)}`,
      );
      rows.push({
        bench: 'server-fanout',
        measure: `HTTP: 1 write -> ${fmtInt(n)} watch connections (JSON), time to the last`,
        figure: fmtMs(f),
        baseline: fmtMs(fb),
        ratio: fb / f,
        goal: atLeast(fb / f, 0.5),
        note: `ratio of rates (bare ms / ours); ${lineBytes} event line`,
      });
    }
    log(
      `  LIST of ${fmtInt(items)} pods (${fmtBytes(bytes)}), median of ${listRepeats} after ${listWarmup}: ${fmtMs(l)}; bare server sending the same bytes: ${fmtMs(lb)}; the first LIST (every item encoded): ${fmtMs(first.ms)}`,
    );
    log(
      `  LIST pairs' ratios (bare ms / ours): median ${lr.toFixed(2)}, quartiles ${quartile(0.25)}..${quartile(0.75)}, range ${quartile(0)}..${quartile(1)}`,
    );
    rows.push({
      bench: 'server-fanout',
      measure: `HTTP: LIST of ${fmtInt(items)} pods (JSON), time to the last byte`,
      figure: fmtMs(l),
      baseline: fmtMs(lb),
      ratio: lr,
      goal: atLeast(lr, 0.9),
      note: `median of ${listRepeats} alternating pairs' ratios (bare ms / ours), quartiles ${quartile(0.25)}..${quartile(0.75)}; ${fmtBytes(bytes)} body; first LIST ${fmtMs(first.ms)}`,
    });
    return rows;
  } finally {
    ours.stop();
    base.stop();
    await bare.stop();
    await api.stop();
  }
}

runAsScript('server-fanout', () =>
  runServerFanout({ watchers: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
);
