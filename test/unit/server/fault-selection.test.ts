// Tests for which requests a fault hits and when: src/server/fault-matcher.ts (the matchers and
// the paths no fault touches), src/server/fault-trigger.ts (at once, nth, count, afterSeconds on
// a fake clock) and src/server/active-faults.ts (hits, spent, cleared). Tables, one loop each.
import * as assert from 'assert';
import { FakeClock } from '../../../src/engine/clock';
import {
  matchesRequest,
  parseFaultMatcher,
  type FaultMatcher,
  type MatchedRequest,
} from '../../../src/server/fault-matcher';
import { parseFaultTrigger, type FaultTrigger } from '../../../src/server/fault-trigger';
import { ActiveFaults } from '../../../src/server/active-faults';

const listPods: MatchedRequest = {
  path: '/api/v1/namespaces/default/pods',
  verb: 'list',
  resource: 'pods',
  namespace: 'default',
  userAgent: 'kubectl/v1.35.0 (linux/amd64) kubernetes/abc',
  watchList: false,
  replica: 1,
};
const watchListDeployments: MatchedRequest = {
  path: '/apis/apps/v1/namespaces/shop/deployments',
  verb: 'watch',
  resource: 'deployments.apps',
  namespace: 'shop',
  userAgent: 'controller/v0.0.0',
  watchList: true,
  replica: 2,
};

describe('fault matchers (src/server/fault-matcher.ts)', () => {
  const cases: [string, FaultMatcher, MatchedRequest, boolean][] = [
    ['no matchers: every request', {}, listPods, true],
    ['verb', { verb: 'list' }, listPods, true],
    ['another verb', { verb: 'watch' }, listPods, false],
    ['core resource', { resource: 'pods' }, listPods, true],
    [
      'group resource by plural.group',
      { resource: 'deployments.apps' },
      watchListDeployments,
      true,
    ],
    ['group resource by plural alone', { resource: 'deployments' }, watchListDeployments, false],
    ['namespace', { namespace: 'shop' }, watchListDeployments, true],
    ['another namespace', { namespace: 'default' }, watchListDeployments, false],
    ['user agent substring', { userAgent: 'kubectl/v1.35' }, listPods, true],
    ['user agent not in it', { userAgent: 'client-go' }, listPods, false],
    ['watchList true on a WatchList', { watchList: true }, watchListDeployments, true],
    ['watchList true on a LIST', { watchList: true }, listPods, false],
    ['watchList false on a LIST', { watchList: false }, listPods, true],
    ['replica that took it', { replica: 2 }, watchListDeployments, true],
    ['another replica', { replica: 2 }, listPods, false],
    [
      'all matchers',
      {
        verb: 'watch',
        resource: 'deployments.apps',
        namespace: 'shop',
        userAgent: 'controller',
        watchList: true,
      },
      watchListDeployments,
      true,
    ],
    [
      'the admin API is never matched',
      {},
      { ...listPods, path: '/debug/listwatch/v1/faults/active', resource: '', verb: 'get' },
      false,
    ],
    [
      'the debug state neither',
      {},
      { ...listPods, path: '/debug/listwatch/v1/state', resource: '', verb: 'get' },
      false,
    ],
    ['/healthz', {}, { ...listPods, path: '/healthz', resource: '', verb: 'get' }, false],
    ['/livez/ping', {}, { ...listPods, path: '/livez/ping', resource: '', verb: 'get' }, false],
    [
      '/readyz',
      { verb: 'get' },
      { ...listPods, path: '/readyz', resource: '', verb: 'get' },
      false,
    ],
    ['discovery is', {}, { ...listPods, path: '/apis', resource: '', verb: 'get' }, true],
  ];
  for (const [name, m, r, want] of cases)
    it(`${name}: ${want ? 'matches' : 'does not match'}`, () =>
      assert.strictEqual(matchesRequest(m, r), want, name));

  const parse: [string, unknown, string | FaultMatcher][] = [
    ['absent', undefined, {}],
    [
      'every matcher',
      {
        verb: 'watch',
        resource: 'pods',
        namespace: 'a',
        userAgent: 'x',
        watchList: true,
        replica: 3,
      },
      {
        verb: 'watch',
        resource: 'pods',
        namespace: 'a',
        userAgent: 'x',
        watchList: true,
        replica: 3,
      },
    ],
    [
      'not an object',
      'list',
      'expected an object of matchers (verb, resource, namespace, userAgent, watchList, replica)',
    ],
    [
      'unknown matcher',
      { verbs: 'list' },
      'verbs: unknown matcher; expected one of verb, resource, namespace, userAgent, watchList, replica',
    ],
    [
      'unknown verb',
      { verb: 'lists' },
      'verb: expected one of get, list, watch, create, update, patch, delete, deletecollection, got "lists"',
    ],
    ['empty string', { namespace: '' }, 'namespace: expected a non-empty string, got ""'],
    ['watchList a string', { watchList: 'true' }, 'watchList: expected true or false, got "true"'],
    ['replica 0', { replica: 0 }, 'replica: expected an integer >= 1, got 0'],
    ['replica a string', { replica: '2' }, 'replica: expected an integer >= 1, got "2"'],
  ];
  for (const [name, v, want] of parse)
    it(`parses ${name}`, () => {
      const got = parseFaultMatcher(v);
      if (typeof want === 'string') {
        assert.ok(!('matcher' in got), name);
        assert.strictEqual(
          got.field === undefined ? got.message : `${got.field}: ${got.message}`,
          want,
        );
      } else assert.deepStrictEqual(got, { matcher: want });
    });
});

describe('fault triggers (src/server/fault-trigger.ts, src/server/active-faults.ts)', () => {
  const parse: [string, unknown, string | FaultTrigger][] = [
    ['absent', undefined, {}],
    ['nth', { nth: 2 }, { nth: 2 }],
    ['count and afterSeconds', { count: 3, afterSeconds: 1.5 }, { count: 3, afterSeconds: 1.5 }],
    [
      'unknown trigger',
      { first: 1 },
      'first: unknown trigger; expected one of nth, count, afterSeconds',
    ],
    ['nth 0', { nth: 0 }, 'nth: expected an integer >= 1, got 0'],
    ['count 1.5', { count: 1.5 }, 'count: expected an integer >= 1, got 1.5'],
    ['negative afterSeconds', { afterSeconds: -1 }, 'afterSeconds: expected a number >= 0, got -1'],
    [
      'afterSeconds a string',
      { afterSeconds: '5' },
      'afterSeconds: expected a number >= 0, got "5"',
    ],
    [
      'nth and count',
      { nth: 1, count: 2 },
      'count: nth and count exclude each other; give one of them',
    ],
  ];
  for (const [name, v, want] of parse)
    it(`parses ${name}`, () => {
      const got = parseFaultTrigger(v);
      if (typeof want === 'string') {
        assert.ok(!('trigger' in got), name);
        assert.strictEqual(
          got.field === undefined ? got.message : `${got.field}: ${got.message}`,
          want,
        );
      } else assert.deepStrictEqual(got, { trigger: want });
    });

  // Each case: a trigger, then requests at times (ms from the fault's start): which were hit, and
  // whether the fault is still active after them.
  const runs: [string, FaultTrigger, number[], boolean[], boolean][] = [
    ['at once: every request, never spent', {}, [0, 0, 10], [true, true, true], true],
    ['nth 2: only the second', { nth: 2 }, [0, 0, 0], [false, true, false], false],
    ['count 2: the next two, then spent', { count: 2 }, [0, 0, 0], [true, true, false], false],
    [
      'afterSeconds 1: nothing before, everything from then',
      { afterSeconds: 1 },
      [0, 999, 1000, 5000],
      [false, false, true, true],
      true,
    ],
    [
      'afterSeconds 1 and nth 1: the first from then',
      { afterSeconds: 1, nth: 1 },
      [500, 1000, 1001],
      [false, true, false],
      false,
    ],
    [
      'afterSeconds 2 and count 1',
      { afterSeconds: 2, count: 1 },
      [1999, 2000, 2001],
      [false, true, false],
      false,
    ],
  ];
  for (const [name, trigger, times, want, activeAfter] of runs)
    it(name, () => {
      const clock = new FakeClock(1_000_000);
      const active = new ActiveFaults(clock);
      const f = active.addRequestFault('latency', 'request', { ms: 1 }, { verb: 'list' }, trigger);
      const start = clock.now();
      const got = times.map((t) => {
        clock.advanceTo(start + t);
        // A request the matchers do not pick never counts towards nth or count.
        assert.strictEqual(active.hit({ ...listPods, verb: 'get' }), undefined);
        return active.hit(listPods)?.[0] === f;
      });
      assert.deepStrictEqual(got, want, name);
      assert.strictEqual(
        active.list().some((a) => a.id === f.id),
        activeAfter,
        name,
      );
      if (activeAfter)
        assert.strictEqual(active.get(f.id)?.state.hits, want.filter(Boolean).length);
    });

  it('a watch fault counts only watches; omit-end-bookmark only WatchList requests', () => {
    const clock = new FakeClock(0);
    const active = new ActiveFaults(clock);
    const stall = active.addRequestFault('stall-watch', 'watch', { seconds: 1 }, {}, { nth: 2 });
    const omit = active.addRequestFault('omit-end-bookmark', 'watchList', {}, {}, {});
    const watch = { ...listPods, verb: 'watch' };
    assert.deepStrictEqual(active.hit(listPods), undefined);
    assert.deepStrictEqual(active.hit(watch), undefined);
    assert.deepStrictEqual(active.hit(watchListDeployments), [stall, omit]);
  });

  it('clears one fault by id, then every one; an unknown id is undefined', () => {
    const clock = new FakeClock(0);
    const active = new ActiveFaults(clock);
    const a = active.addRequestFault('blackhole', 'request', {}, {}, {});
    let fired = false;
    const b = active.addScheduled('restart', {}, {}, { afterSeconds: 5 }, () => (fired = true));
    assert.deepStrictEqual(
      active.list().map((f) => [f.id, f.name, f.phase]),
      [
        [a.id, 'blackhole', 'armed'],
        [b.id, 'restart', 'pending'],
      ],
    );
    assert.strictEqual(active.clear(99), undefined);
    assert.deepStrictEqual(
      active.clear(a.id)?.map((f) => f.id),
      [a.id],
    );
    assert.strictEqual(active.hasRequestFaults, false);
    assert.deepStrictEqual(
      active.clear('all')?.map((f) => f.id),
      [b.id],
    );
    clock.step(5000);
    assert.strictEqual(fired, false, 'a cleared scheduled fault never fires');
  });

  it('a scheduled server fault fires on the clock, once, and leaves the list', () => {
    const clock = new FakeClock(0);
    const active = new ActiveFaults(clock);
    let fired = 0;
    active.addScheduled('restart', {}, {}, { afterSeconds: 2 }, () => fired++);
    clock.step(1999);
    assert.strictEqual(fired, 0);
    clock.step(1);
    assert.strictEqual(fired, 1);
    assert.deepStrictEqual(active.list(), []);
  });
});
