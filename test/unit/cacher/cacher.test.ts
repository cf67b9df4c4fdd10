// Tests for src/engine/cacher/cacher.ts: ports of k8s.io/apiserver pkg/storage/cacher
// cacher_whitebox_test.go (release-1.36) at the cacher level (dispatch, bookmarks, caching objects,
// watch registration), over a MockStorage and a FakeClock.
import * as assert from 'assert';
import { FakeClock, settle } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { newListOptions, type ListOptions } from '../../../src/engine/storage/list-options';
import { SelectionPredicate } from '../../../src/engine/storage/selection-predicate';
import * as labels from '../../../src/engine/storage/labels';
import * as fields from '../../../src/engine/storage/fields';
import {
  isTooManyRequests,
  newResourceExpired,
  newTooLargeResourceVersionError,
  StatusError,
  type Status,
} from '../../../src/engine/storage/errors';
import { RecordingSink } from '../../../src/engine/inspect/events';
import {
  Cacher,
  goDuration,
  jitter,
  newErrWatcher,
  watchRequestTimeout,
} from '../../../src/engine/cacher/cacher';
import { namespaceKeyFunc, prepareKey } from '../../../src/engine/storage/keys';
import { CachingObject } from '../../../src/engine/cacher/caching-object';
import { newTimeBucketWatchers } from '../../../src/engine/cacher/bookmark-buckets';
import { bufferSize } from '../../../src/engine/cacher/watch-cache-interval';
import { WatchRequestContext } from '../../../src/engine/clients/watch-client';
import type { TimeBudget } from '../../../src/engine/cacher/time-budget';
import type { WatchEvent, WatchInterface } from '../../../src/engine/cacher/watch';
import { CacheWatcher } from '../../../src/engine/cacher/cache-watcher';
import {
  MockStorage,
  describeEvent,
  drain,
  eventObject,
  makeTestPod,
  newTestCacher,
  newTestCacherWithoutSyncing,
  readEvents,
  testGates,
} from './cacher-testing';

/** storage.Everything, optionally with bookmarks. */
function everything(allowWatchBookmarks = false): SelectionPredicate {
  return new SelectionPredicate({ allowWatchBookmarks });
}

function watchOpts(
  resourceVersion: string,
  predicate = everything(),
  extra: Partial<ListOptions> = {},
): ListOptions {
  return newListOptions({ resourceVersion, predicate, recursive: true, ...extra });
}

/** fakeTimeBudget: always 2s to wait for blocked watchers. */
const fakeTimeBudget: TimeBudget = { takeAvailable: () => 2000, returnUnused: () => undefined };

describe('Cacher (cacher.go)', () => {
  describe('NewCacherFromConfig', () => {
    it('rejects bad resource prefixes and a history window below 75s, with upstream messages', () => {
      const cases: Array<{ name: string; resourcePrefix: string; window?: number; want: string }> =
        [
          { name: 'empty prefix', resourcePrefix: '', want: 'resourcePrefix cannot be empty' },
          { name: 'root prefix', resourcePrefix: '/', want: 'resourcePrefix cannot be /' },
          {
            name: 'relative prefix',
            resourcePrefix: 'pods',
            want: 'resourcePrefix needs to start from /',
          },
          {
            name: 'short window',
            resourcePrefix: '/pods',
            window: 60_000,
            want: 'config.EventsHistoryWindow (1m0s) must not be below 1m15s',
          },
        ];
      for (const c of cases) {
        assert.throws(
          () =>
            new Cacher({
              storage: new MockStorage(),
              groupResource: { group: '', resource: 'pods' },
              resourcePrefix: c.resourcePrefix,
              eventsHistoryWindow: c.window,
              clock: new FakeClock(),
              rand: new SeededRandom(1),
              dispatchOrderRand: new SeededRandom(2),
              gates: testGates(),
            }),
          (e: Error) => e.message === c.want,
          c.name,
        );
      }
    });

    it('goDuration formats like Go', () => {
      const cases: Array<[number, string]> = [
        [75_000, '1m15s'],
        [60_000, '1m0s'],
        [1500, '1.5s'],
        [0, '0s'],
        [250, '250ms'],
        [3_600_000, '1h0m0s'],
      ];
      for (const [ms, want] of cases) assert.strictEqual(goDuration(ms), want, `${ms}ms`);
    });

    it('prepareKey: storage.PrepareKey rules', () => {
      const cases: Array<{ key: string; recursive: boolean; want?: string; err?: string }> = [
        { key: '/pods/ns', recursive: true, want: '/pods/ns/' },
        { key: '/pods/ns/', recursive: true, want: '/pods/ns/' },
        { key: '/pods/ns/foo', recursive: false, want: '/pods/ns/foo' },
        { key: '/pods/../x', recursive: true, err: 'invalid key: "/pods/../x"' },
        { key: '/pods/./x', recursive: true, err: 'invalid key: "/pods/./x"' },
        { key: '/', recursive: true, err: 'empty key: "/"' },
        {
          key: '/nodes/a',
          recursive: false,
          err: 'invalid key: "/nodes/a" lacks resource prefix: "/pods/"',
        },
      ];
      for (const c of cases) {
        if (c.want !== undefined)
          assert.strictEqual(prepareKey('/pods/', c.key, c.recursive), c.want, c.key);
        else
          assert.throws(
            () => prepareKey('/pods/', c.key, c.recursive),
            (e: Error) => e.message === c.err,
            c.key,
          );
      }
    });

    it('namespaceKeyFunc and the handler watch timeout', () => {
      assert.strictEqual(namespaceKeyFunc('/pods/')(makeTestPod('a', 1)), '/pods/ns/a');
      assert.strictEqual(namespaceKeyFunc('/nodes')({ metadata: { name: 'n1' } }), '/nodes/n1');
      assert.strictEqual(
        watchRequestTimeout(5, 1_800_000, new SeededRandom(1)),
        5000,
        'timeoutSeconds wins',
      );
      assert.strictEqual(
        watchRequestTimeout(-1, 1_800_000, new SeededRandom(1)),
        0,
        'a negative timeoutSeconds is a deadline already passed, not the random default',
      );
      // time.Duration(*opts.TimeoutSeconds) * time.Second is int64 nanoseconds: it wraps.
      const overflows: [number, number][] = [
        [9_223_372_036, 9_223_372_036_000],
        [9_223_372_037, 0],
        [18_446_744_074, 290.448384],
        [Number.MAX_SAFE_INTEGER, Number(4_611_686_017_427_387_904n) / 1e6],
      ];
      for (const [seconds, ms] of overflows)
        assert.strictEqual(
          watchRequestTimeout(seconds, 1_800_000, new SeededRandom(1)),
          ms,
          `timeoutSeconds=${seconds} as Go's Duration`,
        );
      const zero = watchRequestTimeout(0, 1_800_000, new SeededRandom(1));
      assert.ok(zero >= 1_800_000, `timeoutSeconds=0 takes the random default (${zero})`);
      const r = new SeededRandom(3);
      for (let i = 0; i < 50; i++) {
        const t = watchRequestTimeout(undefined, 1_800_000, r);
        assert.ok(t >= 1_800_000 && t < 3_600_000, `random timeout ${t} in [30m, 60m)`);
      }
      const jr = new SeededRandom(9);
      for (let i = 0; i < 50; i++) {
        const j = jitter(jr, 1000, 0.25);
        assert.ok(j >= 1000 && j < 1250, `bookmark jitter ${j} in [1s, 1.25s)`);
      }
    });
  });

  describe('watch registration', () => {
    it('TestWatchListIsSynchronisedWhenNoEventsFromStoreReceived: exactly one initial-events-end bookmark', async () => {
      const { cacher } = await newTestCacher();
      const w = await cacher.watch(
        '/pods/ns',
        watchOpts('', everything(true), { sendInitialEvents: true }),
      );
      const { events } = await drain(w);
      assert.deepStrictEqual(events.map(describeEvent), ['BOOKMARK @100 (initial-events-end)']);
      assert.deepStrictEqual(eventObject(events[0]).metadata, {
        resourceVersion: '100',
        annotations: { 'k8s.io/initial-events-end': 'true' },
      });
      cacher.stop();
    });

    it('TestInitialEventsEndBookmark: only allowWatchBookmarks && sendInitialEvents adds the bookmark', async () => {
      const { cacher } = await newTestCacher();
      for (let i = 1; i <= 3; i++) cacher.watchCache.add(makeTestPod(`pod-${i}`, 100 + i));
      await settle();
      const pods = ['ADDED pod-1@101', 'ADDED pod-2@102', 'ADDED pod-3@103'];
      const cases: Array<{ name: string; allow: boolean; sie?: boolean; want: string[] }> = [
        {
          name: 'allowWatchBookmarks=false, sendInitialEvents=false',
          allow: false,
          sie: false,
          want: pods,
        },
        {
          name: 'allowWatchBookmarks=false, sendInitialEvents=true',
          allow: false,
          sie: true,
          want: pods,
        },
        {
          name: 'allowWatchBookmarks=true, sendInitialEvents=true',
          allow: true,
          sie: true,
          want: [...pods, 'BOOKMARK @103 (initial-events-end)'],
        },
        {
          name: 'allowWatchBookmarks=true, sendInitialEvents=false',
          allow: true,
          sie: false,
          want: pods,
        },
        {
          name: 'allowWatchBookmarks=true, sendInitialEvents=nil',
          allow: true,
          sie: undefined,
          want: pods,
        },
      ];
      for (const c of cases) {
        const w = await cacher.watch(
          '/pods/ns',
          watchOpts('100', everything(c.allow), { sendInitialEvents: c.sie }),
        );
        const { events, closed } = await drain(w);
        assert.deepStrictEqual(events.map(describeEvent), c.want, c.name);
        assert.strictEqual(closed, false, `${c.name}: still open`);
        w.stop();
      }
      cacher.stop();
    });

    it('TestWaitUntilWatchCacheFreshAndForceAllEvents: a 504 ERROR event after 3s, then the pod once the cache catches up', async () => {
      const primed = (): MockStorage => {
        let hasBeenPrimed = false;
        const s = new MockStorage();
        s.getListFn = () => {
          const rv = hasBeenPrimed ? '105' : '100';
          hasBeenPrimed = true;
          return { items: [], resourceVersion: rv };
        };
        s.getRVFn = () => {
          if (!hasBeenPrimed) {
            hasBeenPrimed = true;
            return 100;
          }
          return 105;
        };
        return s;
      };
      const cases: Array<{ name: string; opts: () => ListOptions; storage: () => MockStorage }> = [
        {
          name: 'allowWatchBookmarks=true, sendInitialEvents=true, RV=105',
          opts: () => watchOpts('105', everything(true), { sendInitialEvents: true }),
          storage: () => new MockStorage(),
        },
        {
          name: 'legacy: allowWatchBookmarks=false, sendInitialEvents=true, RV=unset',
          opts: () => watchOpts('', everything(false), { sendInitialEvents: true }),
          storage: primed,
        },
        {
          name: 'allowWatchBookmarks=true, sendInitialEvents=true, RV=unset',
          opts: () => watchOpts('', everything(true), { sendInitialEvents: true }),
          storage: primed,
        },
      ];
      const expected = newTooLargeResourceVersionError(105, 100, 1).status;
      for (const c of cases) {
        const storage = c.storage();
        const { cacher, clock } = await newTestCacher(storage);
        const pending = cacher.watch('/pods/ns', c.opts());
        await clock.stepAsync(3000);
        const w = await pending;
        const { events, closed } = await drain(w);
        assert.strictEqual(events.length, 1, `${c.name}: one event`);
        assert.strictEqual(events[0].type, 'ERROR', c.name);
        const status = events[0].object as unknown as Status;
        assert.deepStrictEqual(
          {
            message: status.message,
            reason: status.reason,
            code: status.code,
            details: status.details,
          },
          {
            message: expected.message,
            reason: 'Timeout',
            code: 504,
            details: expected.details,
          },
          c.name,
        );
        assert.ok(closed, `${c.name}: closed after the error`);
        assert.ok(
          storage.requestWatchProgressCounter > 0,
          `${c.name}: watch progress was requested`,
        );

        const second = cacher.watch('/pods/ns', c.opts());
        cacher.watchCache.add({
          metadata: {
            name: 'pod1',
            namespace: 'ns',
            resourceVersion: '105',
            labels: { label: 'value1' },
          },
          spec: { nodeName: 'node1' },
        } as never);
        const w2 = await second;
        const got = await drain(w2);
        const pods = got.events.filter((e) => e.type !== 'BOOKMARK').map(describeEvent);
        assert.deepStrictEqual(pods, ['ADDED pod1@105'], c.name);
        w2.stop();
        cacher.stop();
      }
    });

    it('TestEmptyWatchEventCache-like: an RV older than the list gets a 410 ERROR, newer ones wait', async () => {
      const { cacher } = await newTestCacher();
      const cases: Array<{ name: string; rv: string; wantError: boolean }> = [
        { name: 'RV-2', rv: '98', wantError: true },
        { name: 'RV-1', rv: '99', wantError: true },
        { name: 'RV', rv: '100', wantError: false },
        { name: 'RV+1', rv: '101', wantError: false },
      ];
      for (const c of cases) {
        const w = await cacher.watch('/pods/ns', watchOpts(c.rv));
        const { events } = await drain(w);
        if (c.wantError) {
          assert.strictEqual(events.length, 1, c.name);
          const s = events[0].object as unknown as Status;
          assert.strictEqual(events[0].type, 'ERROR', c.name);
          assert.deepStrictEqual(
            [s.code, s.reason, s.message],
            [410, 'Expired', `too old resource version: ${c.rv} (100)`],
            c.name,
          );
        } else {
          assert.strictEqual(events.length, 0, c.name);
        }
        w.stop();
      }
      cacher.stop();
    });

    it('TestStartingResourceVersion: a watch from an RV ahead of the cache starts after it', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.dispatchTimeoutBudget = fakeTimeBudget;
      const pod = (i: number) => ({
        metadata: {
          name: 'foo',
          namespace: 'ns',
          labels: { foo: String(i) },
          resourceVersion: String(i),
        },
      });
      cacher.watchCache.add(pod(1000));
      const w = await cacher.watch(
        '/pods/ns/foo',
        newListOptions({ resourceVersion: '1010', predicate: everything() }),
      );
      for (let i = 1; i <= 11; i++) cacher.watchCache.update(pod(1000 + i));
      const { events } = await readEvents(clock, w, 1);
      assert.strictEqual(events.length, 1);
      assert.ok(
        Number(eventObject(events[0]).metadata.resourceVersion) > 1010,
        describeEvent(events[0]),
      );
      w.stop();
      cacher.stop();
    });

    it('a watch with an unparsable resourceVersion is rejected (not an ERROR event)', async () => {
      const { cacher } = await newTestCacher();
      await assert.rejects(cacher.watch('/pods/ns', watchOpts('abc')), /resourceVersion/);
      await assert.rejects(cacher.watch('/nodes', watchOpts('0')), /lacks resource prefix/);
      cacher.stop();
    });

    it('the error watcher: one ERROR event with the Status, then closed', async () => {
      const w = newErrWatcher(newResourceExpired('too old resource version: 1 (5)'));
      const a = await drain(w);
      assert.deepStrictEqual(
        a.events.map((e) => [e.type, (e.object as unknown as Status).code]),
        [['ERROR', 410]],
      );
      assert.ok(a.closed);
      const b = await drain(newErrWatcher(new Error('boom')));
      const s = b.events[0].object as unknown as Status;
      assert.deepStrictEqual([s.code, s.reason, s.message], [500, 'InternalError', 'boom']);
    });

    it('TestWatchNotHangingOnStartupFailure: a cache that cannot initialise answers watches with 429', async () => {
      const storage = new MockStorage({ watchErr: new Error('dummy') });
      const { cacher, clock } = newTestCacherWithoutSyncing(storage);
      await clock.stepAsync(1000);
      await assert.rejects(
        cacher.watch('/pods/ns', watchOpts('0')),
        (e: unknown) =>
          isTooManyRequests(e) && /storage is \(re\)initializing/.test((e as Error).message),
      );
      cacher.stop();
    });

    it('TestCacherDontAcceptRequestsStopped: after stop the watch closes and new watches are refused', async () => {
      const { cacher, delegator } = await newTestCacher();
      const w = await delegator.watch('/pods/ns', watchOpts('0'));
      cacher.stop();
      await settle();
      const a = await drain(w);
      assert.ok(a.closed, 'the open watch closed');
      await assert.rejects(
        delegator.watch('/pods/ns', watchOpts('0')),
        (e: unknown) =>
          isTooManyRequests(e) && (e as Error).message === 'apiserver cacher is stopped',
      );
      // Gets and lists with an RV are not refused with Resilient initialisation: they go to storage.
      assert.strictEqual(
        await delegator.get('/pods/ns/pod-0', { ignoreNotFound: true, resourceVersion: '1' }),
        undefined,
      );
      const l = await delegator.getList(
        '/pods/ns',
        newListOptions({
          resourceVersion: '1',
          recursive: true,
          predicate: new SelectionPredicate({ limit: 500 }),
        }),
      );
      assert.strictEqual(l.resourceVersion, '100');
    });

    it('watchers are indexed by scope: request namespace, field-selector namespace/name, trigger value', async () => {
      const { cacher } = await newTestCacher(new MockStorage(), {
        indexedTrigger: {
          indexName: 'spec.nodeName',
          indexerFunc: (o) => (o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '',
        },
      });
      const pred = (field: string) =>
        new SelectionPredicate({
          field: fields.parseSelector(field),
          indexFields: ['spec.nodeName'],
        });
      const ws: Array<{ name: string; w: WatchInterface }> = [];
      ws.push({ name: 'all', w: await cacher.watch('/pods/', watchOpts('100')) });
      ws.push({
        name: 'request ns',
        w: await cacher.watch('/pods/ns', watchOpts('100'), { requestNamespace: 'ns' }),
      });
      ws.push({
        name: 'selector ns=other',
        w: await cacher.watch('/pods/', watchOpts('100', pred('metadata.namespace=other'))),
      });
      ws.push({
        name: 'node a',
        w: await cacher.watch('/pods/', watchOpts('100', pred('spec.nodeName=a'))),
      });
      ws.push({
        name: 'node b',
        w: await cacher.watch('/pods/', watchOpts('100', pred('spec.nodeName=b'))),
      });
      assert.strictEqual(cacher.watcherCount(), 5);
      assert.deepStrictEqual([...cacher.watchers.allWatchers.keys()].sort(), [
        '\u0000',
        'ns\u0000',
        'other\u0000',
      ]);
      assert.deepStrictEqual([...cacher.watchers.valueWatchers.keys()].sort(), ['a', 'b']);
      const insp = new RecordingSink();
      (cacher as unknown as { eventSink: RecordingSink }).eventSink = insp;
      cacher.watchCache.add({
        metadata: { name: 'p', namespace: 'ns', resourceVersion: '101' },
        spec: { nodeName: 'a' },
      } as never);
      await settle();
      const d = insp.ofType('cacher/dispatch');
      assert.strictEqual(d.length, 1);
      assert.strictEqual(d[0].candidates, 3, 'all + request ns + node a');
      const got = await Promise.all(
        ws.map(async (x) => ({ name: x.name, n: (await drain(x.w)).events.length })),
      );
      assert.deepStrictEqual(got, [
        { name: 'all', n: 1 },
        { name: 'request ns', n: 1 },
        { name: 'selector ns=other', n: 0 },
        { name: 'node a', n: 1 },
        { name: 'node b', n: 0 },
      ]);
      // A pod moving from node a to node b reaches both trigger values (DELETED for a, ADDED for b).
      cacher.watchCache.update({
        metadata: { name: 'p', namespace: 'ns', resourceVersion: '102' },
        spec: { nodeName: 'b' },
      } as never);
      const a = await drain(ws[3].w);
      const b = await drain(ws[4].w);
      assert.deepStrictEqual(a.events.map(describeEvent), ['DELETED p@102']);
      assert.deepStrictEqual(b.events.map(describeEvent), ['ADDED p@102']);
      for (const x of ws) x.w.stop();
      await settle();
      assert.strictEqual(cacher.watcherCount(), 0, 'stopped watchers are forgotten');
      cacher.stop();
    });

    it('TestForgetWatcher: forgetting twice is harmless', async () => {
      const { cacher } = await newTestCacher();
      const w = await cacher.watch('/pods/', watchOpts('100'));
      assert.strictEqual(cacher.watchers.allWatchers.size, 1);
      w.stop();
      assert.strictEqual(cacher.watchers.allWatchers.size, 0);
      w.stop();
      assert.strictEqual(cacher.watchers.allWatchers.size, 0);
      cacher.stop();
    });
  });

  describe('dispatch', () => {
    it('TestCachingDeleteEvents: selector transitions and DELETE objects at the delete RV', async () => {
      const { cacher } = await newTestCacher();
      const sel = (s: string) => new SelectionPredicate({ label: labels.parse(s) });
      const all = await cacher.watch('/pods/ns', watchOpts('999'));
      const foo = await cacher.watch('/pods/ns', watchOpts('999', sel('foo=true')));
      const bar = await cacher.watch('/pods/ns', watchOpts('999', sel('bar=true')));
      const pod = (l: Record<string, string>, rv: string) => makeTestPod('pod', rv, l);
      cacher.watchCache.add(pod({ foo: 'true', bar: 'true' }, '1001'));
      cacher.watchCache.update(pod({ foo: 'true' }, '1002'));
      cacher.watchCache.update(pod({}, '1003'));
      cacher.watchCache.delete(pod({}, '1004'));
      const render = (e: WatchEvent) =>
        `${e.type} ${JSON.stringify(eventObject(e).metadata.labels ?? {})}@${eventObject(e).metadata.resourceVersion}`;
      const cases: Array<{ name: string; w: WatchInterface; want: string[] }> = [
        {
          name: 'all',
          w: all,
          want: [
            'ADDED {"foo":"true","bar":"true"}@1001',
            'MODIFIED {"foo":"true"}@1002',
            'MODIFIED {}@1003',
            'DELETED {}@1004',
          ],
        },
        {
          name: 'foo',
          w: foo,
          want: [
            'ADDED {"foo":"true","bar":"true"}@1001',
            'MODIFIED {"foo":"true"}@1002',
            'DELETED {"foo":"true"}@1003',
          ],
        },
        {
          name: 'bar',
          w: bar,
          want: [
            'ADDED {"foo":"true","bar":"true"}@1001',
            'DELETED {"foo":"true","bar":"true"}@1002',
          ],
        },
      ];
      for (const c of cases)
        assert.deepStrictEqual((await drain(c.w)).events.map(render), c.want, c.name);
      cacher.stop();
    });

    it('TestCachingObjects: dispatched objects are CachingObjects equal to the history events', async () => {
      for (const watchersCount of [1, 3]) {
        const { cacher } = await newTestCacher();
        const watchers: WatchInterface[] = [];
        for (let i = 0; i < watchersCount; i++)
          watchers.push(await cacher.watch('/pods/ns', watchOpts('1000')));
        cacher.watchCache.add(makeTestPod('pod', '1001'));
        cacher.watchCache.update(makeTestPod('pod', '1002'));
        cacher.watchCache.delete(makeTestPod('pod', '1003'));
        const history = cacher.watchCache.history.events();
        for (const [wi, w] of watchers.entries()) {
          const { events } = await drain(w);
          assert.strictEqual(
            events.length,
            history.length,
            `${watchersCount} watchers, #${wi}: count`,
          );
          for (const [i, e] of events.entries()) {
            assert.ok(
              e.object instanceof CachingObject,
              `${watchersCount}/${wi}: ${e.type} object should support caching`,
            );
            const h = history[i];
            const want =
              e.type === 'DELETED'
                ? {
                    ...h.prevObject,
                    metadata: {
                      ...h.prevObject?.metadata,
                      resourceVersion: String(h.resourceVersion),
                    },
                  }
                : h.object;
            assert.deepStrictEqual(
              (e.object as CachingObject).getObject(),
              want,
              `${watchersCount}/${wi}: ${e.type}`,
            );
          }
        }
        cacher.stop();
      }
    });

    it('TestDispatchEventWillNotBeBlockedByTimedOutWatcher: a fast watcher gets everything', async () => {
      const { cacher, clock, registry } = await newTestCacher();
      cacher.dispatchTimeoutBudget = fakeTimeBudget;
      const pod = (i: number) => makeTestPod(`pod-${1000 + i}`, 1000 + i);
      cacher.watchCache.add(pod(0));
      const w1 = await cacher.watch('/pods/ns', watchOpts('999'));
      const w2 = await cacher.watch('/pods/ns', watchOpts('999'));
      const totalPods = 50;
      for (let i = 1; i < totalPods; i++) cacher.watchCache.add(pod(i));
      const { events, closed } = await readEvents(clock, w2, totalPods, 100);
      assert.strictEqual(
        events.filter((e) => e.type === 'ADDED').length,
        totalPods,
        'watcher is not blocked by the slower one',
      );
      assert.strictEqual(closed, false);
      await clock.stepAsync(5000);
      assert.strictEqual(
        registry.samples()['apiserver_terminated_watchers_total{group="",resource="pods"}'],
        1,
        'the blocked watcher was terminated',
      );
      const w1got = await drain(w1);
      assert.ok(w1got.closed, 'the blocked watcher is closed');
      assert.ok(w1got.events.length < totalPods, `it got a prefix only (${w1got.events.length})`);
      cacher.stop();
    });

    it('the real budget: 50ms per second up to 100ms, then blocked watchers are terminated at once', async () => {
      const insp = new RecordingSink();
      const { cacher, clock } = await newTestCacher(new MockStorage(), { eventSink: insp });
      await clock.stepAsync(10_000); // the budget refills to its 100ms cap
      const stuck = await cacher.watch('/pods/ns', watchOpts('100'));
      let rv = 100;
      // chanSize 10: input and result fill, one event waits in the watcher's send.
      for (let i = 0; i < 21; i++) cacher.watchCache.add(makeTestPod(`p${i}`, ++rv));
      await settle();
      assert.strictEqual(
        insp.ofType('cacher/dispatch').filter((d) => d.blocked > 0).length,
        0,
        '21 events fit (10 input + 10 result + 1 sending)',
      );
      cacher.watchCache.add(makeTestPod('p21', ++rv));
      await settle();
      assert.strictEqual(insp.ofType('watcher/terminated').length, 0, 'waits within the budget');
      await clock.stepAsync(100);
      const d = insp.ofType('cacher/dispatch').filter((x) => x.blocked > 0);
      assert.deepStrictEqual(
        d.map((x) => [x.blocked, x.terminated, x.budgetMs, x.waitedMs]),
        [[1, 1, 100, 100]],
      );
      const term = insp.ofType('watcher/terminated');
      assert.deepStrictEqual(
        term.map((t) => t.graceful),
        [false],
      );
      const got = await drain(stuck);
      assert.ok(got.closed);
      assert.strictEqual(
        got.events.length,
        10,
        'the client still reads what was in the result channel, then the close',
      );
      cacher.stop();
    });

    it('TestWatcherNotGoingBackInTime: a second watcher sees each RV once, in order', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.dispatchTimeoutBudget.returnUnused(100);
      const pod = (i: number) => makeTestPod(`pod-${1000 + i}`, 1000 + i);
      cacher.watchCache.add(pod(0));
      const w1 = await cacher.watch('/pods/ns', watchOpts('999'));
      void w1;
      for (let i = 1; i < 100; i++) cacher.watchCache.add(pod(i));
      const w2 = await cacher.watch('/pods/ns', watchOpts('999'));
      const { events } = await readEvents(clock, w2, 100, 1);
      let current = 0;
      for (const e of events) {
        const rv = Number(eventObject(e).metadata.resourceVersion);
        assert.ok(rv > current, `watcher going back in time: ${rv} after ${current}`);
        current = rv;
      }
      assert.strictEqual(events.length, 100);
      cacher.stop();
    });

    it('TestCacheIntervalInvalidationStopsWatch: exactly bufferSize events, then the watch closes silently', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.dispatchTimeoutBudget.returnUnused(100);
      const history = cacher.watchCache.history;
      let valid = true;
      let once = false;
      history.isIndexValidLocked = (index: number) => {
        const isValid = valid && index >= history.startIndex;
        if (!once) {
          once = true;
          valid = false;
        }
        return isValid;
      };
      for (let i = 0; i < 250; i++) cacher.watchCache.add(makeTestPod(`pod-${1000 + i}`, 1000 + i));
      const w = await cacher.watch('/pods/ns', watchOpts('999'));
      const { events, closed } = await readEvents(clock, w, 1000);
      assert.ok(closed, 'closed after the invalidation');
      assert.strictEqual(events.length, bufferSize);
      assert.ok(events.every((e) => e.type === 'ADDED'));
      cacher.stop();
    });

    it('an interval overrun by the ring in real time: the watch closes after its buffered events', async () => {
      const insp = new RecordingSink();
      const { cacher, clock } = await newTestCacher(new MockStorage(), { eventSink: insp });
      let rv = 100;
      for (let i = 0; i < 250; i++) cacher.watchCache.add(makeTestPod(`pod-${i}`, ++rv));
      assert.strictEqual(
        cacher.watchCache.currentCapacity(),
        400,
        'fresh events grew the ring 100 -> 200 -> 400',
      );
      // Namespace-scoped, so the later events in "other" are not dispatched to it.
      const pred = new SelectionPredicate({ field: fields.parseSelector('metadata.namespace=ns') });
      const w = await cacher.watch('/pods/ns', watchOpts('100', pred));
      await clock.stepAsync(100_000); // the first 250 events are now older than the 75s window
      for (let i = 0; i < 251; i++)
        cacher.watchCache.add(makeTestPod(`o-${i}`, ++rv, undefined, 'other'));
      assert.ok(
        cacher.watchCache.history.startIndex > 100,
        "the ring dropped the interval's next events",
      );
      const { events, closed } = await readEvents(clock, w, 1000);
      assert.ok(closed);
      assert.strictEqual(events.length, bufferSize);
      const c = insp.ofType('watcher/closed');
      assert.deepStrictEqual(
        c.map((x) => x.reason),
        ['intervalInvalidated'],
      );
      cacher.stop();
    });

    it('counts every incoming event as dispatched, storage bookmarks included (not dispatched)', async () => {
      const insp = new RecordingSink();
      const { cacher, registry } = await newTestCacher(new MockStorage(), { eventSink: insp });
      const w = await cacher.watch('/pods/ns', watchOpts('100', everything(true)));
      cacher.watchCache.add(makeTestPod('a', 101));
      cacher.watchCache.updateResourceVersion('105');
      cacher.watchCache.updateResourceVersion('110');
      await settle();
      assert.strictEqual(
        registry.samples()[
          'apiserver_watch_cache_events_dispatched_total{group="",resource="pods"}'
        ],
        3,
      );
      assert.strictEqual(
        registry.samples()['apiserver_watch_cache_events_received_total{group="",resource="pods"}'],
        1,
      );
      assert.deepStrictEqual(
        insp.ofType('cacher/dispatch').map((d) => d.resourceVersion),
        [101],
        'only the pod was dispatched',
      );
      assert.deepStrictEqual((await drain(w)).events.map(describeEvent), ['ADDED a@101']);
      cacher.stop();
    });
  });

  describe('bookmarks', () => {
    it('TestCacherSendBookmarkEvents: a bookmark within 2s iff allowWatchBookmarks', async () => {
      for (const allow of [true, false]) {
        const { cacher, clock } = await newTestCacher();
        const ctx = new WatchRequestContext(clock, 3000);
        const w = await cacher.watch('/pods/ns', watchOpts('0', everything(allow)), { ctx });
        let lastObservedRV = 0;
        let bookmark: number | undefined;
        for (let t = 0; t < 2000 && bookmark === undefined; t += 100) {
          if (t < 1000) cacher.watchCache.add(makeTestPod(`pod-${t}`, 1000 + t / 100));
          await clock.stepAsync(100);
          for (const e of (await drain(w)).events) {
            const rv = Number(eventObject(e).metadata.resourceVersion);
            if (e.type === 'BOOKMARK') {
              bookmark = rv;
              assert.ok(rv >= lastObservedRV, `bookmark ${rv} >= last ${lastObservedRV}`);
              break;
            }
            lastObservedRV = rv;
          }
        }
        assert.strictEqual(bookmark !== undefined, allow, `allowWatchBookmarks=${allow}`);
        cacher.stop();
      }
    });

    it('TestCacherSendsMultipleWatchBookmarks: two bookmarks with a 1s frequency, RVs not decreasing', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.bookmarkWatchers = newTimeBucketWatchers(clock, 1000);
      cacher.watchCache.add(makeTestPod('pod-0', 100));
      const ctx = new WatchRequestContext(clock, 10_000);
      const w = await cacher.watch('/pods/ns', watchOpts('100', everything(true)), { ctx });
      cacher.watchCache.add(makeTestPod('pod-1', 101));
      const seen: string[] = [];
      for (
        let t = 0;
        t < 5000 && seen.filter((s) => s.startsWith('BOOKMARK')).length < 2;
        t += 100
      ) {
        await clock.stepAsync(100);
        for (const e of (await drain(w)).events) seen.push(describeEvent(e));
      }
      assert.deepStrictEqual(seen, ['ADDED pod-1@101', 'BOOKMARK @101', 'BOOKMARK @101']);
      cacher.stop();
    });

    it('TestBookmarksOnResourceVersionUpdates: a progress notification RV reaches watchers as a bookmark', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.bookmarkWatchers = newTimeBucketWatchers(clock, 2000);
      cacher.watchCache.add(makeTestPod('pod-1000', 1000));
      const w = await cacher.watch('/pods/ns', watchOpts('1000', everything(true)));
      cacher.watchCache.updateResourceVersion('2000');
      let got: string | undefined;
      for (let t = 0; t < 5000 && got === undefined; t += 100) {
        await clock.stepAsync(100);
        got = (await drain(w)).events.map(describeEvent).find((s) => s === 'BOOKMARK @2000');
      }
      assert.strictEqual(got, 'BOOKMARK @2000');
      cacher.stop();
    });

    it('TestDispatchingBookmarkEventsWithConcurrentStop: stops during bookmark dispatch never hang', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.dispatchTimeoutBudget.returnUnused(100);
      cacher.watchCache.add(makeTestPod('pod-0', 1000));
      for (let i = 0; i < 100; i++) {
        const ctx = new WatchRequestContext(clock, 1000);
        const w = await cacher.watch('/pods/ns', watchOpts('999', everything(true)), { ctx });
        const object = cacher.newFunc();
        cacher.versioner.updateObject(object, BigInt(i));
        cacher.processEvent({
          type: 'BOOKMARK',
          object,
          objLabels: {},
          objFields: {},
          key: '',
          resourceVersion: i,
          recordTime: 0,
        });
        w.stop();
        const { closed } = await readEvents(clock, w, 10_000, 10, 200);
        assert.ok(closed, `iteration ${i}: the result channel closes`);
        w.stop();
      }
      cacher.stop();
    });

    it('TestCacherNoLeakWithMultipleWatchers: stopped watchers leave the buckets once popped', async () => {
      const { cacher, clock } = await newTestCacher();
      for (let t = 0; t < 3000; t += 50) {
        const ctx = new WatchRequestContext(clock, 3000);
        const w = await cacher.watch('/pods/ns', watchOpts('0', everything(true)), { ctx });
        w.stop();
        cacher.bookmarkWatchers.popExpiredWatchersThreadUnsafe();
        await clock.stepAsync(50);
      }
      await clock.stepAsync(2000);
      cacher.bookmarkWatchers.popExpiredWatchersThreadUnsafe();
      assert.strictEqual(
        cacher.bookmarkWatchers.watchersBuckets.size,
        0,
        'no bookmark watchers left',
      );
      cacher.stop();
    });

    it('a watcher that timed out in its deadline gets the pre-timeout bookmark 2s before it', async () => {
      const { cacher, clock } = await newTestCacher();
      cacher.watchCache.add(makeTestPod('a', 101));
      const start = clock.now();
      const ctx = new WatchRequestContext(clock, 10_000);
      const w = await cacher.watch('/pods/ns', watchOpts('101', everything(true)), { ctx });
      cacher.watchCache.add(makeTestPod('b', 102));
      const got: Array<{ e: string; at: number }> = [];
      for (let t = 0; t < 12_000; t += 100) {
        await clock.stepAsync(100);
        const d = await drain(w);
        for (const e of d.events) got.push({ e: describeEvent(e), at: clock.now() - start });
        if (d.closed) break;
      }
      const bookmarks = got.filter((g) => g.e.startsWith('BOOKMARK'));
      assert.strictEqual(bookmarks.length, 1, JSON.stringify(got));
      assert.ok(
        bookmarks[0].at >= 7000 && bookmarks[0].at <= 9300,
        `pre-timeout bookmark around deadline-2s, got ${bookmarks[0].at}`,
      );
      cacher.stop();
    });
  });

  describe('reinitialisation', () => {
    it('TestCacherDontMissEventsOnReinitialization: watchers see consecutive RVs, before and after a relist', async () => {
      let listCalls = 0;
      const storage = new MockStorage();
      storage.getListFn = () => {
        const rv = listCalls === 0 ? '1' : listCalls === 1 ? '10' : undefined;
        listCalls++;
        if (!rv) throw new Error('unexpected list call');
        return { items: [], resourceVersion: rv };
      };
      const { cacher, clock } = await newTestCacher(storage);
      const check = async (
        watchers: WatchInterface[],
        want: number[],
        name: string,
      ): Promise<void> => {
        for (const [i, w] of watchers.entries()) {
          const { events, closed } = await drain(w);
          const rvs = events.map((e) => Number(eventObject(e).metadata.resourceVersion));
          for (let k = 1; k < rvs.length; k++)
            assert.strictEqual(
              rvs[k],
              rvs[k - 1] + 1,
              `${name} #${i}: prevRV=${rvs[k - 1]}, rv=${rvs[k]}`,
            );
          assert.deepStrictEqual(rvs, want, `${name} #${i}`);
          assert.ok(closed, `${name} #${i}: closed by the re-initialisation`);
        }
      };
      const gen1: WatchInterface[] = [];
      for (let i = 0; i < 20; i++) gen1.push(await cacher.watch('/pods/', watchOpts('1')));
      const w1 = storage.watches[0];
      for (let i = 2; i < 8; i++) w1.add(makeTestPod(`pod-${i}`, i));
      // Emit an error to force relisting (watch.FakeWatcher.Error(nil): not a Status).
      w1.error();
      await settle();
      await assert.rejects(
        cacher.watch('/pods/', watchOpts('1')),
        (e: unknown) => isTooManyRequests(e),
        'pending until the relist',
      );
      await clock.stepAsync(1000);
      await check(gen1, [2, 3, 4, 5, 6, 7], 'generation 1');
      const gen2: WatchInterface[] = [];
      for (let i = 0; i < 20; i++) gen2.push(await cacher.watch('/pods/', watchOpts('10')));
      const stale = await cacher.watch('/pods/', watchOpts('1'));
      assert.strictEqual(
        (await drain(stale)).events[0]?.type,
        'ERROR',
        'RV 1 predates the relist: 410',
      );
      const w2 = storage.watches[1];
      for (let i = 12; i < 18; i++) w2.add(makeTestPod(`pod-${i}`, i));
      w2.error();
      await settle();
      await clock.stepAsync(1000);
      await check(gen2, [12, 13, 14, 15, 16, 17], 'generation 2');
      assert.strictEqual(listCalls, 3, 'relisted after each watch error');
      cacher.stop();
    });

    it('a relist terminates every watcher (they reconnect), and the generation check closes late registrations', async () => {
      const insp = new RecordingSink();
      const storage = new MockStorage();
      const { cacher, clock } = await newTestCacher(storage, { eventSink: insp });
      const w = await cacher.watch('/pods/ns', watchOpts('100'));
      storage.watches[0].error(
        newResourceExpired('The resourceVersion for the provided watch is too old.').status,
      );
      await settle();
      assert.strictEqual(cacher.isReady(), false, 'pending until the relist');
      const a = await drain(w);
      assert.ok(!a.closed, 'watchers are terminated by the next startCaching');
      await clock.stepAsync(1000);
      assert.ok((await drain(w)).closed, 'terminated on re-initialisation');
      assert.ok(cacher.isReady());
      assert.deepStrictEqual(
        insp.ofType('cacher/ready').map((r) => [r.state, r.generation]),
        [
          ['ready', 1],
          ['pending', 1],
          ['ready', 2],
        ],
      );
      assert.deepStrictEqual(
        insp.ofType('cacher/terminate-all').map((t) => t.watchers),
        [1],
      );
      cacher.stop();
    });
  });

  describe('inspector', () => {
    it('reports watch registration, dispatch, bucket pops and serializations', async () => {
      const insp = new RecordingSink();
      const { cacher, clock } = await newTestCacher(new MockStorage(), { eventSink: insp });
      const w = (await cacher.watch(
        '/pods/ns',
        watchOpts('100', everything(true)),
      )) as CacheWatcher;
      const reg = insp.ofType('cacher/watch');
      assert.deepStrictEqual(
        reg.map((r) => [
          r.outcome,
          r.watcherId,
          r.requiredResourceVersion,
          r.intervalResourceVersion,
          r.chanSize,
        ]),
        [['started', 0, 100, 100, 10]],
      );
      cacher.watchCache.add(makeTestPod('a', 101));
      await settle();
      const r = w.resultChan().tryRecv();
      const obj = r?.value?.object as CachingObject;
      obj.cacheEncode('json', () => new Uint8Array(7));
      obj.cacheEncode('json', () => new Uint8Array(7));
      await clock.stepAsync(62_000);
      cacher.flushEvents();
      const ser = insp.ofType('serialization/encode');
      assert.deepStrictEqual(
        ser.map((s) => [s.identifier, s.encodes, s.hits, s.bytes, s.resourceVersion]),
        [['json', 1, 1, 7, 101]],
      );
      assert.ok(insp.ofType('bookmarks/bucket-popped').length >= 1);
      assert.ok(insp.ofType('bookmarks/scheduled').length >= 1);
      assert.strictEqual(insp.ofType('cacher/dispatch')[0].candidates, 1);
      cacher.stop();
    });
  });

  describe('GetList', () => {
    it("answers the watch cache's own objects, not copies (listVal.Index(i).Set(reflect.ValueOf(o).Elem()))", async () => {
      const { cacher } = await newTestCacher();
      cacher.watchCache.add(makeTestPod('a', '1001', { app: 'x' }));
      cacher.watchCache.add(makeTestPod('b', '1002'));
      const cases: { name: string; predicate: SelectionPredicate; want: string[] }[] = [
        { name: 'everything', predicate: everything(), want: ['a', 'b'] },
        {
          name: 'a label selector',
          predicate: new SelectionPredicate({ label: labels.parse('app=x') }),
          want: ['a'],
        },
        { name: 'a limit', predicate: new SelectionPredicate({ limit: 1 }), want: ['a'] },
      ];
      for (const c of cases) {
        const list = await cacher.getList('/pods/ns', watchOpts('1002', c.predicate));
        assert.deepStrictEqual(
          list.items.map((o) => o.metadata.name),
          c.want,
          c.name,
        );
        for (const item of list.items) {
          const stored = cacher.watchCache.getByKey(`/pods/ns/${item.metadata.name}`);
          assert.strictEqual(item, stored?.object, `${c.name}: ${item.metadata.name}`);
        }
      }
      cacher.stop();
    });
  });

  describe('types and errors', () => {
    it('StatusError round-trips through the error watcher', async () => {
      const err = new StatusError({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'x',
        reason: 'Gone',
        code: 410,
      });
      const { events } = await drain(newErrWatcher(err));
      assert.strictEqual((events[0].object as unknown as Status).reason, 'Gone');
    });
  });
});
