// Diagnostic beside bench/server-memory.ts (not a benchmark: bench/main.ts does not run it): what
// an idle HTTP watch holds, by constructor. Heap snapshots before and after the N responses
// server-memory measures (heldHeapPerResponse), diffed by constructor name (count and self size
// per watch), for listwatch serve and for the bare Node server, each in a process of its own.
// Needs --expose-gc.
//   node esbuild.js --only bench/server-memory-snapshot.ts
//   node --expose-gc out/bench/server-memory-snapshot.js [ours|bare] [watchers] [rows]
import { spawnSync } from 'child_process';
import { readFileSync, rmSync, mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { writeHeapSnapshot } from 'v8';
import { ApiServer } from '../src/server/api-server';
import { BareHttpServer, HttpClients } from './http-clients-driver';
import { heldHeapPerResponse } from './server-memory';

interface HeapSnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** Count and self size by constructor (objects, closures) or by node type (strings, arrays...). */
function byConstructor(file: string): Map<string, { count: number; size: number }> {
  const s = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshotFile;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + typeAt]];
    const name = s.strings[s.nodes[i + nameAt]];
    const key =
      type === 'object' || type === 'closure'
        ? `${name}${type === 'closure' ? '()' : ''}`
        : type === 'hidden' ||
            type === 'array' ||
            type === 'native' ||
            type === 'synthetic' ||
            type === 'code'
          ? `(${type}) ${name.slice(0, 40)}`
          : `(${type})`;
    const e = out.get(key) ?? { count: 0, size: 0 };
    e.count++;
    e.size += s.nodes[i + sizeAt];
    out.set(key, e);
  }
  return out;
}

/** heldHeapPerResponse of `which`, with a snapshot before and after the measured responses. */
async function snapshots(which: 'ours' | 'bare', n: number, dir: string): Promise<void> {
  const clients = new HttpClients();
  const mark = (at: 'before' | 'after'): void => {
    writeHeapSnapshot(path.join(dir, at === 'before' ? 'a.heapsnapshot' : 'b.heapsnapshot'));
  };
  try {
    if (which === 'ours') {
      const api = await ApiServer.start();
      const pods = api.resources.find('', 'v1', 'pods');
      if (!pods) throw new Error('no pods resource');
      const res = await fetch(new URL('/api/v1/namespaces/default/pods?limit=1', api.url), {
        headers: { Authorization: `Bearer ${api.token}` },
      });
      const rv = ((await res.json()) as { metadata: { resourceVersion: string } }).metadata
        .resourceVersion;
      const p = `/api/v1/namespaces/default/pods?watch=true&resourceVersion=${rv}`;
      const watchers = (): number => pods.engine.cacher.watcherCount();
      await heldHeapPerResponse(clients, api.url, p, api.token, watchers, n, mark);
      await api.stop();
    } else {
      const bare = new BareHttpServer();
      await bare.start();
      const held = (): number => bare.watchers.size;
      await heldHeapPerResponse(clients, bare.url, '/watch', undefined, held, n, mark);
      await bare.stop();
    }
  } finally {
    clients.stop();
  }
}

async function main(): Promise<void> {
  const [whichArg, nArg, rowsArg] = process.argv.slice(2);
  const n = nArg ? Number(nArg) : 500;
  const rows = rowsArg ? Number(rowsArg) : 40;
  if (whichArg === '--child-ours' || whichArg === '--child-bare') {
    await snapshots(whichArg === '--child-ours' ? 'ours' : 'bare', n, rowsArg);
    return;
  }
  for (const which of whichArg ? [whichArg] : ['ours', 'bare']) {
    const dir = mkdtempSync(path.join(tmpdir(), 'heap-'));
    try {
      const r = spawnSync(
        process.execPath,
        ['--expose-gc', __filename, `--child-${which}`, String(n), dir],
        { stdio: 'inherit' },
      );
      if (r.status !== 0) throw new Error(`${which}: exit ${r.status}`);
      const a = byConstructor(path.join(dir, 'a.heapsnapshot'));
      const b = byConstructor(path.join(dir, 'b.heapsnapshot'));
      const diff = [...b].map(([key, e]) => {
        const before = a.get(key) ?? { count: 0, size: 0 };
        return { key, count: (e.count - before.count) / n, size: (e.size - before.size) / n };
      });
      diff.sort((x, y) => y.size - x.size);
      const total = diff.reduce((t, d) => t + d.size, 0);
      console.log(`${which}: ${n} idle watches, ${total.toFixed(0)} B self size per watch`);
      for (const d of diff.slice(0, rows))
        console.log(
          `  ${d.size.toFixed(0).padStart(6)} B  ${d.count.toFixed(2).padStart(6)}  ${d.key}`,
        );
    } finally {
      if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
      else console.log(dir);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
