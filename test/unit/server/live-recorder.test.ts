// Tests for src/server/live-recorder.ts and src/run/live-run.ts: a real ApiServer spoken to over
// HTTP, its LISTs, WATCHes, writes and faults recorded as trace inputs with the client's
// User-Agent and connection, the engine events folded into them by request id, and the live
// model equal to the model of its saved trace reloaded.
import * as assert from 'assert';
import { EventEmitter } from 'node:events';
import {
  Agent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { ObservedRequest, ServerObserver } from '../../../src/server/api-server';
import { ApiServer } from '../../../src/server/api-server';
import {
  LiveRecorder,
  relativeEvent,
  type RecordedServer,
} from '../../../src/server/live-recorder';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { summarizeRecordedRun } from '../../../src/run/recorded-run-summary';
import { LiveRun } from '../../../src/run/live-run';
import { loadRun } from '../../../src/run/load-run';
import type { TraceInputRecord, TraceRecord } from '../../../src/run/trace/trace-format';
import type { EngineEvent } from '../../../src/engine/inspect/events';
import { watcherFiguresAt } from '../../../src/run/views/watcher-at-time';
import { perfettoTraceEvents, watchersPid } from '../../../src/export/perfetto-trace';
import { call as callServer, type Reply } from './http-client';

/** One request (http-client.ts) as a client with its own User-Agent. */
const call = (
  server: ApiServer,
  method: string,
  path: string,
  o: { userAgent?: string; body?: unknown; agent?: Agent; headers?: Record<string, string> } = {},
): Promise<Reply> =>
  callServer(server, method, path, o.body, undefined, {
    agent: o.agent,
    headers: { 'user-agent': o.userAgent ?? 'recorder-test/v1', ...o.headers },
  });

/** A watch whose response stays open until `close`; resolves once its headers are in. */
function openWatch(
  server: ApiServer,
  path: string,
  userAgent: string,
): Promise<{ res: IncomingMessage; lines: string[]; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      { headers: { authorization: `Bearer ${server.token}`, 'user-agent': userAgent } },
      (res) => {
        const lines: string[] = [];
        let buf = '';
        res.on('data', (c: Buffer) => {
          buf += c.toString('utf8');
          let i = buf.indexOf('\n');
          while (i >= 0) {
            lines.push(buf.slice(0, i));
            buf = buf.slice(i + 1);
            i = buf.indexOf('\n');
          }
        });
        res.on('error', () => undefined);
        resolve({ res, lines, close: () => req.destroy() });
      },
    );
    req.on('error', () => undefined);
    req.on('error', reject);
    req.end();
  });
}

/** Waits (on the real clock: the server runs on it) until `cond` holds; fails after `tries`. */
async function until(what: string, cond: () => boolean, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}

function inputs(records: TraceRecord[], action: string): TraceInputRecord[] {
  return records.filter((r): r is TraceInputRecord => r.kind === 'input' && r.action === action);
}

describe('LiveRecorder (a running ApiServer as trace records)', () => {
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0, seed: { pods: 5 } });
  });
  after(async () => {
    await server.stop();
  });

  it('records LISTs with their client, connection, pages and answer; the model folds them by request id', async () => {
    const recorder = new LiveRecorder(server, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    let badStatus = { code: 0, reason: '', message: '' };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await call(server, 'GET', '/api/v1/namespaces/default/pods?limit=2', {
        userAgent: 'kubectl/v1.33.1 (linux/amd64)',
        agent,
      });
      assert.strictEqual(first.status, 200);
      const token = (JSON.parse(first.text) as { metadata: { continue: string } }).metadata
        .continue;
      const second = await call(
        server,
        'GET',
        `/api/v1/namespaces/default/pods?limit=2&continue=${encodeURIComponent(token)}`,
        { userAgent: 'kubectl/v1.33.1 (linux/amd64)', agent },
      );
      assert.strictEqual(second.status, 200);
      const bad = await call(
        server,
        'GET',
        '/api/v1/namespaces/default/pods?resourceVersionMatch=Exact',
        { userAgent: 'other/v2' },
      );
      const { code, reason, message } = JSON.parse(bad.text) as typeof badStatus;
      badStatus = { code, reason, message };
      assert.ok(bad.status >= 400, bad.text);
      await until('three list-ends', () => inputs(records, 'list-end').length === 3);
    } finally {
      agent.destroy();
      recorder.dispose();
    }
    const lists = inputs(records, 'list');
    assert.deepStrictEqual(
      lists.map((l) => l.action === 'list' && [l.client, l.connection, l.request]),
      [
        ['kubectl/v1.33.1 (linux/amd64)', 'c1', '/api/v1/namespaces/default/pods?limit=2'],
        ['kubectl/v1.33.1 (linux/amd64)', 'c1', lists[1].action === 'list' ? lists[1].request : ''],
        ['other/v2', 'c2', '/api/v1/namespaces/default/pods?resourceVersionMatch=Exact'],
      ],
      'one connection id per kept-alive connection',
    );
    const ends = inputs(records, 'list-end');
    assert.deepStrictEqual(
      ends.map((e) => e.action === 'list-end' && [e.status, e.items, e.continue !== '']),
      [
        [200, 2, true],
        [200, 2, true],
        [badStatus.code, 0, false],
      ],
    );
    const badEnd = ends[2];
    assert.ok(badEnd.action === 'list-end');
    assert.deepStrictEqual(badEnd.error, badStatus, 'the Status the client read');
    // The engine's events carry the requests' ids: the model ties pages and rules to each LIST.
    const b = new RunModelBuilder(recorder.header);
    for (const r of records) b.add(r);
    const m = b.finish();
    assert.deepStrictEqual(
      m.lists.map((l) => [l.client, l.returned, l.servedBy, l.requestId > 0]),
      [
        ['kubectl/v1.33.1 (linux/amd64)', 2, 'cache', true],
        ['kubectl/v1.33.1 (linux/amd64)', 2, 'cache', true],
        ['other/v2', 0, 'error', true],
      ],
    );
    assert.ok(m.lists[0].rule !== '', "the delegator's rule folded into the first LIST");
    assert.ok(m.lists.every((l) => l.at >= 0 && (l.endedAt ?? 0) >= l.at));
  });

  it("records each LIST's Kubectl-Session: three kubectl processes one after another, one LIST each, are three clients", async () => {
    const recorder = new LiveRecorder(server, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    const ua = 'kubectl.1.32/v1.32.5 (linux/amd64) kubernetes/9894294';
    try {
      // As `kubectl get pods` three times: a new connection and a new session each time.
      for (const session of ['1d0c-a', '1d0c-b', '1d0c-c']) {
        const agent = new Agent({ keepAlive: false });
        const r = await call(server, 'GET', '/api/v1/namespaces/default/pods?limit=500', {
          userAgent: ua,
          agent,
          headers: { 'kubectl-command': 'kubectl get', 'kubectl-session': session },
        });
        assert.strictEqual(r.status, 200);
        agent.destroy();
      }
      await until('three list-ends', () => inputs(records, 'list-end').length === 3);
    } finally {
      recorder.dispose();
    }
    assert.deepStrictEqual(
      inputs(records, 'list').map((l) => l.action === 'list' && l.session),
      ['1d0c-a', '1d0c-b', '1d0c-c'],
    );
    const b = new RunModelBuilder(recorder.header);
    for (const r of records) b.add(r);
    assert.deepStrictEqual(
      (b.finish().clients ?? []).map((c) => [c.connection, c.requests.length, c.grouping]),
      [
        ['c1', 1, undefined],
        ['c2', 1, undefined],
        ['c3', 1, undefined],
      ],
    );
  });

  it('records LISTs and WATCHes an http-error fault answered, as their clients read them (and the debug state counts them)', async () => {
    const recorder = new LiveRecorder(server, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    const cases: Array<{
      code: number;
      verb: 'list' | 'watch';
      path: string;
      userAgent: string;
      reason: string;
      message: string;
    }> = [
      {
        code: 429,
        verb: 'list',
        path: '/api/v1/namespaces/default/pods?limit=2',
        userAgent: 'throttled/v1',
        reason: 'TooManyRequests',
        message: 'Too many requests, please try again later.',
      },
      {
        code: 504,
        verb: 'list',
        path: '/api/v1/namespaces/default/pods?limit=2',
        userAgent: 'timed-out/v1',
        reason: 'Timeout',
        message: 'Timeout: request did not complete within the allotted timeout',
      },
      {
        code: 500,
        verb: 'watch',
        path: '/api/v1/namespaces/default/pods?watch=true',
        userAgent: 'refused-watch/v1',
        reason: 'InternalError',
        message: 'Internal error occurred: injected by listwatch fault http-error',
      },
    ];
    const listsBefore = new Map(
      server.debugState.view().clients.map((c) => [c.userAgent, c.lists + c.watches]),
    );
    try {
      for (const c of cases) {
        const injected = await server.injectFault('http-error', {
          code: c.code,
          match: { verb: c.verb, resource: 'pods', userAgent: c.userAgent },
          trigger: { count: 1 },
        });
        assert.strictEqual(injected.status, 200, JSON.stringify(injected));
        const answer = await call(server, 'GET', c.path, { userAgent: c.userAgent });
        assert.strictEqual(answer.status, c.code, `${c.userAgent}: ${answer.text}`);
      }
      await until(
        'two list-ends and a watch-closed',
        () =>
          inputs(records, 'list-end').length === 2 && inputs(records, 'watch-closed').length === 1,
      );
    } finally {
      recorder.dispose();
    }
    const b = new RunModelBuilder(recorder.header);
    for (const r of records) b.add(r);
    const m = b.finish();
    assert.deepStrictEqual(
      m.lists.map((l) => [l.client, l.servedBy, l.error?.code, l.error?.reason, l.error?.message]),
      cases
        .filter((c) => c.verb === 'list')
        .map((c) => [c.userAgent, 'error', c.code, c.reason, c.message]),
      'each LIST the fault answered is in the run, failed with what its client read',
    );
    assert.deepStrictEqual(
      (m.watchRequests ?? []).map((q) => [q.client, q.outcome, q.error?.code]),
      [['refused-watch/v1', 'error', 500]],
    );
    const counted = new Map(
      server.debugState.view().clients.map((c) => [c.userAgent, c.lists + c.watches]),
    );
    for (const c of cases)
      assert.strictEqual(
        (counted.get(c.userAgent) ?? 0) - (listsBefore.get(c.userAgent) ?? 0),
        1,
        `the debug state counts ${c.userAgent}'s ${c.verb}`,
      );
  });

  it('records WATCHes: opened with their watcher, refused with their Status, closed with the reason', async () => {
    const recorder = new LiveRecorder(server, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    try {
      const w = await openWatch(
        server,
        '/api/v1/namespaces/default/pods?watch=true&allowWatchBookmarks=true',
        'relisty-operator/v0.3.1',
      );
      await until('watch-opened', () => inputs(records, 'watch-opened').length === 1);
      const created = await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'recorded' }, data: { a: 'b' } },
      });
      assert.strictEqual(created.status, 201);
      await until('the write', () => inputs(records, 'writes').length === 1);
      // 410 for a watch from before the history: a 200 stream with one ERROR event.
      await server.injectFault('expire-history', { resource: 'configmaps' });
      const old = await call(
        server,
        'GET',
        '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1',
        {
          userAgent: 'old-watcher/v1',
        },
      );
      assert.match(old.text, /"type":"ERROR"/);
      w.close();
      await until('two watch-closed', () => inputs(records, 'watch-closed').length === 2);
    } finally {
      recorder.dispose();
    }
    const opened = inputs(records, 'watch-opened');
    assert.strictEqual(opened.length, 2);
    assert.ok(opened[0].action === 'watch-opened' && typeof opened[0].watcherId === 'number');
    const refused = opened[1];
    assert.ok(
      refused.action === 'watch-opened' &&
        refused.error?.code === 410 &&
        refused.error.reason === 'Expired' &&
        refused.inStream === true,
      JSON.stringify(refused),
    );
    const closed = inputs(records, 'watch-closed');
    assert.deepStrictEqual(
      closed.map((c) => c.action === 'watch-closed' && [c.client, c.reason]),
      [
        ['old-watcher/v1', 'resultClosed'],
        ['relisty-operator/v0.3.1', 'disconnected'],
      ],
    );
    const writes = inputs(records, 'writes')[0];
    assert.ok(
      writes.action === 'writes' &&
        writes.verb === 'create' &&
        writes.count === 1 &&
        writes.keyPrefix === '/registry/configmaps/default/' &&
        writes.revision > 0,
      JSON.stringify(writes),
    );
    const fault = inputs(records, 'fault')[0];
    assert.ok(
      fault.action === 'fault' &&
        fault.name === 'expire-history' &&
        fault.text === 'history dropped: configmaps',
      JSON.stringify(fault),
    );
    const b = new RunModelBuilder(recorder.header);
    for (const r of records) b.add(r);
    const m = b.finish();
    assert.strictEqual(m.watchers.length, 1);
    assert.strictEqual(m.watchers[0].client, 'relisty-operator/v0.3.1');
    assert.strictEqual(m.watchers[0].closeReason, 'client went away');
    assert.deepStrictEqual(
      (m.watchRequests ?? []).map((q) => [q.client, q.outcome]),
      [
        ['relisty-operator/v0.3.1', 'started'],
        ['old-watcher/v1', 'error'],
      ],
    );
    // The 410 came in a 200 stream: the report says so, not that the request was answered 410.
    assert.match(
      summarizeRecordedRun(m).story.join('\n'),
      /2 WATCH requests: .*; refused with 410 as an ERROR event in a 200 stream ×1\./,
    );
    assert.deepStrictEqual(
      m.faults?.map((f) => f.name),
      ['expire-history'],
    );
  });

  it("a live run's model after its requests equals the model of its saved trace reloaded", async () => {
    const recorder = new LiveRecorder(server);
    let pending: (() => void) | undefined;
    const run = new LiveRun(recorder, {
      schedule: (fn) => {
        pending = fn;
        return () => (pending = undefined);
      },
    });
    const updates: number[] = [];
    run.onUpdate((m) => updates.push(m.lists.length));
    try {
      const w = await openWatch(
        server,
        '/api/v1/namespaces/default/pods?watch=true',
        'kubectl/v1.33.1',
      );
      for (let i = 0; i < 3; i++) {
        await call(server, 'GET', `/api/v1/namespaces/default/pods?limit=${i + 1}`);
        await call(server, 'POST', '/api/v1/namespaces/default/pods', {
          body: {
            metadata: { name: `live-${i}` },
            spec: { containers: [{ name: 'c', image: 'i' }] },
          },
        });
      }
      await until('the watch to read 3 events', () => w.lines.length >= 3);
      assert.ok(pending, 'a batch is pending once records arrived');
      pending();
      assert.deepStrictEqual(updates, [3], 'one coalesced batch');
      pending?.();
      assert.deepStrictEqual(updates, [3], 'no batch when nothing changed');
      w.close();
      await until('watch-closed', () => run.records > 0 && pending !== undefined);
      const lines = run.save();
      const live = run.model();
      const { model: reloaded } = await loadRun(lines);
      assert.strictEqual(reloaded.rejected.count, 0, JSON.stringify(reloaded.rejected));
      assert.deepStrictEqual(reloaded, live);
      assert.strictEqual(live.lists.length, 3);
      assert.strictEqual(live.writes?.byVerb.create, 3);
      assert.strictEqual(live.watchers.length, 1);
      assert.strictEqual(live.watchers[0].client, 'kubectl/v1.33.1');
    } finally {
      run.dispose();
      recorder.dispose();
    }
  });

  it('watches of several resources, and after a cacher restart, are each their own watcher; a watch etcd serves opens when it opens', async () => {
    // Each cacher numbers its watchers from 0 (upstream's watcherIdx): a live run of a client
    // that watches pods and configmaps had one watcher where there were two.
    const table: Array<{ name: string; path: string; userAgent: string; restartFirst?: string }> = [
      {
        name: 'pods',
        path: '/api/v1/namespaces/default/pods?watch=true',
        userAgent: 'ids-pods/v1',
      },
      {
        name: 'configmaps',
        path: '/api/v1/namespaces/default/configmaps?watch=true',
        userAgent: 'ids-configmaps/v1',
      },
      {
        name: 'configmaps after its cacher restarted',
        path: '/api/v1/namespaces/default/configmaps?watch=true',
        userAgent: 'ids-configmaps-restarted/v1',
        restartFirst: 'configmaps',
      },
    ];
    const recorder = new LiveRecorder(server, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    const open: Array<{ close(): void }> = [];
    let eventsWatch: { close(): void } | undefined;
    try {
      for (const c of table) {
        if (c.restartFirst) {
          await server.injectFault('restart', { resource: c.restartFirst });
          await until('the cacher ready again', () =>
            server.resources.all.every(
              (r) => !r.engine.watchCacheEnabled || r.engine.cacher.isReady(),
            ),
          );
        }
        const n = inputs(records, 'watch-opened').length;
        open.push(await openWatch(server, c.path, c.userAgent));
        await until(
          `${c.name}: watch-opened`,
          () => inputs(records, 'watch-opened').length === n + 1,
        );
      }
      // events have no watch cache (DefaultWatchCacheSizes): etcd serves the watch.
      eventsWatch = await openWatch(
        server,
        '/api/v1/namespaces/default/events?watch=true',
        'ids-events/v1',
      );
      await new Promise((r) => setTimeout(r, 50));
      eventsWatch.close();
      await until('the events watch closed', () =>
        inputs(records, 'watch-closed').some(
          (c) => c.action === 'watch-closed' && c.client === 'ids-events/v1',
        ),
      );
    } finally {
      for (const w of open) w.close();
      recorder.dispose();
    }
    const b = new RunModelBuilder(recorder.header);
    for (const r of records) b.add(r);
    const m = b.finish();
    for (const c of table)
      assert.strictEqual(
        m.watchers.filter((w) => w.client === c.userAgent).length,
        1,
        `${c.name}: one watcher of its own: ${JSON.stringify(m.watchers.map((w) => [w.id, w.client]))}`,
      );
    const events = (m.watchRequests ?? []).find((q) => q.client === 'ids-events/v1');
    const closedAt = inputs(records, 'watch-closed').find(
      (c) => c.action === 'watch-closed' && c.client === 'ids-events/v1',
    )?.at;
    assert.ok(events && closedAt !== undefined, JSON.stringify(m.watchRequests));
    assert.strictEqual(events.outcome, 'started');
    assert.ok(
      (events.answeredAt ?? Infinity) < closedAt - 25,
      `the events watch was answered when it opened (${events.at} ms), not when it closed (${closedAt} ms): ${events.answeredAt}`,
    );
  });

  it('keeps the first and last records for a saved trace and says how many were dropped', async () => {
    const recorder = new LiveRecorder(server, { maxRecords: 10, scrape: false });
    try {
      for (let i = 0; i < 4; i++) await call(server, 'GET', '/api/v1/namespaces/default/pods');
      await until('records beyond the bound', () => recorder.droppedRecords > 0);
      const lines = recorder.traceLines(recorder.metricsRecord());
      const header = JSON.parse(lines[0]) as { params: Record<string, unknown> };
      assert.strictEqual(header.params.recordsDropped, recorder.droppedRecords);
      assert.strictEqual(header.params.recordsKept, 10);
      // header, 5 head, the gap's phase, 5 tail, the final metrics.
      assert.strictEqual(lines.length, 13);
      assert.match(lines[6], /"name":"records dropped"/);
      const { model } = await loadRun(lines);
      assert.strictEqual(model.rejected.count, 0);
      assert.strictEqual(model.phases?.[0].name, 'records dropped');
    } finally {
      recorder.dispose();
    }
  });

  it('a watcher reads what the server wrote to its client: Read, Last RV and its selector, once', async () => {
    // Each case: a watch of pods, then pod-0100 created and updated twice (three events).
    const table: Array<{ name: string; query: string; selector: string }> = [
      {
        name: 'a field selector',
        query: 'fieldSelector=metadata.name%3Dpod-0100',
        selector: 'metadata.name=pod-0100',
      },
      {
        name: 'a label and a field selector',
        query: 'labelSelector=app%3Dweb&fieldSelector=metadata.name%3Dpod-0100',
        selector: 'app=web,metadata.name=pod-0100',
      },
    ];
    for (const c of table) {
      const recorder = new LiveRecorder(server, { scrape: false });
      const records: TraceRecord[] = [];
      recorder.subscribe((r) => records.push(r));
      let rvs: string[] = [];
      try {
        const w = await openWatch(
          server,
          `/api/v1/namespaces/default/pods?watch=1&${c.query}`,
          'kubectl/v1.33.1 (linux/amd64)',
        );
        await until('watch-opened', () => inputs(records, 'watch-opened').length === 1);
        const path = '/api/v1/namespaces/default/pods';
        const pod = {
          metadata: { name: 'pod-0100', labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        };
        const created = await call(server, 'POST', path, { body: pod });
        assert.strictEqual(created.status, 201, created.text);
        let latest = created.text;
        for (const touched of ['once', 'twice']) {
          const updated = JSON.parse(latest) as { metadata: Record<string, unknown> };
          updated.metadata.annotations = { touched };
          const put = await call(server, 'PUT', `${path}/pod-0100`, { body: updated });
          assert.strictEqual(put.status, 200, put.text);
          latest = put.text;
        }
        await until('the watch to read 3 events', () => w.lines.length >= 3);
        rvs = w.lines.map(
          (l) =>
            (JSON.parse(l) as { object: { metadata: { resourceVersion: string } } }).object.metadata
              .resourceVersion,
        );
        assert.strictEqual(rvs.length, 3, `${c.name}: ${w.lines.join('\n')}`);
        w.close();
        await until('watch-closed', () => inputs(records, 'watch-closed').length === 1);
      } finally {
        recorder.dispose();
        await call(server, 'DELETE', '/api/v1/namespaces/default/pods/pod-0100');
      }
      const lastRv = Number(rvs[2]);
      const { model } = await loadRun(recorder.traceLines(recorder.metricsRecord()));
      assert.strictEqual(model.watchers.length, 1, c.name);
      const track = model.watchers[0];
      assert.strictEqual(track.selector, c.selector, `${c.name}: selector`);
      const end = model.durationMs;
      const now = watcherFiguresAt(track, end, end);
      assert.deepStrictEqual(
        [now.received, now.lastRv, now.endOfRun],
        [3, lastRv, false],
        `${c.name}: Read and Last RV at the end`,
      );
      // At each read's instant (the scrubber's), the figures of that moment; none before the first.
      // One instant per line read (a `watchers` record counts the lines read at its instant).
      const readsAt = records.flatMap((r) =>
        r.kind === 'metrics' && r.scope === 'watchers'
          ? r.changes.flatMap((g) => new Array<number>(g.received).fill(r.at))
          : [],
      );
      assert.strictEqual(readsAt.length, 3, `${c.name}: lines read in watchers records`);
      // Each record says the kinds of the lines read: three events, no bookmark, the last at lastRv.
      const kinds = records.flatMap((r) =>
        r.kind === 'metrics' && r.scope === 'watchers'
          ? r.changes.map((g) => [g.bookmarksRead, g.lastEventRv])
          : [],
      );
      assert.deepStrictEqual(
        [kinds.every(([b]) => b === 0), kinds[kinds.length - 1]?.[1]],
        [true, lastRv],
        `${c.name}: line kinds recorded`,
      );
      const openedAt = track.states[0].at;
      if (openedAt < readsAt[0]) {
        const before = watcherFiguresAt(track, openedAt, end);
        assert.deepStrictEqual([before.received, before.lastRv], [0, 0], `${c.name}: at the open`);
      }
      for (let i = 0; i < 3; i++) {
        const f = watcherFiguresAt(track, readsAt[i], end);
        assert.deepStrictEqual(
          [f.received, f.lastRv],
          // Reads at one instant (the same ms) are seen together.
          [readsAt.lastIndexOf(readsAt[i]) + 1, Number(rvs[readsAt.lastIndexOf(readsAt[i])])],
          `${c.name}: at read ${i + 1}`,
        );
      }
      assert.deepStrictEqual(
        [track.eventsReceived, track.lastRvSent],
        [3, lastRv],
        `${c.name}: the track's figures`,
      );
      const perfetto = [...perfettoTraceEvents(model)];
      const watchSlice = perfetto.find((e) => e.ph === 'X' && e.name === 'WATCH');
      assert.deepStrictEqual(
        watchSlice && [
          (watchSlice.args as Record<string, unknown>).received,
          (watchSlice.args as Record<string, unknown>).lastRv,
        ],
        [3, lastRv],
        `${c.name}: Perfetto's WATCH slice`,
      );
      const names = perfetto
        .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === watchersPid)
        .map((e) => (e.args as { name: string }).name);
      assert.deepStrictEqual(
        names,
        [`watcher ${track.id} · kubectl/v1.33.1 (linux/amd64) · ${c.selector}`],
        `${c.name}: Perfetto track name`,
      );
    }
  });

  it("a watcher re-queued after a bookmark tick: Next bookmark names its bucket's second, from the events", async () => {
    const recorder = new LiveRecorder(server, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    const pods = server.resources.all.find((r) => r.resource === 'pods');
    assert.ok(pods);
    const buckets = pods.engine.cacher.bookmarkWatchers;
    /** The second (since the server started) of the bucket the engine holds watcher `id` in. */
    const engineSecond = (id: number): number | undefined => {
      for (const [bucketId, ws] of buckets.watchersBuckets)
        if (ws.some((w) => w.id === id))
          return (buckets.createTime + bucketId * 1000 - server.startedAt) / 1000;
      return undefined;
    };
    let id = -1;
    let second: number | undefined;
    let poppedAt = 0;
    // A WatchList watch that wants bookmarks: put into the start bucket while it waits for its
    // initial-events-end bookmark, popped at the next tick (about 1 s) and re-queued for its
    // next heartbeat (cacher.go dispatchEvents: watchers that still want bookmarks are re-added).
    const w = await openWatch(
      server,
      '/api/v1/namespaces/default/pods?watch=1&allowWatchBookmarks=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=600',
      'requeued/v1',
    );
    try {
      await until('watch-opened', () => inputs(records, 'watch-opened').length === 1);
      const opened = inputs(records, 'watch-opened')[0];
      assert.ok(opened.action === 'watch-opened' && typeof opened.watcherId === 'number');
      id = opened.watcherId;
      await until(
        'its bucket popped, it re-queued, and the scheduling recorded',
        () => {
          const pop = records.find(
            (r) =>
              r.kind === 'event' &&
              r.event.type === 'bookmarks/bucket-popped' &&
              r.event.watcherIds.map(Number).includes(id),
          );
          if (pop?.kind !== 'event') return false;
          poppedAt = pop.event.at;
          second = engineSecond(id);
          return (
            second !== undefined &&
            records.some(
              (r) =>
                r.kind === 'event' &&
                r.event.type === 'bookmarks/scheduled' &&
                r.event.at >= poppedAt,
            )
          );
        },
        400,
      );
    } finally {
      w.close();
      await until('watch-closed', () => inputs(records, 'watch-closed').length === 1);
      recorder.dispose();
    }
    assert.ok(second !== undefined && second * 1000 > poppedAt, `re-queued for second ${second}`);
    const { model } = await loadRun(recorder.traceLines(recorder.metricsRecord()));
    const track = model.watchers.find((t) => t.id === String(id));
    assert.ok(track);
    const closedAt = track.closedAt ?? model.durationMs;
    const atRequeued = watcherFiguresAt(track, closedAt - 1, model.durationMs);
    assert.strictEqual(
      atRequeued.nextBookmarkSecond,
      second,
      `Next bookmark after the re-queue (popped at ${poppedAt} ms); log: ${JSON.stringify(track.log)}`,
    );
    // Its event log says the same: the pop, then the bucket it was put into.
    const log = track.log.map((e) => e.text);
    // The start bucket's second began before the watch opened (buckets count whole seconds from
    // the watch cache's creation, before the run's start): said in words, never a negative second.
    const popped = log.findIndex((t) =>
      /^the bookmark bucket whose second began .* popped/.test(t),
    );
    assert.ok(popped >= 0, JSON.stringify(log));
    assert.ok(
      log.slice(popped).includes(`in the bookmark bucket due at ${second.toFixed(3)} s`),
      JSON.stringify(log),
    );
    for (const t of log) assert.doesNotMatch(t, /second -|-\d+\.\d{3} s/, 'no negative time');
  });

  it("answers a LIST when its last byte goes out, before the client's next page: not at 'close'", () => {
    // A stand-in server on a clock the test moves; the responses are emitters the test ends.
    let clock = 1000;
    let observer: ServerObserver | undefined;
    const stand = {
      startedAt: 1000,
      url: 'http://127.0.0.1:1',
      httpsUrl: 'https://127.0.0.1:1',
      record: (o: ServerObserver) => {
        observer = o;
        return { dispose: () => undefined };
      },
      resources: {
        perStorage: [],
        clock: { now: () => clock },
        profile: { kubernetesVersion: '1.36' },
        metrics: { samples: () => [] },
      },
    } as unknown as RecordedServer;
    const recorder = new LiveRecorder(stand, { scrape: false });
    const records: TraceRecord[] = [];
    recorder.subscribe((r) => records.push(r));
    const socket = {};
    const send = (requestId: number, url: string): EventEmitter => {
      const res = Object.assign(new EventEmitter(), {
        statusCode: 200,
        write: () => true,
        end: () => res,
      });
      observer?.request({
        context: { requestId, client: 'kubectl/v1.35.2', requestLine: `GET ${url}` },
        verb: 'list',
        req: { url, socket } as unknown as IncomingMessage,
        res: res as unknown as ServerResponse,
      } as unknown as ObservedRequest);
      return res;
    };
    const page1 = send(1, '/api/v1/namespaces/default/pods?limit=10');
    clock = 1005;
    page1.emit('prefinish'); // res.end(): the whole answer handed to the socket
    clock = 1006;
    const page2 = send(2, '/api/v1/namespaces/default/pods?limit=10&continue=x');
    clock = 1007;
    page1.emit('finish');
    page1.emit('close'); // after the socket's write callback: page 2 is already in
    clock = 1010;
    page2.emit('prefinish');
    page2.emit('close');
    const at = (action: string) =>
      records
        .filter((r): r is TraceInputRecord => r.kind === 'input' && r.action === action)
        .map((r) => r.at);
    assert.deepStrictEqual(
      { sent: at('list'), answered: at('list-end') },
      { sent: [0, 6], answered: [5, 10] },
    );
    recorder.dispose();
  });

  it('counts clock times from the server start (at, deadlines, recheck times)', () => {
    const table: Array<{ event: EngineEvent; want: Record<string, unknown> }> = [
      {
        event: {
          type: 'watcher/created',
          at: 1500,
          watcherId: 1,
          groupResource: { group: '', resource: 'pods' },
          identifier: '',
          chanSize: 10,
          deadline: 9000,
          allowWatchBookmarks: true,
        },
        want: { at: 500, deadline: 8000 },
      },
      {
        event: {
          type: 'watcher/created',
          at: 1000,
          watcherId: 1,
          groupResource: { group: '', resource: 'pods' },
          identifier: '',
          chanSize: 10,
          deadline: null,
          allowWatchBookmarks: true,
        },
        want: { at: 0, deadline: null },
      },
      {
        event: {
          type: 'list/stream-fallback',
          at: 1200,
          groupResource: { group: '', resource: 'pods' },
          origin: 'list',
          recheckAt: 601000,
        } as unknown as EngineEvent,
        want: { at: 200, recheckAt: 600000 },
      },
    ];
    for (const { event, want } of table) {
      const got = relativeEvent(event, 1000) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(want))
        assert.strictEqual(got[k], v, `${event.type} ${k}`);
      assert.notStrictEqual(got, event, 'a copy');
    }
  });
});
