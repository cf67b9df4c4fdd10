// A live run's watchers against real kubectl: an ApiServer in this process recorded by the
// LiveRecorder (as the extension records one), with `get pods -w`, a reflector `wait --for=delete`
// and a WatchList `wait --for=delete` (watchListEnv) reading it. Read and Last RV in the run model,
// in its saved trace reloaded and in the Perfetto export are checked against what kubectl printed
// (get -w) and what the engine sent (the initial-events-end bookmark's RV); Next bookmark against
// the bucket the engine holds the watcher in. No upstream counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiServer } from '../../src/server/api-server';
import { LiveRecorder } from '../../src/server/live-recorder';
import { loadRun } from '../../src/run/load-run';
import type { RunModel, WatcherTrack } from '../../src/run/run-model';
import type { TraceRecord } from '../../src/run/trace/trace-format';
import { watcherFiguresAt } from '../../src/run/views/watcher-at-time';
import { perfettoTraceEvents, watchersPid } from '../../src/export/perfetto-trace';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import {
  requestsTo,
  startKubectl,
  listThenWatchEnv,
  watchListEnv,
  type Kubectl,
  type KubectlProcess,
} from './harness/kubectl';

/** The model of what the recorder kept, as "Save Run as Trace…" writes it and a reload reads it. */
async function savedModel(recorder: LiveRecorder): Promise<RunModel> {
  const { model } = await loadRun(recorder.traceLines(recorder.metricsRecord()));
  assert.strictEqual(model.rejected.count, 0, JSON.stringify(model.rejected));
  return model;
}

/** The one watcher of `client` whose selector is `selector`. */
function trackOf(model: RunModel, client: string, selector: string): WatcherTrack {
  const found = model.watchers.filter((w) => w.client === client && w.selector === selector);
  assert.strictEqual(
    found.length,
    1,
    `one watcher of ${client} with ${selector}: ${JSON.stringify(model.watchers.map((w) => [w.id, w.client, w.selector]))}`,
  );
  return found[0];
}

/**
 * Resolves once `cond` holds, polling on the real clock (the server runs on it); mocha's timeout
 * fails a wait that never ends, naming `what`.
 */
async function until(what: string, cond: () => boolean | Promise<boolean>): Promise<void> {
  waitingFor = what;
  for (;;) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
let waitingFor = '';

/** `name rv` lines get -w printed with -o jsonpath (the listed objects first, then what it watched). */
function printed(p: KubectlProcess): Array<{ name: string; rv: number }> {
  return p.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [name, rv] = l.trim().split(' ');
      return { name, rv: Number(rv) };
    });
}

/** The Perfetto export's figures of one watcher: its WATCH slice and its last read slice. */
function perfettoFigures(model: RunModel, track: WatcherTrack): unknown[] {
  const events = [...perfettoTraceEvents(model)];
  const watch = events.find(
    (e) => e.ph === 'X' && e.name === 'WATCH' && e.args?.watcher === track.id,
  );
  const thread = events.find(
    (e) =>
      e.ph === 'M' &&
      e.name === 'thread_name' &&
      e.pid === watchersPid &&
      (e.args as { name: string }).name.startsWith(`watcher ${track.id} `),
  );
  const reads = events.filter(
    (e) => e.ph === 'X' && e.pid === watchersPid && e.tid === thread?.tid && e.cat === 'delivery',
  );
  const last = reads.at(-1);
  return [
    watch?.ph === 'X' && watch.args?.received,
    watch?.ph === 'X' && watch.args?.lastRv,
    last?.ph === 'X' && last.args?.lastRv,
    // No read slice says the client had read nothing (a read of RV 0).
    reads.filter((e) => e.ph === 'X' && e.args?.lastRv === 0).length,
  ];
}

for (const k of suiteKubectls()) if (watchListEnv(k)) describeLiveWatchers(k);

function describeLiveWatchers(k: Kubectl): void {
  describe(`a live run's watchers read by kubectl ${k.gitVersion}`, function () {
    let server: ApiServer;
    let recorder: LiveRecorder;
    let dir: string;
    const records: TraceRecord[] = [];
    const background: KubectlProcess[] = [];
    const pods = '/api/v1/namespaces/default/pods';
    const start = (args: string[], env: Record<string, string> = {}): KubectlProcess => {
      const p = startKubectl(k, { kubeconfig: server.kubeconfigPath, dir }, args, env);
      background.push(p);
      return p;
    };
    const call = async (method: string, url: string, body?: unknown) => {
      const r = await fetch(`${server.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${text}`);
      return JSON.parse(text) as { metadata: { resourceVersion: string } };
    };
    const createPod = (name: string) =>
      call('POST', pods, {
        metadata: { name, labels: { app: 'lw' } },
        spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] },
      });

    before(async () => {
      server = await ApiServer.start({ port: 0, seed: { pods: 2 } });
      recorder = new LiveRecorder(server, { scrape: false });
      recorder.subscribe((r) => records.push(r));
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-live-watchers-'));
    });
    beforeEach(() => recordKubectlTest(k));
    afterEach(function () {
      if (this.currentTest?.state === 'failed') console.log(`      last wait: ${waitingFor}`);
    });
    after(async () => {
      for (const p of background.splice(0)) await p.kill();
      recorder?.dispose();
      await server?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('get -w, a reflector wait and a WatchList wait: Read and Last RV are what each client read, deletes included, in the model, the saved trace and Perfetto; Next bookmark after a re-queue', async () => {
      await createPod('lw-0');
      await createPod('lw-1');
      const getW = start([
        'get',
        'pods',
        '-w',
        '-l',
        'app=lw',
        '-o',
        'jsonpath={.metadata.name} {.metadata.resourceVersion}{"\\n"}',
      ]);
      await getW.until((p) => printed(p).length === 2, 'get -w printed the two pods it listed');
      const watched = (p: KubectlProcess) =>
        requestsTo(p.stderr, pods).some((s) => s.url.searchParams.get('watch') === 'true');
      const reflector = start(
        ['wait', '--for=delete', 'pod/lw-0', '--timeout=60s', '-v=6'],
        listThenWatchEnv(k),
      );
      await reflector.until(watched, 'the reflector watched');
      const watchList = start(
        ['wait', '--for=delete', 'pod/lw-1', '--timeout=60s', '-v=6'],
        watchListEnv(k),
      );
      await watchList.until(watched, 'the WatchList stream answered');
      const client = records.find(
        (r) => r.kind === 'input' && r.action === 'watch' && r.client.startsWith('kubectl'),
      );
      assert.ok(client?.kind === 'input' && client.action === 'watch');
      const ua = client.client;

      // The initial-events-end bookmark the engine sent to the WatchList watcher, and its read.
      const watchListTrack = async () =>
        trackOf(await savedModel(recorder), ua, 'metadata.name=lw-1');
      const endBookmark = (id: string) =>
        records.find(
          (r) =>
            r.kind === 'event' &&
            r.event.type === 'watcher/bookmark' &&
            String(r.event.watcherId) === id &&
            r.event.initialEventsEnd === true,
        );
      await until('the WatchList watcher read its initial events', async () => {
        const t = await watchListTrack();
        return endBookmark(t.id) !== undefined && t.eventsReceived >= 2;
      });
      const synced = await savedModel(recorder);
      const wl = trackOf(synced, ua, 'metadata.name=lw-1');
      const bookmark = endBookmark(wl.id);
      assert.ok(bookmark?.kind === 'event' && bookmark.event.type === 'watcher/bookmark');
      const atSync = watcherFiguresAt(wl, synced.durationMs, synced.durationMs);
      assert.ok(
        (atSync.received ?? 0) >= 2,
        `WatchList wait: Read ${atSync.received} (ADDED, then the bookmark)`,
      );
      assert.strictEqual(
        atSync.lastRv,
        bookmark.event.resourceVersion,
        "WatchList wait: Last RV is the bookmark's",
      );

      // Next bookmark: the WatchList watcher sat in the start bucket until the next bookmark tick
      // popped it, then was re-queued for its heartbeat; the figure names the bucket the engine
      // holds it in.
      const bucketSecond = (id: string): number | undefined => {
        const b = server.resources.all.find((r) => r.resource === 'pods')?.engine.cacher
          .bookmarkWatchers;
        for (const [bucketId, ws] of b?.watchersBuckets ?? [])
          if (ws.some((w) => String(w.id) === id))
            return (b!.createTime + bucketId * 1000 - server.startedAt) / 1000;
        return undefined;
      };
      let requeued: { model: RunModel; second: number } | undefined;
      await until('the WatchList watcher was popped and re-queued', async () => {
        const model = await savedModel(recorder);
        const log = trackOf(model, ua, 'metadata.name=lw-1').log.map((e) => e.kind);
        const second = bucketSecond(wl.id);
        const popped = log.indexOf('bookmark-popped');
        if (popped < 0 || !log.slice(popped).includes('bookmark-scheduled') || !second)
          return false;
        requeued = { model, second };
        return true;
      });
      const { model: afterTick, second } = requeued!;
      assert.strictEqual(
        watcherFiguresAt(
          trackOf(afterTick, ua, 'metadata.name=lw-1'),
          afterTick.durationMs,
          afterTick.durationMs,
        ).nextBookmarkSecond,
        second,
        'WatchList wait: Next bookmark after the re-queue',
      );

      await call('DELETE', `${pods}/lw-0`);
      await call('DELETE', `${pods}/lw-1`);
      for (const w of [reflector, watchList]) {
        const r = await w.exited;
        assert.strictEqual(r.code, 0, r.stderr);
      }
      // get -w printed each pod's deletion: the RV each waiter read last.
      await getW.until(
        (p) =>
          printed(p).length >= 4 &&
          ['lw-0', 'lw-1'].every((n) => printed(p).filter((l) => l.name === n).length >= 2),
        'get -w printed both deletions',
      );
      await until(
        'the reflector and the WatchList watch closed',
        () => records.filter((r) => r.kind === 'input' && r.action === 'watch-closed').length >= 2,
      );
      await getW.kill();
      await until(
        'get -w closed',
        () => records.filter((r) => r.kind === 'input' && r.action === 'watch-closed').length >= 3,
      );
      const lines = printed(getW);
      const lastOf = (name: string) => lines.filter((l) => l.name === name).at(-1)?.rv;
      const truth = [
        // get -w read every line after the two it listed.
        {
          selector: 'app=lw',
          read: lines.length - 2,
          minRead: lines.length - 2,
          lastRv: lines.at(-1)?.rv,
        },
        { selector: 'metadata.name=lw-0', minRead: 1, lastRv: lastOf('lw-0') },
        // ADDED, the bookmark, then its deletion.
        { selector: 'metadata.name=lw-1', minRead: 3, lastRv: lastOf('lw-1') },
      ];
      const model = await savedModel(recorder);
      for (const t of truth) {
        const track = trackOf(model, ua, t.selector);
        const end = watcherFiguresAt(track, model.durationMs, model.durationMs);
        assert.ok(
          (end.received ?? 0) >= t.minRead,
          `${t.selector}: Read ${end.received} ≥ ${t.minRead}`,
        );
        if (t.read !== undefined) assert.strictEqual(end.received, t.read, `${t.selector}: Read`);
        assert.strictEqual(end.lastRv, t.lastRv, `${t.selector}: Last RV at the end`);
        assert.deepStrictEqual(
          [track.eventsReceived, track.lastRvSent],
          [end.received, t.lastRv],
          `${t.selector}: the track's figures (the saved trace's)`,
        );
        assert.deepStrictEqual(
          perfettoFigures(model, track),
          [end.received, t.lastRv, t.lastRv, 0],
          `${t.selector}: Perfetto's WATCH slice, last read, reads of nothing`,
        );
      }
    });
  });
}
