// Tests for src/run/client-records.ts (RunModel.clients) and src/run/views/client-at-time.ts: LIST
// paging chains linked by continue tokens, a chain broken by 410 Expired and restarted, watch
// restarts, relist detection and cost, the figures at a moment, and a live run's grouping by user
// agent and connection.
import * as assert from 'assert';
import { encodeContinue } from '../../../src/engine/storage/continue';
import {
  chainCostAt,
  clientFiguresAt,
  clientWatchPhaseAt,
} from '../../../src/run/views/client-at-time';
import { connectionText, shortClientName } from '../../../src/run/views/client-name';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import { relistWindowMs } from '../../../src/run/relist-rule';
import { summarizeRecordedRun } from '../../../src/run/recorded-run-summary';
import { runScenario } from '../../../src/scenarios/runner';
import type { ClientRecord, ClientWatchRequest, RunModel } from '../../../src/run/run-model';
import { liveRunHeader } from './live-run-header-fixture';

const gr = { group: '', resource: 'pods' };
const prefix = '/registry/pods/default/';
const pods = '/api/v1/namespaces/default/pods';

/** A token as the store issues it: the next page starts just after `lastKey`. */
function token(lastName: string, rv: number): string {
  return encodeContinue(`${prefix}${lastName}\u0000`, prefix, rv);
}

/** Feeds a run in a few lines: requests get increasing ids, as the apiserver gives them. */
class Run {
  readonly b = new RunModelBuilder(liveRunHeader());
  private nextRequest = 1;
  private nextList = 1;
  private nextWatcher = 1;

  /** A LIST from `at` to `endAt`: `kvs` keys from etcd, `items` returned, the continue answered. */
  list(
    client: string,
    at: number,
    endAt: number,
    o: {
      query?: string;
      kvs?: number;
      items?: number;
      next?: string;
      error?: { code: number; reason: string; message: string };
      connection?: string;
      /** kubectl's Kubectl-Session header (one per kubectl process). */
      session?: string;
    } = {},
  ): void {
    const requestId = this.nextRequest++;
    const id = `list-${this.nextList++}`;
    this.b.addInput(at, {
      action: 'list',
      id,
      requestId,
      request: `${pods}${o.query ? `?${o.query}` : ''}`,
      via: 'store',
      client,
      ...(o.connection ? { connection: o.connection } : {}),
      ...(o.session ? { session: o.session } : {}),
    });
    if (o.kvs !== undefined)
      this.b.add({
        type: 'etcd/request',
        at,
        groupResource: gr,
        requestId,
        operation: 'list',
        key: prefix,
        limit: 0,
        revision: 0,
        headerRevision: 100,
        kvs: o.kvs,
        count: o.kvs,
        latencyMs: endAt - at,
      });
    this.b.addInput(endAt, {
      action: 'list-end',
      id,
      requestId,
      status: o.error ? o.error.code : 200,
      items: o.items ?? o.kvs ?? 0,
      resourceVersion: o.error ? '' : '100',
      continue: o.next ?? '',
      ...(o.error ? { error: o.error } : {}),
    });
  }

  /**
   * A WATCH sent at `at` from `rv`: refused with `refused`, or a watcher that reads up to `lastRv`
   * and ends at `end.at` by `end.how` (timeout / client went away / terminated).
   */
  watch(
    client: string,
    at: number,
    o: {
      rv?: string;
      refused?: { code: number; reason: string; message: string };
      lastRv?: number;
      end?: { at: number; how: 'timeout' | 'disconnected' | 'terminated' };
      connection?: string;
      session?: string;
      /** A WatchList client's watch: sendInitialEvents=true. */
      initialEvents?: boolean;
      /** It was sent the bookmark that ends its initial events (k8s.io/initial-events-end). */
      listed?: boolean;
      /** client-go's List sent as a watch: no timeoutSeconds (a reflector's watch has one). */
      listByWatch?: boolean;
    },
  ): string | undefined {
    const requestId = this.nextRequest++;
    const request = `${pods}?watch=true${o.rv !== undefined ? `&resourceVersion=${o.rv}` : ''}${o.initialEvents ? '&sendInitialEvents=true&resourceVersionMatch=NotOlderThan' : ''}${o.initialEvents && !o.listByWatch ? '&timeoutSeconds=412' : ''}`;
    this.b.addInput(at, {
      action: 'watch',
      client,
      requestId,
      request,
      ...(o.connection ? { connection: o.connection } : {}),
      ...(o.session ? { session: o.session } : {}),
    });
    if (o.refused) {
      this.b.addInput(at, { action: 'watch-opened', client, requestId, error: o.refused });
      return undefined;
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
    this.b.addInput(at, { action: 'watch-opened', client, requestId, watcherId });
    this.b.add({
      type: 'watcher/state',
      at: at + 1,
      watcherId,
      from: 'WaitingForBookmark',
      to: 'BookmarkReceived',
      bookmarkAfterResourceVersion: 100,
      resourceVersion: 100,
    });
    if (o.listed)
      this.b.add({
        type: 'watcher/bookmark',
        at: at + 1,
        watcherId,
        resourceVersion: 100,
        outcome: 'delivered',
        initialEventsEnd: true,
      });
    if (o.lastRv !== undefined)
      this.b.add({
        type: 'watcher/live',
        at: at + 1,
        watcherId,
        initEvents: 0,
        resourceVersion: o.lastRv,
      });
    const end = o.end;
    if (end) {
      if (end.how === 'terminated')
        this.b.add({
          type: 'watcher/terminated',
          at: end.at,
          watcherId,
          groupResource: gr,
          graceful: false,
          inputLen: 10,
          resultLen: 0,
        });
      else
        this.b.addInput(end.at, {
          action: 'watch-closed',
          client,
          requestId,
          watcherId,
          reason: end.how,
          received: 3,
        });
      this.b.add({
        type: 'watcher/closed',
        at: end.at,
        watcherId,
        reason: end.how === 'timeout' ? 'contextDone' : 'inputClosed',
        delivered: 3,
      });
    }
    return String(watcherId);
  }

  clients(): ClientRecord[] {
    return this.b.finish().clients ?? [];
  }

  model(): RunModel {
    return this.b.finish();
  }
}

const gone = {
  code: 410,
  reason: 'Expired',
  message:
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
};

describe('clientRecords: LIST paging chains', () => {
  it('links pages by continue token and decodes where each page started', () => {
    const r = new Run();
    const t1 = token('pod-1', 100);
    const t2 = token('pod-3', 100);
    r.list('kubectl', 1000, 1010, { query: 'limit=2', kvs: 2, next: t1 });
    // Another client's pages in between belong to its own chain.
    r.list('other', 1011, 1012, { query: 'limit=2', kvs: 2, next: token('pod-1', 100) });
    r.list('kubectl', 1020, 1030, { query: `limit=2&continue=${t1}`, kvs: 2, next: t2 });
    r.list('kubectl', 1040, 1045, { query: `limit=2&continue=${t2}`, kvs: 1 });
    const [kubectl, other] = r.clients();
    assert.deepStrictEqual(
      [kubectl.client, other.client, kubectl.chains.length, other.chains.length],
      ['kubectl', 'other', 1, 1],
    );
    const chain = kubectl.chains[0];
    assert.deepStrictEqual([chain.pages, chain.outcome], [[0, 1, 2], 'complete']);
    assert.deepStrictEqual(other.chains[0].outcome, 'open');
    const pages = kubectl.requests.map((q) =>
      q.kind === 'list' ? [q.page, q.hasMore, q.continueFrom, q.cost.keysFetched] : [],
    );
    assert.deepStrictEqual(pages, [
      [0, true, undefined, 2],
      [1, true, { startKey: 'pod-1\u0000', resourceVersion: '100' }, 2],
      [2, false, { startKey: 'pod-3\u0000', resourceVersion: '100' }, 1],
    ]);
  });

  it('a 410 Expired breaks the chain and the next LIST from scratch restarts it', () => {
    const r = new Run();
    const t1 = token('pod-1', 100);
    r.list('reflector', 1000, 1010, { query: 'limit=2', kvs: 2, next: t1 });
    r.list('reflector', 9000, 9005, { query: `limit=2&continue=${t1}`, error: gone });
    r.list('reflector', 9010, 9030, { query: 'limit=2', kvs: 2 });
    const [c] = r.clients();
    assert.deepStrictEqual(
      c.chains.map((ch) => [ch.pages, ch.outcome, ch.restartedBy]),
      [
        [[0, 1], 'expired', 1],
        [[2], 'complete', undefined],
      ],
    );
    assert.strictEqual(clientFiguresAt(c, 9004).expired, 0, 'not answered yet at 9.004 s');
    assert.strictEqual(clientFiguresAt(c, 9005).expired, 1);
  });

  // client-go's request re-sends a page answered 429 or 5xx with Retry-After (rest/with_retry.go),
  // the same continue token again: the chain goes on, the failed attempt shown on its page.
  const retried: Array<{ name: string; failures: Array<{ code: number; reason: string }> }> = [
    { name: '504 Timeout', failures: [{ code: 504, reason: 'Timeout' }] },
    { name: '429 TooManyRequests', failures: [{ code: 429, reason: 'TooManyRequests' }] },
    { name: '500 InternalError', failures: [{ code: 500, reason: 'InternalError' }] },
    {
      name: '504 twice',
      failures: [
        { code: 504, reason: 'Timeout' },
        { code: 504, reason: 'Timeout' },
      ],
    },
  ];
  for (const tc of retried)
    it(`page 2 answered ${tc.name} and retried with its token stays in its chain`, () => {
      const r = new Run();
      const t1 = token('pod-0499', 100);
      const t2 = token('pod-0999', 100);
      r.list('kubectl', 1000, 1010, { query: 'limit=500', kvs: 500, next: t1 });
      let at = 1020;
      for (const f of tc.failures) {
        r.list('kubectl', at, at + 60_000, {
          query: `limit=500&continue=${t1}`,
          error: {
            ...f,
            message: 'the server was unable to return a response in the time allotted',
          },
        });
        at += 61_000;
      }
      r.list('kubectl', at, at + 10, { query: `limit=500&continue=${t1}`, kvs: 500, next: t2 });
      r.list('kubectl', at + 20, at + 30, { query: `limit=500&continue=${t2}`, kvs: 200 });
      const [c] = r.clients();
      const n = tc.failures.length;
      assert.strictEqual(c.chains.length, 1, `${tc.name}: one chain`);
      const chain = c.chains[0];
      assert.deepStrictEqual(
        [chain.outcome, chain.orphan, chainCostAt(c, chain, at + 30).pages],
        ['complete', undefined, 3],
        `${tc.name}: a complete chain of 3 pages, no orphan`,
      );
      assert.deepStrictEqual(
        c.requests.map((q) =>
          q.kind === 'list' ? [q.chain, q.page, q.error?.code, q.retryOf] : [],
        ),
        [
          [0, 0, undefined, undefined],
          ...tc.failures.map((f, i) => [0, 1, f.code, i === 0 ? undefined : i]),
          [0, 1, undefined, n],
          [0, 2, undefined, undefined],
        ],
        `${tc.name}: the failed attempts on page 2, each retry naming the attempt it re-sent`,
      );
    });

  for (const tc of retried)
    it(`a first page (no continue) answered ${tc.name} and sent again with the same query stays in its chain`, () => {
      const r = new Run();
      const t1 = token('pod-0499', 100);
      let at = 1000;
      for (const f of tc.failures) {
        r.list('kubectl', at, at + 60_000, {
          query: 'limit=500',
          error: {
            ...f,
            message: 'the server was unable to return a response in the time allotted',
          },
        });
        at += 61_000;
      }
      r.list('kubectl', at, at + 10, { query: 'limit=500', kvs: 500, next: t1 });
      r.list('kubectl', at + 20, at + 30, { query: `limit=500&continue=${t1}`, kvs: 200 });
      const [c] = r.clients();
      const n = tc.failures.length;
      assert.strictEqual(c.chains.length, 1, `${tc.name}: one chain`);
      const chain = c.chains[0];
      assert.deepStrictEqual(
        [chain.outcome, chain.orphan, chain.relist, chainCostAt(c, chain, at + 30).pages],
        ['complete', undefined, undefined, 2],
        `${tc.name}: a complete chain of 2 pages`,
      );
      assert.deepStrictEqual(
        c.requests.map((q) =>
          q.kind === 'list' ? [q.chain, q.page, q.error?.code, q.retryOf] : [],
        ),
        [
          ...tc.failures.map((f, i) => [0, 0, f.code, i === 0 ? undefined : i - 1]),
          [0, 0, undefined, n - 1],
          [0, 1, undefined, undefined],
        ],
        `${tc.name}: the failed attempts on page 1, each retry naming the attempt it re-sent`,
      );
    });

  it('a first page that failed is not retried by the same LIST after a watch: that is a new chain', () => {
    const r = new Run();
    r.list('kubectl', 1000, 1010, {
      query: 'limit=500',
      error: { code: 504, reason: 'Timeout', message: 'x' },
    });
    r.watch('kubectl', 2000, { rv: '100', end: { at: 3000, how: 'timeout' } });
    r.list('kubectl', 5000, 5010, { query: 'limit=500', kvs: 3 });
    const [c] = r.clients();
    assert.strictEqual(c.chains.length, 2);
  });

  it('a continue token no earlier page answered starts an orphan chain', () => {
    const r = new Run();
    r.list('kubectl', 1000, 1001, { query: `limit=2&continue=${token('pod-9', 5)}`, kvs: 1 });
    const [c] = r.clients();
    assert.deepStrictEqual([c.chains[0].orphan, c.chains[0].outcome], [true, 'complete']);
  });

  it("an undecodable continue token shows storage.DecodeContinue's error", () => {
    const r = new Run();
    r.list('kubectl', 1000, 1001, {
      query: 'continue=not-base64!',
      error: { code: 400, reason: 'BadRequest', message: 'x' },
    });
    const q = r.clients()[0].requests[0];
    assert.ok(q.kind === 'list' && q.continueFrom && 'error' in q.continueFrom);
    assert.match(
      (q.continueFrom as { error: string }).error,
      /^continue key is not valid: illegal base64 data at input byte/,
    );
  });
});

describe('clientRecords: watches, restarts and relists', () => {
  // A watch that read nothing before it ended: the client's last RV is still the one it watched
  // from (the list's), so a new watch from it is a restart from its last RV (client-go's
  // reflector keeps lastSyncResourceVersion); resourceVersion 0 or none is no RV of its own.
  const fromLastRvCases: Array<[string, string, number, string, boolean]> = [
    ['read events: its newest RV', '100', 150, '150', true],
    ['read events: another RV', '100', 150, '100', false],
    ['read nothing: the RV it watched from', '100', 0, '100', true],
    ['read nothing: another RV', '100', 0, '120', false],
    ['read nothing from 0: 0 again is no last RV', '0', 0, '0', false],
    ['read nothing from none: none again', '', 0, '', false],
  ];
  for (const [name, rv, lastRv, next, fromLastRv] of fromLastRvCases)
    it(`a restart's fromLastRv: ${name}`, () => {
      const r = new Run();
      r.list('informer', 0, 10, { kvs: 5 });
      const sent = (v: string): string | undefined => (v === '' ? undefined : v);
      r.watch('informer', 20, { rv: sent(rv), lastRv, end: { at: 3_000, how: 'terminated' } });
      r.watch('informer', 3_100, { rv: sent(next) });
      const [c] = r.clients();
      const watches = c.requests.filter((q): q is ClientWatchRequest => q.kind === 'watch');
      assert.deepStrictEqual(watches[1].restart, { after: 1, fromLastRv });
    });

  it('a new watch from the last RV after a timeout is a restart, not a relist', () => {
    const r = new Run();
    r.list('informer', 0, 10, { kvs: 5 });
    r.watch('informer', 20, { rv: '100', lastRv: 150, end: { at: 60_000, how: 'timeout' } });
    r.watch('informer', 60_000, { rv: '150' });
    r.watch('informer', 60_500, { rv: '7' });
    const [c] = r.clients();
    const watches = c.requests.filter((q): q is ClientWatchRequest => q.kind === 'watch');
    assert.deepStrictEqual(
      watches.map((w) => [w.resourceVersion, w.end?.how, w.restart]),
      [
        ['100', 'timeout', undefined],
        ['150', undefined, { after: 1, fromLastRv: true }],
        // The second watch is still open: the third is no restart of it.
        ['7', undefined, undefined],
      ],
    );
    const f = clientFiguresAt(c, 60_000);
    assert.deepStrictEqual([f.lists, f.watches, f.restarts, f.relists], [1, 2, 1, 0]);
    assert.deepStrictEqual(
      [30, 59_999, 60_000].map((at) => clientWatchPhaseAt(watches[0], at)),
      ['BookmarkReceived', 'BookmarkReceived', 'ended'],
    );
    assert.strictEqual(clientWatchPhaseAt(watches[1], 59_999), 'notSent');
  });

  const tooOld = { code: 410, reason: 'Expired', message: 'too old resource version: 101 (8901)' };
  const cases: Array<{
    name: string;
    end: 'refused 410' | 'refused 504' | 'timeout' | 'disconnected' | 'terminated';
    gapMs: number;
    relist: string | undefined;
  }> = [
    { name: '410 at once, LIST 1 s later', end: 'refused 410', gapMs: 1000, relist: 'expired' },
    {
      name: '410, LIST at the window',
      end: 'refused 410',
      gapMs: relistWindowMs,
      relist: 'expired',
    },
    {
      name: '410, LIST past the window',
      end: 'refused 410',
      gapMs: relistWindowMs + 1,
      relist: undefined,
    },
    { name: '504 refused, LIST at once', end: 'refused 504', gapMs: 0, relist: 'error' },
    { name: 'terminated, LIST 800 ms later', end: 'terminated', gapMs: 800, relist: 'terminated' },
    { name: 'timeout, LIST 1 s later', end: 'timeout', gapMs: 1000, relist: undefined },
    {
      name: 'client went away, LIST 1 s later',
      end: 'disconnected',
      gapMs: 1000,
      relist: undefined,
    },
  ];
  for (const tc of cases) {
    it(`relist: ${tc.name}`, () => {
      const r = new Run();
      r.list('op', 0, 10, { kvs: 100 });
      const endAt = 30_000;
      if (tc.end === 'refused 410') r.watch('op', endAt, { rv: '101', refused: tooOld });
      else if (tc.end === 'refused 504')
        r.watch('op', endAt, { rv: '', refused: { code: 504, reason: 'Timeout', message: 'x' } });
      else r.watch('op', 20, { rv: '100', end: { at: endAt, how: tc.end } });
      r.list('op', endAt + tc.gapMs, endAt + tc.gapMs + 40, { kvs: 100 });
      const [c] = r.clients();
      assert.strictEqual(c.chains.length, 2, tc.name);
      assert.strictEqual(c.chains[1].relist?.because, tc.relist, tc.name);
      if (tc.relist) assert.strictEqual(c.chains[1].relist?.gapMs, tc.gapMs, tc.name);
    });
  }

  it('a relist costs its pages: items, etcd requests, keys, ms; counted as they are answered', () => {
    const r = new Run();
    r.watch('op', 0, { rv: '101', refused: tooOld });
    const t1 = token('pod-499', 200);
    r.list('op', 1000, 1200, { query: 'limit=500', kvs: 500, next: t1 });
    r.list('op', 1300, 1450, { query: `limit=500&continue=${t1}`, kvs: 300, items: 300 });
    const [c] = r.clients();
    assert.deepStrictEqual(c.chains[0].relist, { afterWatch: 0, gapMs: 1000, because: 'expired' });
    const table: Array<[number, number, number, number, number, number, number]> = [
      // at, relists, expired, pages, items, etcd requests, ms
      [999, 0, 1, 0, 0, 0, 0],
      [1000, 1, 1, 0, 0, 0, 0],
      [1200, 1, 1, 1, 500, 1, 200],
      [1449, 1, 1, 1, 500, 1, 200],
      [1450, 1, 1, 2, 800, 2, 450],
    ];
    for (const [at, relists, expired, pages, items, etcd, ms] of table) {
      const f = clientFiguresAt(c, at);
      assert.deepStrictEqual(
        [
          f.relists,
          f.expired,
          f.relistCost.pages,
          f.relistCost.items,
          f.relistCost.etcdRequests,
          f.relistCost.ms,
        ],
        [relists, expired, pages, items, etcd, ms],
        `at ${at}`,
      );
    }
    assert.strictEqual(clientFiguresAt(c, 1450).relistCost.keysFetched, 800);
  });
});

describe('clientRecords: a LIST sent as a watch is no restart', () => {
  it("kubectl wait's WatchList fails in the stream, then its List streams: a LIST, not a restart", () => {
    // etcd 3.4 (RequestWatchProgress disabled): the reflector's WatchList ends with an error, it
    // falls back to LIST, and client-go's dynamic List sends that LIST as a watch (rv 0, no
    // timeoutSeconds), which fails the same way before the plain LIST.
    const r = new Run();
    r.watch('wait', 0, { rv: '', initialEvents: true, end: { at: 50, how: 'terminated' } });
    r.watch('wait', 50, {
      rv: '0',
      initialEvents: true,
      listByWatch: true,
      end: { at: 100, how: 'terminated' },
    });
    const [c] = r.clients();
    const [, second] = c.requests as ClientWatchRequest[];
    assert.deepStrictEqual([second.listByWatch, second.restart], [{ after: 0 }, undefined]);
    assert.strictEqual(clientFiguresAt(c, 100).restarts, 0);
  });
});

describe('clientRecords: a WatchList client relists by watching', () => {
  const tooOld = { code: 410, reason: 'Expired', message: 'too old resource version: 101 (8901)' };
  // A WatchList reflector (client-go reflector.go watchList): its list is a sendInitialEvents watch;
  // after a failed watch it sends another one. Which next watch is a relist, which a restart.
  const cases: Array<{
    name: string;
    end: 'refused 410' | 'timeout' | 'terminated';
    /** The watch that ended: a WatchList one, sent its initial-events-end bookmark or not. */
    ended?: { initialEvents: true; listed: boolean };
    next: { gapMs: number; initialEvents: boolean };
    want: 'relist' | 'restart';
  }> = [
    {
      name: 'a listed WatchList watch terminated, a sendInitialEvents watch 1 s later',
      end: 'terminated',
      ended: { initialEvents: true, listed: true },
      next: { gapMs: 1000, initialEvents: true },
      want: 'relist',
    },
    {
      // The failed WatchList watch was the list itself (watchlist-starvation's 504): a retry.
      name: 'a WatchList watch terminated before its initial events ended, another 1 s later',
      end: 'terminated',
      ended: { initialEvents: true, listed: false },
      next: { gapMs: 1000, initialEvents: true },
      want: 'restart',
    },
    {
      name: 'a WatchList watch refused with 410, another 1 s later',
      end: 'refused 410',
      ended: { initialEvents: true, listed: false },
      next: { gapMs: 1000, initialEvents: true },
      want: 'restart',
    },
    {
      name: '410, a sendInitialEvents watch 1 s later',
      end: 'refused 410',
      next: { gapMs: 1000, initialEvents: true },
      want: 'relist',
    },
    {
      name: 'terminated, a sendInitialEvents watch at the window',
      end: 'terminated',
      next: { gapMs: relistWindowMs, initialEvents: true },
      want: 'relist',
    },
    {
      name: '410, a sendInitialEvents watch past the window',
      end: 'refused 410',
      next: { gapMs: relistWindowMs + 1, initialEvents: true },
      want: 'restart',
    },
    {
      name: 'timeout, a sendInitialEvents watch at once',
      end: 'timeout',
      next: { gapMs: 0, initialEvents: true },
      want: 'restart',
    },
    {
      name: 'terminated, a plain watch from an RV',
      end: 'terminated',
      next: { gapMs: 1000, initialEvents: false },
      want: 'restart',
    },
  ];
  for (const tc of cases) {
    it(`${tc.want}: ${tc.name}`, () => {
      const r = new Run();
      const endAt = 30_000;
      r.watch('wl', 0, { initialEvents: true, lastRv: 100, end: { at: 20, how: 'timeout' } });
      const ended = tc.ended ?? { initialEvents: false, listed: false };
      if (tc.end === 'refused 410')
        r.watch('wl', endAt, { rv: '101', refused: tooOld, initialEvents: ended.initialEvents });
      else r.watch('wl', 20, { rv: '100', end: { at: endAt, how: tc.end }, ...ended });
      r.watch('wl', endAt + tc.next.gapMs, { rv: '', initialEvents: tc.next.initialEvents });
      const [c] = r.clients();
      const last = c.requests[2] as ClientWatchRequest;
      const because = tc.end === 'refused 410' ? 'expired' : tc.end;
      if (tc.want === 'relist') {
        assert.deepStrictEqual(
          last.relist,
          { afterWatch: 1, gapMs: tc.next.gapMs, because },
          tc.name,
        );
        assert.strictEqual(last.restart, undefined, tc.name);
      } else {
        assert.strictEqual(last.relist, undefined, tc.name);
        assert.ok(last.restart, tc.name);
      }
      const f = clientFiguresAt(c, endAt + tc.next.gapMs);
      // The second watch restarted the first (which timed out); the third relists or restarts.
      assert.deepStrictEqual(
        [f.relists, f.watchListRelists, f.restarts],
        tc.want === 'relist' ? [1, 1, 1] : [0, 0, 2],
        tc.name,
      );
    });
  }

  it('watchlist-starvation: a WatchList watch refused while the cache is stuck is retried, not relisted', async () => {
    // As the Clients tab shows it (test/e2e/clients-view.test.ts): every WATCH after the first
    // restarts; none relists, since no list had succeeded before the 504s.
    const { model } = await runScenario('watchlist-starvation', { watchers: 3 });
    const clients = model.clients ?? [];
    assert.strictEqual(clients.length, 3);
    for (const c of clients) {
      const f = clientFiguresAt(c, model.durationMs);
      assert.ok(f.watches >= 2, c.client);
      assert.deepStrictEqual([f.relists, f.restarts], [0, f.watches - 1], c.client);
    }
  });

  it('`listwatch report` counts the user agents that sent the LISTs, not every one', () => {
    const r = new Run();
    r.watch('wl-ctl/1.35', 0, { initialEvents: true, lastRv: 100 });
    r.list('lw-ctl/1.33', 0, 10, { kvs: 3 });
    r.list('lw-ctl/1.33', 800, 810, { kvs: 3 });
    const summary = summarizeRecordedRun(r.model());
    assert.match(summary.story[0], /^2 LISTs from 1 user agent /, summary.story.join('\n'));
  });

  it("`listwatch report`'s freshness waits count a WatchList WATCH's wait, as the metric does", () => {
    const b = new RunModelBuilder(liveRunHeader());
    const gr = { group: '', resource: 'pods' };
    b.addInput(0, {
      action: 'watch',
      client: 'kubectl/v1.35',
      requestId: 4,
      request: '/api/v1/pods?watch=1&sendInitialEvents=true&allowWatchBookmarks=true',
    });
    b.add({
      type: 'watchcache/wait',
      at: 1,
      groupResource: gr,
      requestId: 4,
      resourceVersion: 20,
      cacheResourceVersion: 20,
      waitedMs: 3,
      outcome: 'caught-up',
    });
    b.addInput(5, { action: 'watch-opened', client: 'kubectl/v1.35', requestId: 4, watcherId: 1 });
    const summary = summarizeRecordedRun(b.finish());
    const t = summary.tables.find((x) => x.title.startsWith('Per user agent'));
    assert.ok(t);
    const col = t.columns.indexOf('freshness waits');
    assert.ok(col > 0, t.columns.join(', '));
    assert.deepStrictEqual(
      t.rows.map((row) => [row[0], row[col]]),
      [['kubectl/v1.35', 1]],
    );
    assert.match(t.note ?? '', /apiserver_watch_cache_read_wait_seconds_count/);
  });

  it('`listwatch report` of a live run names the WatchList relist and its rule', () => {
    const r = new Run();
    r.watch('wl-ctl/1.35', 0, {
      initialEvents: true,
      lastRv: 100,
      end: { at: 20, how: 'timeout' },
    });
    r.watch('wl-ctl/1.35', 20, { rv: '100', end: { at: 30_000, how: 'terminated' } });
    r.watch('wl-ctl/1.35', 31_000, { rv: '', initialEvents: true });
    r.list('lw-ctl/1.33', 0, 10, { kvs: 3 });
    r.watch('lw-ctl/1.33', 20, { rv: '100', refused: tooOld });
    r.list('lw-ctl/1.33', 800, 810, { kvs: 3 });
    const summary = summarizeRecordedRun(r.model());
    assert.ok(
      summary.story.includes('2 relists: LIST ×1, WatchList WATCH (sendInitialEvents=true) ×1.'),
      summary.story.join('\n'),
    );
    assert.strictEqual(summary.facts.relists, 2);
    const t = summary.tables.find((x) => x.title === 'Relists');
    assert.ok(t, summary.tables.map((x) => x.title).join(', '));
    assert.deepStrictEqual(
      t.rows.map((row) => [row[1], row[2], row[4], row[5]]),
      [
        ['lw-ctl/1.33', 'LIST', 'expired', 780],
        ['wl-ctl/1.35', 'WatchList WATCH (sendInitialEvents=true)', 'terminated', 1000],
      ],
    );
    assert.match(t.note ?? '', /WATCH with sendInitialEvents=true/);
  });
});

describe('clientRecords: a live run', () => {
  const kubectl = 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0';
  it('groups by user agent and connection; watchers carry the user agent', () => {
    const r = new Run();
    // kubectl get pods -w: a LIST then a WATCH on one connection; a second kubectl on another.
    r.list(kubectl, 100, 110, { kvs: 3, connection: 'c1' });
    const w1 = r.watch(kubectl, 120, { rv: '100', connection: 'c1' });
    r.list(kubectl, 500, 505, { kvs: 3, connection: 'c2' });
    r.list('relisty-operator/v0.3.1', 600, 601, { kvs: 3, connection: 'c3' });
    const model = r.b.finish();
    const clients = model.clients ?? [];
    assert.deepStrictEqual(
      clients.map((c) => [c.id, c.client, c.connection, c.requests.map((q) => q.kind)]),
      [
        [`${kubectl} · c1`, kubectl, 'c1', ['list', 'watch']],
        [`${kubectl} · c2`, kubectl, 'c2', ['list']],
        ['relisty-operator/v0.3.1 · c3', 'relisty-operator/v0.3.1', 'c3', ['list']],
      ],
    );
    assert.strictEqual(model.watchers.find((w) => w.id === w1)?.client, kubectl);
    assert.strictEqual(model.watchRequests?.[0].connection, 'c1');
    assert.strictEqual(model.lists[0].connection, 'c1');
    // A live run calls finish again as it grows: the same records, plus what came since.
    r.watch(kubectl, 700, { rv: '100', connection: 'c2' });
    assert.deepStrictEqual(
      (r.b.finish().clients ?? []).map((c) => c.requests.length),
      [2, 2, 1],
    );
  });

  it('one program reconnecting (a connection per request, as client-node) is one client; overlapping connections stay apart, and a user agent that reuses connections keeps one client per connection', () => {
    const r = new Run();
    const node = 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)';
    r.list(node, 100, 110, { kvs: 3, connection: 'c4' });
    r.watch(node, 120, { rv: '100', connection: 'c5', end: { at: 300, how: 'terminated' } });
    r.watch(node, 301, {
      rv: '100',
      connection: 'c6',
      refused: { code: 410, reason: 'Expired', message: 'too old resource version: 100 (105)' },
    });
    r.list(node, 400, 410, { kvs: 4, connection: 'c7' });
    // A second informer of the same program while the first watch is open: its own client.
    r.list(node, 200, 210, { kvs: 3, connection: 'c8' });
    const clients = r.b.finish().clients ?? [];
    assert.deepStrictEqual(
      clients.map((c) => [c.connection, c.requests.map((q) => q.kind)]),
      [
        ['c4, c5, c6, c7', ['list', 'watch', 'watch', 'list']],
        ['c8', ['list']],
      ],
    );
    const relist = clients[0].chains.find((c) => c.relist);
    assert.ok(relist, 'the LIST after the 410 is a relist');
    assert.strictEqual(relist.relist?.because, 'expired');
    // The same program once sends two requests on one connection: every connection is its own.
    r.list(node, 500, 510, { kvs: 4, connection: 'c9' });
    r.list(node, 520, 530, { kvs: 4, connection: 'c9' });
    assert.deepStrictEqual(
      (r.b.finish().clients ?? []).map((c) => c.connection),
      ['c4', 'c5', 'c8', 'c6', 'c7', 'c9'],
    );
  });

  // Connections that follow one another, one LIST or WATCH each, are one client only where the
  // requests prove it (kubectl's Kubectl-Session header, one per process) or the row says it is
  // inferred and from what.
  const k132 = 'kubectl.1.32/v1.32.5 (linux/amd64) kubernetes/9894294';
  const groupings: Array<{
    name: string;
    sent: Array<{ at: number; connection: string; session?: string; watch?: boolean }>;
    clients: Array<[string, string | undefined]>;
  }> = [
    {
      name: 'three kubectl get processes one after another (three Kubectl-Sessions): three clients',
      sent: [
        { at: 100, connection: 'c16', session: 's-1' },
        { at: 200, connection: 'c17', session: 's-2' },
        { at: 300, connection: 'c18', session: 's-3' },
      ],
      clients: [
        ['c16', undefined],
        ['c17', undefined],
        ['c18', undefined],
      ],
    },
    {
      name: 'one kubectl process on connections one after another (one Kubectl-Session): one client, proven',
      sent: [
        { at: 100, connection: 'c16', session: 's-1' },
        { at: 200, connection: 'c17', session: 's-1', watch: true },
      ],
      clients: [
        [
          'c16, c17',
          'one process: every request carried the same Kubectl-Session header (kubectl sends one per process)',
        ],
      ],
    },
    {
      name: 'no Kubectl-Session (client-node, kubectl with KUBECTL_COMMAND_HEADERS=false): one client, labelled an inference',
      sent: [
        { at: 100, connection: 'c16' },
        { at: 200, connection: 'c17', watch: true },
        { at: 300, connection: 'c18' },
      ],
      clients: [
        [
          'c16, c17, c18',
          'inferred, not proven: taken as one program because this user agent never sent two LISTs or WATCHes on one connection and these connections followed one another; separate processes with one request each look the same',
        ],
      ],
    },
  ];
  for (const g of groupings)
    it(`connections one after another: ${g.name}`, () => {
      const r = new Run();
      for (const s of g.sent)
        if (s.watch)
          r.watch(k132, s.at, {
            rv: '100',
            connection: s.connection,
            session: s.session,
            end: { at: s.at + 50, how: 'disconnected' },
          });
        else
          r.list(k132, s.at, s.at + 10, { kvs: 3, connection: s.connection, session: s.session });
      const clients = r.b.finish().clients ?? [];
      assert.deepStrictEqual(
        clients.map((c) => [c.connection, c.grouping]),
        g.clients,
      );
      // The Clients table's Connection cell says an inferred join in a word.
      assert.deepStrictEqual(
        clients.map((c) => connectionText(c)),
        g.clients.map(([connection, grouping]) =>
          grouping?.startsWith('inferred') ? `${connection} (inferred)` : connection,
        ),
      );
    });

  const names: Array<[string, string]> = [
    [kubectl, 'kubectl/v1.33.1'],
    ['relisty-operator/v0.3.1', 'relisty-operator/v0.3.1'],
    ['watcher-000001', 'watcher-000001'],
    ['  node-fetch/1.0 (+https://github.com/bitinn/node-fetch)', 'node-fetch/1.0'],
    ['', ''],
  ];
  for (const [ua, short] of names)
    it(`shortClientName(${JSON.stringify(ua)})`, () =>
      assert.strictEqual(shortClientName(ua), short));
});
