// Benchmark: importFiles (src/import) on a generated kube-apiserver audit log, default 1 GB, next
// to a baseline measured in the same run on the same file: reading it as a stream, cutting it into
// lines and JSON.parse-ing each (what any importer has to do at least). Goal: at least half the
// baseline's rate. Each pass runs in a process of its own, ours and the baseline alternating, so
// that each one's peak RSS (process.resourceUsage().maxRSS) and peak heap (sampled per chunk) are
// its own. The log is a realistic mix: Metadata, Request (writes with requestObject) and
// RequestResponse (LISTs with their items, writes with both objects) levels; RequestReceived
// omitted for half the requests (a common policy); watches open for minutes across other
// requests, some still open at the end; 404, 409, 410, 429 and 504 among the answers.
// The file is deleted afterwards.
//   node esbuild.js && node --expose-gc out/bench/import-audit.js [megabytes]
//   (or LISTWATCH_BENCH_IMPORT_MB=100 npm run bench)
import { spawnSync } from 'child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { SeededRandom } from '../src/engine/rand';
import { importFiles } from '../src/import/import-files';
import {
  atLeast,
  fmtBytes,
  fmtInt,
  fmtMs,
  isEntryPoint,
  median,
  runAsScript,
  scriptArgs,
  type BenchRow,
} from './bench-util';

const defaultMegabytes = 1024;
/** Passes of each, alternating (each in its own process). */
const passes = 3;

export interface ImportAuditOptions {
  megabytes?: number;
  log?: (line: string) => void;
}

/** One pass's figures, as the child process prints them. */
interface Pass {
  ms: number;
  /** CPU time (user + system): on a shared machine the wall time says as much about the others. */
  cpuMs: number;
  lines: number;
  records: number;
  maxRssBytes: number;
  peakHeapBytes: number;
  maxPending?: number;
}

const passMarker = '@@import-audit-pass ';

export async function runImportAudit(o: ImportAuditOptions = {}): Promise<BenchRow[]> {
  const megabytes = o.megabytes ?? defaultMegabytes;
  const log = o.log ?? console.log;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'listwatch-bench-import-'));
  const file = path.join(dir, 'audit.log');
  try {
    const genStart = process.hrtime.bigint();
    const events = await generateAuditLog(file, megabytes * 1024 * 1024);
    const bytes = statSync(file).size;
    const genMs = Number(process.hrtime.bigint() - genStart) / 1e6;
    log(`import-audit: generated ${fmtBytes(bytes)}, ${fmtInt(events)} events in ${fmtMs(genMs)}`);
    const ours: Pass[] = [];
    const base: Pass[] = [];
    for (let k = 0; k < passes; k++) {
      ours.push(runPass('ours', file));
      base.push(runPass('baseline', file));
      log(
        `import-audit: pass ${k + 1}: importFiles ${fmtMs(ours[k].ms)} (CPU ${fmtMs(ours[k].cpuMs)}), baseline ${fmtMs(base[k].ms)} (CPU ${fmtMs(base[k].cpuMs)})`,
      );
    }
    const oursMs = median(ours.map((p) => p.ms));
    const baseMs = median(base.map((p) => p.ms));
    const rate = (ms: number): string =>
      `${((bytes / 1024 / 1024) * (1000 / ms)).toFixed(0)} MiB/s`;
    const ratio = baseMs / oursMs;
    const cpuRatio = median(base.map((p) => p.cpuMs)) / median(ours.map((p) => p.cpuMs));
    const maxOf = (ps: Pass[], f: (p: Pass) => number): number => Math.max(...ps.map(f));
    const o0 = ours[0];
    return [
      {
        bench: 'import-audit',
        measure: `importFiles / split+JSON.parse, ${fmtBytes(bytes)} audit log`,
        figure: rate(oursMs),
        baseline: rate(baseMs),
        ratio,
        goal: atLeast(ratio, 0.5),
        note: `CPU-time ratio ${cpuRatio.toFixed(2)}; ${fmtInt(o0.lines)} lines, ${fmtInt(o0.records)} requests, max ${fmtInt(o0.maxPending ?? 0)} held; median of ${passes}; generated in ${fmtMs(genMs)}`,
      },
      {
        bench: 'import-audit',
        measure: 'peak RSS, importFiles / baseline',
        figure: fmtBytes(maxOf(ours, (p) => p.maxRssBytes)),
        baseline: fmtBytes(maxOf(base, (p) => p.maxRssBytes)),
        ratio: maxOf(ours, (p) => p.maxRssBytes) / maxOf(base, (p) => p.maxRssBytes),
        note: `peak heap ${fmtBytes(maxOf(ours, (p) => p.peakHeapBytes))} / ${fmtBytes(maxOf(base, (p) => p.peakHeapBytes))}`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runPass(which: 'ours' | 'baseline', file: string): Pass {
  const r = spawnSync(process.execPath, [__filename, '--pass', which, file], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith(passMarker));
  if (r.status !== 0 || !line)
    throw new Error(`import-audit: ${which} pass failed (exit ${r.status}): ${r.stderr}`);
  return JSON.parse(line.slice(passMarker.length)) as Pass;
}

/** One pass in this process: prints its figures. */
async function pass(which: string, file: string): Promise<void> {
  let peakHeap = 0;
  const sample = (): void => {
    const h = process.memoryUsage().heapUsed;
    if (h > peakHeap) peakHeap = h;
  };
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  let figures: Omit<Pass, 'ms' | 'cpuMs' | 'maxRssBytes' | 'peakHeapBytes'>;
  if (which === 'ours') {
    let records = 0;
    const result = await importFiles(
      [{ path: file }],
      { onProgress: sample },
      {
        request: () => {
          records++;
        },
        reject: () => undefined,
      },
    );
    figures = { lines: result.lines, records, maxPending: result.merge.maxPending };
  } else {
    figures = await splitAndParse(file, sample);
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const out: Pass = {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...figures,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    peakHeapBytes: peakHeap,
  };
  console.log(passMarker + JSON.stringify(out));
}

/** The baseline: stream, cut lines on bytes, JSON.parse each. */
async function splitAndParse(
  file: string,
  sample: () => void,
): Promise<{ lines: number; records: number }> {
  let lines = 0;
  let carry: Buffer | undefined;
  let parsed = 0;
  const parse = (b: Buffer, start: number, end: number): void => {
    lines++;
    if (end > start) {
      JSON.parse(b.toString('utf8', start, end));
      parsed++;
    }
  };
  for await (const chunk of createReadStream(file, {
    highWaterMark: 1 << 20,
  }) as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (carry && nl >= 0) {
      const joined = Buffer.concat([carry, chunk.subarray(0, nl)]);
      parse(joined, 0, joined.length);
      carry = undefined;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    for (; nl >= 0; nl = chunk.indexOf(10, start)) {
      parse(chunk, start, nl);
      start = nl + 1;
    }
    if (start < chunk.length)
      carry = carry
        ? Buffer.concat([carry, chunk.subarray(start)])
        : Buffer.from(chunk.subarray(start));
    sample();
  }
  if (carry) parse(carry, 0, carry.length);
  return { lines, records: parsed };
}

const users = [
  {
    username: 'system:serviceaccount:kube-system:replicaset-controller',
    ua: 'kube-controller-manager/v1.36.0 (linux/amd64) kubernetes/abc1234/system:serviceaccount:kube-system:replicaset-controller',
  },
  { username: 'system:node:node-17', ua: 'kubelet/v1.36.0 (linux/amd64) kubernetes/abc1234' },
  {
    username: 'system:kube-scheduler',
    ua: 'kube-scheduler/v1.36.0 (linux/amd64) kubernetes/abc1234/scheduler',
  },
  {
    username: 'system:serviceaccount:monitoring:kube-state-metrics',
    ua: 'kube-state-metrics/v2.12.0 (linux/amd64) kube-state-metrics/5d7b3a2',
  },
  { username: 'alice@example.com', ua: 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0' },
  {
    username: 'system:serviceaccount:argocd:argocd-application-controller',
    ua: 'argocd-application-controller/v2.11.0 (linux/amd64)',
  },
];
const resources = ['pods', 'configmaps', 'secrets', 'services', 'endpoints', 'events', 'leases'];

/** Writes audit events until the file reaches `bytes`; returns how many. */
export async function generateAuditLog(file: string, bytes: number): Promise<number> {
  const r = new SeededRandom(13);
  const out = createWriteStream(file);
  let written = 0;
  let events = 0;
  let buf: string[] = [];
  let bufLen = 0;
  let t = Date.parse('2026-12-01T10:00:00Z') * 1000;
  let seq = 0;
  const watches: Array<{ e: Record<string, unknown>; endAt: number }> = [];
  const micro = (us: number): string =>
    new Date(Math.floor(us / 1000)).toISOString().slice(0, 19) +
    '.' +
    String(us % 1_000_000).padStart(6, '0') +
    'Z';
  const flush = async (): Promise<void> => {
    const s = buf.join('');
    buf = [];
    bufLen = 0;
    if (!out.write(s)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  };
  const emit = async (e: Record<string, unknown>, stage: string, at: number): Promise<void> => {
    const line = JSON.stringify({ ...e, stage, stageTimestamp: micro(at) }) + '\n';
    buf.push(line);
    bufLen += line.length;
    written += line.length;
    events++;
    if (bufLen > 1 << 20) await flush();
  };
  const item = (ns: string, name: string, rv: number): unknown => ({
    metadata: {
      name,
      namespace: ns,
      uid: `${name}-uid`,
      resourceVersion: String(rv),
      labels: { app: name.slice(0, 8) },
    },
    data: { key: 'x'.repeat(40) },
  });
  while (written < bytes) {
    t += 1000 + r.intn(2000);
    const u = users[r.intn(users.length)];
    const resource = resources[r.intn(resources.length)];
    const ns = `team-${r.intn(40)}`;
    const name = `${resource.slice(0, -1)}-${r.intn(100000).toString(36)}`;
    const roll = r.intn(100);
    const verb =
      roll < 30
        ? 'get'
        : roll < 50
          ? 'list'
          : roll < 52
            ? 'watch'
            : roll < 70
              ? 'update'
              : roll < 82
                ? 'patch'
                : roll < 92
                  ? 'create'
                  : 'delete';
    const level = r.intn(100) < 80 ? 'Metadata' : r.intn(3) === 0 ? 'RequestResponse' : 'Request';
    const id = `${(seq++).toString(16).padStart(8, '0')}-4e7f-9a0b-1c2d-3e4f5a10bench`;
    const named = verb !== 'list' && verb !== 'watch' && verb !== 'create';
    const uri =
      verb === 'list'
        ? `/api/v1/namespaces/${ns}/${resource}?limit=500`
        : verb === 'watch'
          ? `/api/v1/namespaces/${ns}/${resource}?allowWatchBookmarks=true&resourceVersion=${seq}&timeoutSeconds=${300 + r.intn(300)}&watch=true`
          : `/api/v1/namespaces/${ns}/${resource}${named ? `/${name}` : ''}`;
    const e: Record<string, unknown> = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level,
      auditID: id,
      requestURI: uri,
      verb,
      user: { username: u.username, groups: ['system:authenticated'] },
      sourceIPs: [`10.244.${r.intn(8)}.${r.intn(250)}`],
      userAgent: u.ua,
      objectRef: { resource, namespace: ns, name: named ? name : undefined, apiVersion: 'v1' },
      requestReceivedTimestamp: micro(t),
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    };
    const omitReceived = r.intn(2) === 0;
    if (!omitReceived) await emit(e, 'RequestReceived', t);
    if (verb === 'watch') {
      await emit({ ...e, responseStatus: { metadata: {}, code: 200 } }, 'ResponseStarted', t + 900);
      const endAt = t + (300 + r.intn(300)) * 1_000_000;
      // Kept in order of their end: a binary search for the place.
      let lo = 0;
      let hi = watches.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (watches[mid].endAt <= endAt) lo = mid + 1;
        else hi = mid;
      }
      watches.splice(lo, 0, { e: { ...e, responseStatus: { metadata: {}, code: 200 } }, endAt });
    } else {
      const c = r.intn(1000);
      const code =
        c < 930
          ? verb === 'create'
            ? 201
            : 200
          : c < 960
            ? 404
            : c < 975
              ? 409
              : c < 985
                ? 429
                : c < 995
                  ? 504
                  : 410;
      const done: Record<string, unknown> = {
        ...e,
        responseStatus:
          code < 300
            ? { metadata: {}, code }
            : {
                metadata: {},
                status: 'Failure',
                message: `${resource} "${name}" failed`,
                reason: 'Conflict',
                code,
              },
      };
      if (level !== 'Metadata' && verb !== 'get' && verb !== 'list' && verb !== 'delete')
        done.requestObject = {
          kind: 'ConfigMap',
          apiVersion: 'v1',
          ...(item(ns, name, seq) as object),
        };
      if (level === 'RequestResponse' && code < 300) {
        if (verb === 'list') {
          const n = r.intn(20);
          done.responseObject = {
            kind: 'ConfigMapList',
            apiVersion: 'v1',
            metadata: {
              resourceVersion: String(seq),
              continue:
                n === 19
                  ? 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgyMTMsInN0YXJ0IjoiYSJ9'
                  : undefined,
            },
            items: Array.from({ length: n }, (_, i) => item(ns, `${name}-${i}`, seq)),
          };
        } else
          done.responseObject = {
            kind: 'ConfigMap',
            apiVersion: 'v1',
            ...(item(ns, name, seq) as object),
          };
      }
      await emit(done, 'ResponseComplete', t + 300 + r.intn(40_000));
    }
    let ended = 0;
    while (ended < watches.length && watches[ended].endAt <= t)
      await emit(watches[ended++].e, 'ResponseComplete', t);
    if (ended > 0) watches.splice(0, ended);
  }
  await flush();
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  return events;
}

if (isEntryPoint('import-audit') && process.argv[2] === '--pass') {
  pass(process.argv[3], process.argv[4]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  const arg = scriptArgs()[0] ?? process.env.LISTWATCH_BENCH_IMPORT_MB;
  runAsScript('import-audit', () => runImportAudit({ megabytes: arg ? Number(arg) : undefined }));
}
