// Tests for src/etcd-client/grpc-watch.ts against a real etcd (3.4 on loopback): events with
// prevKv and filters, progress (requested and periodic), the compaction cancel, cancel(), and the
// resume after the member is killed and restarted (no event lost or repeated; a resume from a
// compacted revision gets the compacted cancel).
import * as assert from 'assert';
import { mkdtemp, rm } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { spawnEtcd, type SpawnedEtcd } from '../../src/etcd-client/etcd-process';
import { prefixEnd, type Watch, type WatchResponse } from '../../src/engine/etcd/kv';

async function put(etcd: GrpcEtcd, key: string, value: string): Promise<number> {
  return (await etcd.txn({ success: [{ requestPut: { key, value } }] })).header.revision;
}

/** Collects a watch's responses; `until` resolves once `pred` holds for what arrived. */
function collect(w: Watch): {
  got: WatchResponse[];
  until(pred: (got: WatchResponse[]) => boolean): Promise<void>;
} {
  const got: WatchResponse[] = [];
  let check: (() => void) | undefined;
  w.onResponse((r) => {
    got.push(r);
    check?.();
  });
  return {
    got,
    until: (pred) =>
      new Promise((resolve) => {
        check = () => {
          if (pred(got)) {
            check = undefined;
            resolve();
          }
        };
        check();
      }),
  };
}

const events = (got: WatchResponse[]) => got.flatMap((r) => r.events);
const portOf = (url: string) => Number(new URL(url).port);

describe('GrpcEtcd watch against etcd 3.4', function () {
  let server: SpawnedEtcd;
  let etcd: GrpcEtcd;

  before(async () => {
    server = await spawnEtcd();
    etcd = await GrpcEtcd.connect({ endpoints: server.clientURLs });
  });

  after(async () => {
    etcd?.close();
    await server?.stop();
  });

  it('replays from a start revision: PUT with prevKv, DELETE with an empty kv', async () => {
    const k = '/w/replay/a';
    const r1 = await put(etcd, k, 'one');
    const r2 = await put(etcd, k, 'two');
    const r3 = (await etcd.deleteRange({ key: k })).header.revision;
    const w = etcd.watch({
      key: '/w/replay/',
      rangeEnd: '/w/replay0',
      startRevision: r1,
      prevKv: true,
    });
    const c = collect(w);
    await c.until((g) => events(g).length === 3);
    w.cancel();
    assert.deepStrictEqual(events(c.got), [
      {
        type: 'PUT',
        kv: { key: k, value: 'one', createRevision: r1, modRevision: r1, version: 1 },
      },
      {
        type: 'PUT',
        kv: { key: k, value: 'two', createRevision: r1, modRevision: r2, version: 2 },
        prevKv: { key: k, value: 'one', createRevision: r1, modRevision: r1, version: 1 },
      },
      {
        type: 'DELETE',
        kv: { key: k, value: '', createRevision: 0, modRevision: r3, version: 0 },
        prevKv: { key: k, value: 'two', createRevision: r1, modRevision: r2, version: 2 },
      },
    ]);
    assert.ok(c.got.every((r) => !r.canceled && !r.progressNotify));
  });

  it('from now: only later writes, one response per revision with its header', async () => {
    await put(etcd, '/w/now/before', 'x');
    const w = etcd.watch({ key: '/w/now/', rangeEnd: prefixEnd('/w/now/') });
    const c = collect(w);
    // A progress request is answered after the create: the watch exists from here on.
    w.requestProgress();
    await c.until((g) => g.some((r) => r.progressNotify));
    const r1 = await put(etcd, '/w/now/a', '1');
    const r2 = await put(etcd, '/w/now/b', '2');
    await c.until((g) => events(g).length === 2);
    w.cancel();
    assert.deepStrictEqual(
      c.got
        .filter((r) => !r.progressNotify)
        .map((r) => [r.header.revision, r.events.map((e) => e.kv.key)]),
      [
        [r1, ['/w/now/a']],
        [r2, ['/w/now/b']],
      ],
    );
  });

  const filterCases: { filters: ('noPut' | 'noDelete')[]; want: string[] }[] = [
    { filters: [], want: ['PUT k', 'DELETE k', 'PUT m', 'DELETE m'] },
    { filters: ['noPut'], want: ['DELETE k', 'DELETE m'] },
    { filters: ['noDelete'], want: ['PUT k', 'PUT m'] },
  ];
  for (const f of filterCases) {
    it(`filters [${f.filters.join(',')}]: ${f.want.join(', ')}`, async () => {
      const p = `/w/filter/${f.filters.join('-') || 'none'}/`;
      const start = await put(etcd, p + 'k', 'x');
      await etcd.deleteRange({ key: p + 'k' });
      // The marker key m, written and deleted last, bounds the wait: its last kept event ends it.
      await put(etcd, p + 'm', 'x');
      const last = (await etcd.deleteRange({ key: p + 'm' })).header.revision;
      const w = etcd.watch({
        key: p,
        rangeEnd: prefixEnd(p),
        startRevision: start,
        filters: f.filters,
      });
      const c = collect(w);
      const lastKept = f.filters.includes('noDelete') ? last - 1 : last;
      await c.until((g) => events(g).some((e) => e.kv.modRevision === lastKept));
      w.cancel();
      assert.deepStrictEqual(
        events(c.got).map((e) => `${e.type} ${e.kv.key.slice(p.length)}`),
        f.want,
      );
    });
  }

  it('requestProgress: a progress notification at the current revision', async () => {
    const rev = await put(etcd, '/w/progress/x', '1');
    const w = etcd.watch({ key: '/w/progress/', rangeEnd: '/w/progress0', startRevision: rev + 1 });
    const c = collect(w);
    w.requestProgress();
    await c.until((g) => g.length > 0);
    w.cancel();
    assert.deepStrictEqual(c.got[0], {
      header: { revision: etcd.currentRevision() },
      events: [],
      progressNotify: true,
    });
  });

  it('a compacted start revision: compactRevision and canceled, then the watch ends', async () => {
    const k = '/w/compacted';
    const first = await put(etcd, k, '1');
    const second = await put(etcd, k, '2');
    await etcd.compaction({ revision: second, physical: true });
    const w = etcd.watch({ key: k, startRevision: first });
    const got: WatchResponse[] = [];
    for await (const r of w) got.push(r);
    assert.deepStrictEqual(got, [
      { header: { revision: 0 }, events: [], compactRevision: second, canceled: true },
    ]);
    assert.strictEqual(w.canceled, true);
    assert.strictEqual(etcd.compactRevision(), second);
  });

  it('cancel(): the iterator ends and no later event is delivered', async () => {
    const w = etcd.watch({ key: '/w/cancel' });
    const it = w[Symbol.asyncIterator]();
    const next = it.next();
    w.cancel();
    assert.deepStrictEqual(await next, { value: undefined, done: true });
    await put(etcd, '/w/cancel', 'after');
    assert.deepStrictEqual(await it.next(), { value: undefined, done: true });
    assert.strictEqual(w.canceled, true);
  });

  it('records one watch call once created, and each progress request', async () => {
    const records: string[] = [];
    const remove = etcd.addRequestListener((r) => records.push(`${r.op}:${r.key}:${r.revision}`));
    const w = etcd.watch({ key: '/w/rec', startRevision: 2 });
    const c = collect(w);
    w.requestProgress();
    await c.until((g) => g.some((r) => r.progressNotify));
    w.cancel();
    remove();
    assert.deepStrictEqual(records.sort(), ['progressRequest::0', 'watch:/w/rec:2']);
  });
});

describe('GrpcEtcd watch: periodic progress notifications', function () {
  let server: SpawnedEtcd;
  let etcd: GrpcEtcd;

  before(async () => {
    server = await spawnEtcd({ args: ['--experimental-watch-progress-notify-interval=200ms'] });
    etcd = await GrpcEtcd.connect({ endpoints: server.clientURLs });
  });

  after(async () => {
    etcd?.close();
    await server?.stop();
  });

  it('progress_notify: header-only responses flagged progressNotify', async () => {
    const rev = await put(etcd, '/p/a', '1');
    const w = etcd.watch({ key: '/p/', rangeEnd: '/p0', progressNotify: true });
    const c = collect(w);
    await c.until((g) => g.filter((r) => r.progressNotify).length >= 2);
    w.cancel();
    for (const r of c.got) {
      assert.deepStrictEqual(r, { header: { revision: rev }, events: [], progressNotify: true });
    }
  });

  it('without progress_notify: none', async () => {
    const w = etcd.watch({ key: '/p/', rangeEnd: '/p0' });
    const c = collect(w);
    // A requested progress arrives; the periodic ones (every 200 ms) must not come before a second.
    await new Promise((r) => setTimeout(r, 700));
    w.requestProgress();
    await c.until((g) => g.length > 0);
    w.cancel();
    assert.strictEqual(c.got.length, 1);
  });
});

describe('GrpcEtcd watch: resume after the member is killed and restarted', function () {
  let dataDir: string;
  let server: SpawnedEtcd | undefined;
  let etcd: GrpcEtcd | undefined;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'listwatch-etcd-resume-'));
    server = await spawnEtcd({ dataDir });
    etcd = await GrpcEtcd.connect({ endpoints: server.clientURLs });
  });

  afterEach(async () => {
    etcd?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** SIGKILL, then the same member (data dir) on the same client port. */
  async function killAndRestart(between?: (port: number) => Promise<void>): Promise<void> {
    const s = server as SpawnedEtcd;
    const port = portOf(s.clientURLs[0]);
    process.kill(s.pid, 'SIGKILL');
    await s.stop();
    await between?.(port);
    server = await spawnEtcd({ dataDir, clientPort: port });
  }

  it('every event once, in order, across the restart', async () => {
    const e = etcd as GrpcEtcd;
    const start = await put(e, '/r/k0', '0');
    const w = e.watch({ key: '/r/', rangeEnd: '/r0', startRevision: start });
    const c = collect(w);
    for (let i = 1; i < 5; i++) await put(e, `/r/k${i}`, String(i));
    await c.until((g) => events(g).length === 5);
    await killAndRestart();
    for (let i = 5; i < 10; i++) await put(e, `/r/k${i}`, String(i));
    await c.until((g) => events(g).length === 10);
    w.cancel();
    assert.deepStrictEqual(
      events(c.got).map((ev) => ev.kv.key),
      Array.from({ length: 10 }, (_, i) => `/r/k${i}`),
    );
    const revs = events(c.got).map((ev) => ev.kv.modRevision);
    assert.deepStrictEqual(
      revs,
      Array.from({ length: 10 }, (_, i) => start + i),
    );
    assert.ok(c.got.every((r) => !r.canceled));
  });

  it('a watch from now resumes after its creation revision (no repeat, no loss)', async () => {
    const e = etcd as GrpcEtcd;
    await put(e, '/n/before', 'x');
    const w = e.watch({ key: '/n/', rangeEnd: '/n0' });
    const c = collect(w);
    w.requestProgress();
    await c.until((g) => g.some((r) => r.progressNotify));
    await killAndRestart();
    await put(e, '/n/after', 'y');
    await c.until((g) => events(g).length >= 1);
    w.cancel();
    assert.deepStrictEqual(
      events(c.got).map((ev) => ev.kv.key),
      ['/n/after'],
    );
  });

  it('a resume from a compacted revision gets the compacted cancel', async () => {
    const e = etcd as GrpcEtcd;
    const start = await put(e, '/c/a', '1');
    const w = e.watch({ key: '/c/', rangeEnd: '/c0', startRevision: start });
    const c = collect(w);
    await c.until((g) => events(g).length === 1);
    let compactedTo = 0;
    await killAndRestart(async () => {
      // Meanwhile the member runs on another port: writes and a compaction the watch misses.
      const other = await spawnEtcd({ dataDir });
      const o = await GrpcEtcd.connect({ endpoints: other.clientURLs });
      await put(o, '/c/b', '2');
      compactedTo = await put(o, '/c/c', '3');
      await o.compaction({ revision: compactedTo, physical: true });
      o.close();
      await other.stop();
    });
    await c.until((g) => g.some((r) => r.canceled));
    assert.deepStrictEqual(c.got.slice(1), [
      { header: { revision: 0 }, events: [], compactRevision: compactedTo, canceled: true },
    ]);
    assert.strictEqual(e.compactRevision(), compactedTo);
  });
});
