#!/usr/bin/env node
// Measures a real etcd on loopback and fits the figures of src/engine/etcd/latency-model.ts.
//
// usage: node scripts/measure-etcd-latency.mjs [--etcd PATH] [--reps-scale N] [--quantile Q]
//          [--json] [--raw]
//        node scripts/measure-etcd-latency.mjs --refit FILE… [--quantile Q] [--json] [--raw]
//          (fits the points of earlier `--json --raw` runs again, pooled, without an etcd)
//
// Starts its own etcd (Debian's etcd-server 3.4: `apt-get install etcd-server`) on 127.0.0.1 with
// a temporary data dir, loads 100,000 pod-sized values (~1.5 KB) and 10,000 small ones (~100 B),
// times requests one at a time, fits the model by least squares, prints the fitted figures and
// every point, then stops etcd by its PID and removes the data dir.
//
// It speaks etcd's own gRPC API (protobuf over HTTP/2, with node:http2 and a hand-written codec of
// the few messages it needs), as the apiserver's client does: the JSON gateway would add base64
// and JSON encoding on both sides, a per-byte cost the apiserver never pays. Times run from the
// request's send to the response's last byte; the client-side protobuf decode the apiserver's
// figure also contains (fast in Go) is left out.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const etcdBin = opt('--etcd', 'etcd');
const repsScale = Number(opt('--reps-scale', '1'));
// The quantile of each point's samples that the fit uses. Not the median: on a shared machine
// other processes' bursts land on some samples and not others, and the lower quartile keeps
// etcd's own cost while leaving most of that noise out.
const fitQuantile = Number(opt('--quantile', '0.25'));
const asJson = args.includes('--json');
const printRaw = args.includes('--raw');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

// ---------------------------------------------------------------- protobuf (the few messages used)

function varint(n) {
  let v = BigInt(n);
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}
const tag = (field, wire) => varint((field << 3) | wire);
const bytesField = (field, buf) => {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf);
  return Buffer.concat([tag(field, 2), varint(b.length), b]);
};
const intField = (field, n) => (n ? Buffer.concat([tag(field, 0), varint(n)]) : Buffer.alloc(0));
const boolField = (field, v) => (v ? Buffer.concat([tag(field, 0), varint(1)]) : Buffer.alloc(0));

/** etcdserverpb.RangeRequest: key 1, range_end 2, limit 3, revision 4, keys_only 8, count_only 9. */
function rangeRequest({ key, rangeEnd, limit, countOnly }) {
  return Buffer.concat([
    bytesField(1, key),
    rangeEnd ? bytesField(2, rangeEnd) : Buffer.alloc(0),
    intField(3, limit ?? 0),
    boolField(9, countOnly),
  ]);
}
/** etcdserverpb.PutRequest: key 1, value 2. */
const putRequest = (key, value) => Buffer.concat([bytesField(1, key), bytesField(2, value)]);
/**
 * etcdserverpb.TxnRequest as the etcd3 store sends a create or an update: compare 1 (Compare:
 * result 1 EQUAL=0, target 2 MOD=2, key 3, mod_revision 6), success 2 (RequestOp: request_put 2),
 * failure 3 (RequestOp: request_range 1).
 */
function txnRequest(key, value, modRevision) {
  const compare = Buffer.concat([
    intField(1, 0),
    intField(2, 2),
    bytesField(3, key),
    // mod_revision is in a oneof: written even when 0.
    Buffer.concat([tag(6, 0), varint(modRevision)]),
  ]);
  const success = bytesField(2, putRequest(key, value));
  const failure = bytesField(1, rangeRequest({ key }));
  return Buffer.concat([bytesField(1, compare), bytesField(2, success), bytesField(3, failure)]);
}

/** Reads a message into {field: [values]} (varints as numbers, length-delimited as Buffers). */
function decode(buf) {
  const out = {};
  let i = 0;
  const readVarint = () => {
    let v = 0n;
    let s = 0n;
    for (;;) {
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << s;
      if (!(b & 0x80)) return v;
      s += 7n;
    }
  };
  while (i < buf.length) {
    const t = Number(readVarint());
    const field = t >> 3;
    const wire = t & 7;
    let value;
    if (wire === 0) value = Number(readVarint());
    else if (wire === 2) {
      const n = Number(readVarint());
      value = buf.subarray(i, i + n);
      i += n;
    } else throw new Error(`unexpected wire type ${wire}`);
    (out[field] ??= []).push(value);
  }
  return out;
}

/** RangeResponse: kvs 2 (KeyValue: key 1, value 5), count 4, header 1 (revision 3). */
function rangeFigures(resp) {
  const m = decode(resp);
  let bytes = 0;
  for (const kv of m[2] ?? []) {
    const k = decode(kv);
    bytes += (k[1]?.[0]?.length ?? 0) + (k[5]?.[0]?.length ?? 0);
  }
  return { kvs: (m[2] ?? []).length, count: m[4]?.[0] ?? 0, bytes };
}
const headerRevision = (resp) => decode(decode(resp)[1][0])[3][0];

// ---------------------------------------------------------------- gRPC over HTTP/2

function grpcClient(port) {
  const session = http2.connect(`http://127.0.0.1:${port}`, {
    settings: { initialWindowSize: 64 << 20 },
  });
  session.on('connect', () => session.setLocalWindowSize(256 << 20));
  const call = (method, msg) =>
    new Promise((resolve, reject) => {
      const req = session.request({
        ':method': 'POST',
        ':path': `/etcdserverpb.KV/${method}`,
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      const chunks = [];
      let status;
      let message = '';
      req.on('response', (h) => {
        if (h['grpc-status'] !== undefined) status = h['grpc-status'];
      });
      req.on('trailers', (h) => {
        status = h['grpc-status'];
        message = h['grpc-message'] ?? '';
      });
      req.on('data', (c) => chunks.push(c));
      req.on('error', reject);
      req.on('end', () => {
        if (String(status) !== '0') {
          reject(new Error(`${method}: grpc-status ${status} ${message}`));
          return;
        }
        const body = Buffer.concat(chunks);
        resolve(body.subarray(5, 5 + body.readUInt32BE(1)));
      });
      const frame = Buffer.alloc(5 + msg.length);
      frame.writeUInt32BE(msg.length, 1);
      msg.copy(frame, 5);
      req.end(frame);
    });
  return { call, close: () => session.close() };
}

// ---------------------------------------------------------------- etcd

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startEtcd() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'measure-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const child = spawn(
    etcdBin,
    [
      '--name=measure',
      `--data-dir=${path.join(dir, 'data')}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=measure=${peer}`,
      '--heartbeat-interval=10',
      '--election-timeout=100',
      '--log-outputs=stderr',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let logText = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`etcd did not start:\n${logText}`)), 30_000);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`etcd exited with ${code}:\n${logText}`));
    });
    const onLog = (d) => {
      logText += d;
      // 3.4 logs "serving insecure client requests on …", 3.5+ "serving client traffic insecurely".
      if (/serving (insecure client requests|client traffic insecurely)/.test(logText)) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        // Keep draining etcd's log (a full pipe would block it), without looking at it.
        child.stderr.off('data', onLog);
        child.stderr.resume();
        resolve();
      }
    };
    child.stderr.on('data', onLog);
  });
  const version =
    /etcd Version: (\S+)/.exec(execFileSync(etcdBin, ['--version'], { encoding: 'utf8' }))?.[1] ??
    'unknown';
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { port: clientPort, pid: child.pid, version, stop };
}

// ---------------------------------------------------------------- workload

const podPrefix = '/registry/pods/default/';
const smallPrefix = '/registry/configmaps/small/';
const podKey = (i) => `${podPrefix}pod-${String(i).padStart(6, '0')}`;
const smallKey = (i) => `${smallPrefix}cm-${String(i).padStart(5, '0')}`;

/** A pod-shaped JSON value of about `size` bytes (an annotation pads it). */
function podValue(name, size) {
  const pod = {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace: 'default',
      uid: '6d1f0c9e-8f57-4a52-9d0b-7f4e2b1c3a10',
      resourceVersion: '',
      creationTimestamp: '2025-01-01T00:00:00Z',
      labels: { app: 'web', 'pod-template-hash': '5d4b8c9f7' },
      annotations: { padding: '' },
    },
    spec: {
      containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.10', resources: {} }],
      restartPolicy: 'Always',
      nodeName: 'node-0001',
    },
    status: { phase: 'Running', podIP: '10.0.0.1', hostIP: '192.0.2.1' },
  };
  const base = JSON.stringify(pod).length;
  pod.metadata.annotations.padding = 'x'.repeat(Math.max(0, size - base));
  return JSON.stringify(pod);
}

async function load(kv, count, keyOf, valueOf) {
  const perTxn = 128; // etcd's default --max-txn-ops
  const inFlight = 8;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const from = next;
      next = Math.min(count, next + perTxn);
      const ops = [];
      for (let i = from; i < next; i++)
        ops.push(bytesField(2, bytesField(2, putRequest(keyOf(i), valueOf(i)))));
      await kv.call('Txn', Buffer.concat(ops));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** The end of a prefix range, as clientv3.GetPrefixRangeEnd. */
function prefixEnd(prefix) {
  const b = Buffer.from(prefix);
  for (let i = b.length - 1; i >= 0; i--) {
    if (b[i] < 0xff) {
      b[i]++;
      return b.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const p = (s.length - 1) * q;
  const lo = Math.floor(p);
  return s[lo] + (s[Math.ceil(p)] - s[lo]) * (p - lo);
};

// ---------------------------------------------------------------- least squares

/** Solves A x = b (Gaussian elimination with partial pivoting). */
function solve(A, b) {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

/**
 * Weighted least squares of y ≈ Σ x_j·coef_j over the points' `stat`, weighted by 1/y² so every
 * point counts by its relative error (a 0.3 ms get weighs as much as a 300 ms range). A term whose
 * coefficient comes out negative is dropped and the rest refitted (non-negative least squares by
 * elimination): a cost model has no negative costs.
 */
function fit(points, terms) {
  let active = [...terms];
  for (;;) {
    const A = active.map(() => active.map(() => 0));
    const b = active.map(() => 0);
    for (const p of points) {
      const w = 1 / (p.stat * p.stat);
      const x = active.map((t) => p.x[t]);
      for (let i = 0; i < active.length; i++) {
        b[i] += w * x[i] * p.stat;
        for (let j = 0; j < active.length; j++) A[i][j] += w * x[i] * x[j];
      }
    }
    const coef = solve(A, b);
    const worst = coef.findIndex((c) => c < 0);
    if (worst < 0) {
      const out = Object.fromEntries(terms.map((t) => [t, 0]));
      active.forEach((t, i) => (out[t] = coef[i]));
      return out;
    }
    active = active.filter((_, i) => i !== worst);
  }
}

function quality(points, coef) {
  const predict = (p) => Object.entries(coef).reduce((s, [t, c]) => s + c * p.x[t], 0);
  const mean = points.reduce((s, p) => s + p.stat, 0) / points.length;
  let ssRes = 0;
  let ssTot = 0;
  const rel = [];
  for (const p of points) {
    p.fitted = predict(p);
    ssRes += (p.stat - p.fitted) ** 2;
    ssTot += (p.stat - mean) ** 2;
    rel.push(Math.abs(p.fitted - p.stat) / p.stat);
  }
  return {
    r2: 1 - ssRes / ssTot,
    medianRelativeError: quantile(rel, 0.5),
    worstRelativeError: Math.max(...rel),
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const etcd = await startEtcd();
  log(`etcd ${etcd.version} (pid ${etcd.pid}) on 127.0.0.1:${etcd.port}`);
  const kv = grpcClient(etcd.port);
  try {
    const podSize = 1500;
    const smallSize = 100;
    log('loading 100,000 pod-sized values and 10,000 small ones…');
    await load(kv, 100_000, podKey, (i) => podValue(`pod-${String(i).padStart(6, '0')}`, podSize));
    await load(kv, 10_000, smallKey, (i) => 'v'.repeat(smallSize - smallKey(i).length));

    const reps = (n) => Math.max(3, Math.round(n * repsScale));
    const cases = [];
    const read = (name, n, req) => cases.push({ name, kind: 'read', reps: reps(n), req });
    read('get 1 key', 300, { key: podKey(4242) });
    for (const limit of [10, 100, 1000, 10000])
      read(`range limit=${limit} of 100k pods`, limit === 10000 ? 20 : 40, {
        key: podPrefix,
        rangeEnd: prefixEnd(podPrefix),
        limit,
      });
    // Sub-prefixes of pod-0…: pod-00000 holds 10 keys, pod-0000 100, pod-000 1000, pod-00 10000.
    const sub = (digits) => `${podPrefix}pod-${'0'.repeat(6 - digits)}`;
    for (const d of [1, 2, 3, 4])
      read(`range all ${10 ** d} pods`, d === 4 ? 20 : 100, {
        key: sub(d),
        rangeEnd: prefixEnd(sub(d)),
      });
    const smallSub = (digits) => `${smallPrefix}cm-${'0'.repeat(5 - digits)}`;
    for (const d of [1, 2, 3, 4])
      read(`range all ${10 ** d} small values`, d === 4 ? 30 : 100, {
        key: smallSub(d),
        rangeEnd: prefixEnd(smallSub(d)),
      });
    for (const d of [1, 2, 3, 4])
      read(`count ${10 ** d} pods`, 100, {
        key: sub(d),
        rangeEnd: prefixEnd(sub(d)),
        countOnly: true,
      });
    read('count 100k pods', 40, {
      key: podPrefix,
      rangeEnd: prefixEnd(podPrefix),
      countOnly: true,
    });

    let fresh = 0;
    // A write's figures are its key and value: make(i) returns [method, message, key, value].
    const write = (name, n, make) => cases.push({ name, kind: 'write', reps: reps(n), make });
    for (const size of [100, 1500, 8000, 32000]) {
      write(`put ${size} B`, 100, (i) => {
        const key = `/registry/pods/put/p-${size}-${i}`;
        const value = 'v'.repeat(size);
        return ['Put', putRequest(key, value), key, value];
      });
    }
    write('txn create 1500 B', 150, () => {
      const name = `created-${fresh++}`;
      const key = `/registry/pods/txn/${name}`;
      const value = podValue(name, 1500);
      return ['Txn', txnRequest(key, value, 0), key, value];
    });
    // GuaranteedUpdate: compare the pod's mod revision, put the new value.
    const updated = podKey(77);
    let updatedRev = 0;
    write('txn update 1500 B', 150, () => {
      const value = podValue('pod-000077', 1500);
      return ['Txn', txnRequest(updated, value, updatedRev), updated, value];
    });
    {
      const r = decode(await kv.call('Range', rangeRequest({ key: updated })));
      updatedRev = decode(r[2][0])[3][0]; // KeyValue.mod_revision
    }

    for (const c of cases) c.samples = [];
    // Warm up every case once, then take the samples round by round, so machine noise spreads
    // over every case instead of landing on one.
    for (const c of cases) await runCase(c, 0, true);
    const rounds = Math.max(...cases.map((c) => c.reps));
    for (let r = 0; r < rounds; r++) {
      for (const c of cases) if (c.samples.length < c.reps) await runCase(c, r, false);
      if (r % 20 === 0) log(`round ${r + 1}/${rounds}`);
    }

    async function runCase(c, i, warm) {
      if (c.kind === 'read') {
        const msg = rangeRequest(c.req);
        const t0 = process.hrtime.bigint();
        const resp = await kv.call('Range', msg);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        c.figures ??= rangeFigures(resp);
        if (!warm) c.samples.push(ms);
        return;
      }
      const [method, msg, key, value] = c.make(warm ? -1 - i : i);
      c.figures ??= { kvs: 1, count: 0, bytes: key.length + value.length };
      const t0 = process.hrtime.bigint();
      const resp = await kv.call(method, msg);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (c.name.startsWith('txn update')) {
        const m = decode(resp);
        if (m[2]?.[0] !== 1) throw new Error('txn update did not succeed');
        updatedRev = headerRevision(resp);
      }
      if (!warm) c.samples.push(ms);
    }

    const points = cases.map((c) => ({
      name: c.name,
      kind: c.kind,
      count: c.figures.count,
      kvs: c.figures.kvs,
      bytes: c.figures.bytes,
      samplesMs: c.samples,
    }));
    print(
      analyse(points, {
        date: new Date().toISOString(),
        etcdVersion: etcd.version,
        machine: `${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length}, ${os.platform()} ${os.release()}, node ${process.version}`,
      }),
    );
  } finally {
    kv.close();
    await etcd.stop();
    log(`etcd (pid ${etcd.pid}) stopped`);
  }
}

const round = (x) => Math.round(x * 1e4) / 1e4;

/**
 * Fits the model to measured points ({name, kind: 'read' | 'write', count, kvs, bytes,
 * samplesMs}) and returns the figures, the fit's quality and every point with its fitted time.
 */
function analyse(measured, about) {
  const points = measured.map((m) => ({
    ...m,
    median: quantile(m.samplesMs, 0.5),
    stat: quantile(m.samplesMs, fitQuantile),
    x: {
      perRequestMs: 1,
      perWriteMs: m.kind === 'write' ? 1 : 0,
      perCountedKeyMs: m.count,
      perKeyMs: m.kvs,
      perByteMs: m.bytes,
    },
  }));
  const terms = ['perRequestMs', 'perWriteMs', 'perCountedKeyMs', 'perKeyMs', 'perByteMs'];
  const coef = fit(points, terms);
  const of = (kind) => points.filter((p) => p.kind === kind);
  return {
    ...about,
    fitQuantile,
    fit: coef,
    quality: {
      all: quality(points, coef),
      reads: quality(of('read'), coef),
      writes: quality(of('write'), coef),
    },
    points: points.map((p) => ({
      name: p.name,
      kind: p.kind,
      n: p.samplesMs.length,
      medianMs: round(p.median),
      p25Ms: round(quantile(p.samplesMs, 0.25)),
      p75Ms: round(quantile(p.samplesMs, 0.75)),
      fittedMs: round(p.fitted),
      count: p.count,
      kvs: p.kvs,
      bytes: p.bytes,
      ...(printRaw ? { samplesMs: p.samplesMs.map(round) } : {}),
    })),
  };
}

function print(r) {
  if (asJson) {
    process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    return;
  }
  const sci = (x) => (x === 0 ? '0' : x.toExponential(3));
  const lines = [
    `etcd ${r.etcdVersion} on loopback, ${r.date}, ${r.machine}`,
    '',
    `fit over every point's ${r.fitQuantile} quantile (weighted least squares on relative error), ms:`,
    ...Object.entries(r.fit).map(([k, v]) => `  ${k.padEnd(16)} ${sci(v)}`),
    ...Object.entries(r.quality).map(
      ([k, q]) =>
        `  ${k.padEnd(7)} R² ${q.r2.toFixed(4)}, relative error median ${(100 * q.medianRelativeError).toFixed(1)}%, worst ${(100 * q.worstRelativeError).toFixed(1)}%`,
    ),
    '',
    'points (ms): name, n, median [p25..p75], fitted, count (keys in range), kvs, bytes',
  ];
  for (const p of r.points) {
    lines.push(
      `  ${p.name.padEnd(34)} ${String(p.n).padStart(4)} ${p.medianMs.toFixed(3).padStart(9)} [${p.p25Ms.toFixed(3)}..${p.p75Ms.toFixed(3)}] ${p.fittedMs.toFixed(3).padStart(9)} ${String(p.count).padStart(7)} ${String(p.kvs).padStart(6)} ${String(p.bytes).padStart(9)}`,
    );
    if (p.samplesMs) lines.push(`    ${p.samplesMs.join(' ')}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

/**
 * --refit FILE…: the fit of points recorded earlier with --json --raw, without an etcd; the
 * samples of points of the same name in several files are pooled.
 */
function refit(files) {
  const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const pooled = new Map();
  for (const run of runs) {
    for (const p of run.points) {
      const seen = pooled.get(p.name);
      if (seen) seen.samplesMs = [...seen.samplesMs, ...p.samplesMs];
      else pooled.set(p.name, { ...p, samplesMs: [...p.samplesMs] });
    }
  }
  const { etcdVersion, machine } = runs[0];
  const date = runs.map((r) => r.date).join(', ');
  print(analyse([...pooled.values()], { date, etcdVersion, machine }));
}

const refitAt = args.indexOf('--refit');
const refitFiles = [];
for (let i = refitAt + 1; refitAt >= 0 && i < args.length && !args[i].startsWith('--'); i++)
  refitFiles.push(args[i]);
(refitAt >= 0 ? Promise.resolve().then(() => refit(refitFiles)) : main()).catch((e) => {
  log(e.stack ?? String(e));
  process.exitCode = 1;
});
