// Tests for src/run/clients-report.ts (the body of GET /debug/listwatch/v1/clients): a table of
// live runs fed as the live recorder writes them (requests, fault hits, responses, the
// initial-events-end bookmark, a watch a fault cut), and what the report says each client did.
import * as assert from 'assert';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { clientsReport, type ClientReport } from '../../../src/run/clients-report';
import { faultCutReason } from '../../../src/run/trace/trace-format';
import { liveRunHeader } from './live-run-header-fixture';
import { renderClientsReport } from '../../../src/cli/run-report';

const gr = { group: '', resource: 'pods' };
const pods = '/api/v1/namespaces/default/pods';
const ua = 'controller/v1';

/** A live run fed in a few lines (request ids grow, as the apiserver gives them). */
class Live {
  readonly b = new RunModelBuilder(liveRunHeader());
  private nextRequest = 1;
  private nextWatcher = 1;

  /** `o.request`: a request fault, as the recorder marks it; `o.text`: the server's words. */
  fault(at: number, id: number, name: string, o: { request?: true; text?: string } = {}): void {
    this.b.addInput(at, {
      action: 'fault',
      id,
      name,
      params: {},
      text: o.text ?? name,
      ...(o.request ? { request: o.request } : {}),
    });
  }

  private respond(at: number, requestId: number, connection: string, status: number): void {
    this.b.addInput(at, {
      action: 'response',
      requestId,
      client: ua,
      connection,
      verb: 'list',
      request: pods,
      status,
      bytes: 100,
    });
  }

  private hit(at: number, faults: number[], requestId: number, connection: string, verb: string) {
    for (const id of faults)
      this.b.addInput(at, {
        action: 'fault-hit',
        id,
        name: `fault-${id}`,
        requestId,
        client: ua,
        connection,
        verb,
        request: pods,
      });
  }

  list(at: number, endAt: number, o: { status?: number; hitBy?: number[]; c?: string } = {}) {
    const requestId = this.nextRequest++;
    const c = o.c ?? 'c1';
    const status = o.status ?? 200;
    this.hit(at, o.hitBy ?? [], requestId, c, 'list');
    const id = `list-${requestId}`;
    this.b.addInput(at, {
      action: 'list',
      id,
      requestId,
      request: pods,
      via: 'delegator',
      client: ua,
      connection: c,
    });
    this.b.addInput(endAt, {
      action: 'list-end',
      id,
      requestId,
      status,
      items: 0,
      resourceVersion: status === 200 ? '100' : '',
      continue: '',
      ...(status !== 200
        ? { error: { code: status, reason: 'TooManyRequests', message: '' } }
        : {}),
    });
    this.respond(endAt, requestId, c, status);
  }

  watch(
    at: number,
    o: {
      rv?: string;
      c?: string;
      hitBy?: number[];
      watchList?: boolean;
      syncedAt?: number;
      lastRv?: number;
      end?: { at: number; reason: string; byTerminateWatcherFault?: boolean };
      /** Refused with a 410 (an ERROR event before any watcher): too old resource version. */
      expired?: boolean;
    } = {},
  ): void {
    const requestId = this.nextRequest++;
    const c = o.c ?? 'c1';
    this.hit(at, o.hitBy ?? [], requestId, c, 'watch');
    const request = `${pods}?watch=true${o.rv ? `&resourceVersion=${o.rv}` : ''}${o.watchList ? '&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=300' : ''}`;
    this.b.addInput(at, { action: 'watch', client: ua, connection: c, requestId, request });
    if (o.expired) {
      this.b.addInput(at, {
        action: 'watch-opened',
        client: ua,
        requestId,
        error: { code: 410, reason: 'Expired', message: 'too old resource version' },
      });
      return;
    }
    const watcherId = this.nextWatcher++;
    this.b.add({
      type: 'watcher/created',
      at,
      watcherId,
      groupResource: gr,
      requestId,
      identifier: 'key: "/pods/default", labels: "", fields: ""',
      chanSize: 10,
      deadline: null,
      allowWatchBookmarks: true,
    });
    this.b.addInput(at, { action: 'watch-opened', client: ua, requestId, watcherId });
    if (o.lastRv !== undefined)
      this.b.add({
        type: 'watcher/live',
        at: at + 1,
        watcherId,
        initEvents: 0,
        resourceVersion: o.lastRv,
      });
    if (o.syncedAt !== undefined)
      this.b.addInput(o.syncedAt, { action: 'initial-events-end', client: ua, requestId });
    if (o.end) {
      if (o.end.byTerminateWatcherFault)
        this.b.add({
          type: 'watcher/terminated',
          at: o.end.at,
          watcherId,
          groupResource: gr,
          graceful: false,
          inputLen: 0,
          resultLen: 0,
          cause: 'fault',
        });
      this.b.addInput(o.end.at, {
        action: 'watch-closed',
        client: ua,
        requestId,
        watcherId,
        reason: o.end.reason,
        received: 1,
      });
      this.b.add({
        type: 'watcher/closed',
        at: o.end.at,
        watcherId,
        reason: 'inputClosed',
        delivered: 1,
      });
    }
  }

  report(): ClientReport[] {
    return clientsReport(this.b.finish()).clients;
  }
}

interface Case {
  name: string;
  run(l: Live): void;
  /** What the report says: its clients' ids, and per client the figures named. */
  want: Array<{
    id: string;
    restarts?: ClientReport['restarts'];
    relists?: number;
    answers?: Record<string, number>;
    syncs?: boolean[];
    faults: Array<[number, string | null, number | null]>;
  }>;
}

const cases: Case[] = [
  {
    name: 'fault 9 (latency) hit a LIST another fault answered 429 and its retry, answered 200: recovered by the retry',
    run(l) {
      l.fault(0, 9, 'latency');
      l.list(10, 11, { status: 429, hitBy: [9] });
      l.list(1011, 1220, { hitBy: [9] });
    },
    want: [{ id: `${ua} · c1`, answers: { '200': 1, '429': 1 }, faults: [[9, 'retry', 1210]] }],
  },
  {
    name: 'latency 6 hit two LISTs, each answered 200: nothing to recover from, answered by the last',
    run(l) {
      l.fault(0, 6, 'latency');
      l.list(10, 210, { hitBy: [6] });
      l.list(300, 520, { hitBy: [6] });
    },
    want: [{ id: `${ua} · c1`, answers: { '200': 2 }, faults: [[6, 'answered', 510]] }],
  },
  {
    name: 'fault 7 hit a LIST answered 200 and another answered 429, then a retry: recovered by it',
    run(l) {
      l.fault(0, 7, 'http-error');
      l.list(10, 20, { hitBy: [7] });
      l.list(30, 31, { status: 429, hitBy: [7] });
      l.list(1031, 1040);
    },
    want: [{ id: `${ua} · c1`, answers: { '200': 2, '429': 1 }, faults: [[7, 'retry', 1030]] }],
  },
  {
    name: 'a LIST answered 429 by fault 1, then the same LIST again: recovered by its retry',
    run(l) {
      l.fault(0, 1, 'http-error');
      l.list(10, 11, { status: 429, hitBy: [1] });
      l.list(1011, 1020);
    },
    want: [
      {
        id: `${ua} · c1`,
        answers: { '200': 1, '429': 1 },
        faults: [[1, 'retry', 1010]],
      },
    ],
  },
  {
    name: 'request fault 3 armed while a watch was open, never hitting it (it picks requests as they come): it touched no client',
    run(l) {
      l.list(5, 6);
      l.watch(10, { rv: '100' });
      l.fault(20, 3, 'drop-connection', { request: true });
    },
    want: [{ id: `${ua} · c1`, faults: [] }],
  },
  {
    name: 'the same in a trace saved before request faults were marked: the server\'s "#3 armed: {parameters…}" says it',
    run(l) {
      l.list(5, 6);
      l.watch(10, { rv: '100' });
      l.fault(20, 3, 'drop-connection', {
        text: '#3 armed: {"parameters":{"afterEvents":1},"match":{"verb":"watch"},"trigger":{"count":1}}',
      });
    },
    want: [{ id: `${ua} · c1`, faults: [] }],
  },
  {
    name: 'a watch fault 2 cut: the client re-watches from its last RV on a new connection, one client',
    run(l) {
      l.fault(0, 2, 'drop-connection');
      l.list(5, 6);
      l.watch(10, { rv: '100', hitBy: [2], lastRv: 120, end: { at: 50, reason: faultCutReason } });
      l.watch(900, { rv: '120', c: 'c2' });
    },
    want: [
      {
        id: `${ua} · c1, c2`,
        restarts: { total: 1, fromLastRv: 1 },
        relists: 0,
        faults: [[2, 'rewatch', 890]],
      },
    ],
  },
  {
    name: 'a WatchList request fault 3 kept from syncing: not recovered',
    run(l) {
      l.fault(0, 3, 'omit-end-bookmark');
      l.watch(10, { watchList: true, hitBy: [3] });
    },
    want: [{ id: `${ua} · c1`, syncs: [false], faults: [[3, null, null]] }],
  },
  {
    name: 'a WatchList request that synced, no fault',
    run(l) {
      l.watch(10, { watchList: true, syncedAt: 40 });
    },
    want: [{ id: `${ua} · c1`, syncs: [true], faults: [] }],
  },
  {
    name: 'a server fault 4 while a watch was open, its end and a relist: recovered by the relist',
    run(l) {
      l.list(5, 6);
      l.watch(10, { rv: '100', end: { at: 300, reason: 'resultClosed' } });
      l.fault(200, 4, 'restart');
      l.list(1200, 1250);
    },
    want: [{ id: `${ua} · c1`, relists: 1, faults: [[4, 'relist', 1050]] }],
  },
  {
    name: 'a server fault before any watch touches no client',
    run(l) {
      l.fault(0, 5, 'compact');
      l.list(5, 6);
    },
    want: [{ id: `${ua} · c1`, faults: [] }],
  },
  {
    // Second review of #24: kubectl get -w (c1) and another get -w (c2) open; terminate-watcher 3
    // cut c2's watch alone (recorded a moment after the watch's end), and kubectl exited.
    name: 'terminate-watcher touched the client whose watch it cut, not another open one',
    run(l) {
      l.watch(10, { rv: '100' });
      l.watch(20, {
        rv: '100',
        c: 'c2',
        end: { at: 500, reason: faultCutReason, byTerminateWatcherFault: true },
      });
      l.fault(502, 3, 'terminate-watcher');
    },
    want: [
      { id: `${ua} · c1`, faults: [] },
      { id: `${ua} · c2`, faults: [[3, null, null]] },
    ],
  },
  {
    name: 'expire-history and cache-lag while a watch stayed open and kept delivering: nothing to recover',
    run(l) {
      l.watch(10, { rv: '100', end: { at: 9000, reason: 'disconnected' } });
      l.fault(100, 2, 'expire-history');
      l.fault(200, 4, 'cache-lag');
    },
    want: [
      {
        id: `${ua} · c1`,
        faults: [
          [2, 'answered', 0],
          [4, 'answered', 0],
        ],
      },
    ],
  },
  {
    name: 'expire-history, then the watch cut by terminate-watcher: its re-watch gets a 410, relist',
    run(l) {
      l.watch(10, {
        rv: '100',
        end: { at: 500, reason: faultCutReason, byTerminateWatcherFault: true },
      });
      l.fault(100, 2, 'expire-history');
      l.fault(501, 3, 'terminate-watcher');
      l.watch(600, { rv: '120', expired: true });
      l.list(1600, 1700);
    },
    want: [
      {
        id: `${ua} · c1`,
        relists: 1,
        faults: [
          [2, 'relist', 1600],
          [3, 'relist', 1199],
        ],
      },
    ],
  },
];

describe('clientsReport', () => {
  for (const c of cases)
    it(c.name, () => {
      const l = new Live();
      c.run(l);
      const got = l.report();
      assert.deepStrictEqual(
        got.map((x) => x.id),
        c.want.map((w) => w.id),
        c.name,
      );
      c.want.forEach((w, i) => {
        const r = got[i];
        if (w.restarts) assert.deepStrictEqual(r.restarts, w.restarts, `${c.name}: restarts`);
        if (w.relists !== undefined) assert.strictEqual(r.relists, w.relists, `${c.name}: relists`);
        if (w.answers) assert.deepStrictEqual(r.answers, w.answers, `${c.name}: answers`);
        if (w.syncs)
          assert.deepStrictEqual(
            r.watchListSyncs.map((s) => s.ended),
            w.syncs,
            `${c.name}: syncs`,
          );
        assert.deepStrictEqual(
          r.faults.map((f) => [f.id, f.recoveredBy, f.recoveryMs]),
          w.faults,
          `${c.name}: faults ${JSON.stringify(r.faults)}`,
        );
        for (const f of r.faults)
          assert.strictEqual(f.recovery === 'not recovered', !f.recovered, `${c.name}: recovery`);
      });
    });

  it('connections taken as one client say what that rests on, in the report and its text', () => {
    // Three connections one after another, one LIST each, no Kubectl-Session (client-node, or
    // kubectl with KUBECTL_COMMAND_HEADERS=false): one client by inference, and the row says so.
    const l = new Live();
    l.list(10, 20, { c: 'c1' });
    l.list(100, 120, { c: 'c2' });
    l.list(200, 220, { c: 'c3' });
    const report = clientsReport(l.b.finish());
    assert.deepStrictEqual(
      report.clients.map((c) => [c.connection, c.lists.total, c.grouping]),
      [
        [
          'c1, c2, c3',
          3,
          'inferred, not proven: taken as one program because this user agent never sent two LISTs or WATCHes on one connection and these connections followed one another; separate processes with one request each look the same',
        ],
      ],
    );
    const text = renderClientsReport(report, 400);
    const i = text.indexOf('Connections taken as one client');
    assert.ok(i >= 0, text.join('\n'));
    assert.match(text[i + 1], /^ {2}controller\/v1 · c1, c2, c3: inferred, not proven: /);
  });

  // What the watcher's row (Watchers tab, Perfetto's `closed`, watchEndCategory) says of a watch
  // whose handler returned (its watcher stopped: inputClosed), by what the client's side says.
  const ends: Array<[string, string]> = [
    ['disconnected', 'client went away'],
    [faultCutReason, 'connection cut by a fault'],
  ];
  for (const [reason, want] of ends)
    it(`a watch closed with "${reason}" and its watcher stopped reads "${want}"`, () => {
      const l = new Live();
      l.watch(10, { rv: '100', lastRv: 120, end: { at: 50, reason } });
      assert.deepStrictEqual(
        l.b.finish().watchers.map((w) => w.closeReason),
        [want],
      );
    });
});
