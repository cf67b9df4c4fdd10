// Property test (fast-check) for src/run/build-run-model.ts folding by request id: interleaved,
// concurrent LISTs against one engine (paging with continue tokens, consistent reads that wait for
// a lagging watch cache and may time out into the etcd fallback, exact-RV reads delegated to etcd,
// reads served by the cache, direct etcd3 store reads with filtered page doubling, and with the
// 1.37 profile RangeStream lists and their Unimplemented fallback) fold, list by list, into the same
// records as each client's lists run alone on the same engine. A fold that attributes by order, or
// an event carrying another request's id, breaks it (the last test shows the check catching one).
import * as assert from 'assert';
import fc from 'fast-check';
import type { FakeClock } from '../../../src/engine/clock';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import type { ListRecord, RunModel } from '../../../src/run/run-model';
import { ScenarioRun } from '../../../src/sim/scenario-run';
import { DelayedWatchEtcd } from '../../../src/sim/delayed-watch-etcd';
import type { ResourceListRequest } from '../../../src/engine/apiserver';
import type { TraceRecord } from '../../../src/run/trace/trace-format';

/** The engine every run of one case shares: profile, etcd, how far the cache lags. */
interface World {
  profile: '1.36' | '1.37';
  /** The watch cache sees etcd's events this late: 3 s or more times consistent reads out. */
  lagMs: number;
  /** etcd answers progress requests (consistent reads from the cache need them). */
  progress: boolean;
  rangeStream: 'supported' | 'unimplemented';
  /** Without a started cacher every list goes to etcd (paginated unfiltered ones) or gets a 429. */
  cacher: boolean;
  skipTimeoutFallback: boolean;
}

type ListKind =
  /** RV "": a consistent read (from the cache once it caught up, else etcd). */
  | 'consistent'
  /** An exact RV older than the cache's first snapshot: etcd. */
  | 'exact-old'
  /** RV "0": the cache, whatever its state. */
  | 'any'
  /** NotOlderThan etcd's current revision: the cache, after waiting for it. */
  | 'not-older-than'
  /** Straight to the etcd3 store. */
  | 'store';

/** One client: a LIST, and its next pages while the answer carries a continue token. */
interface ClientSpec {
  kind: ListKind;
  limit: number | undefined;
  selector: boolean;
  /** Virtual ms after the common start. */
  offsetMs: number;
}

const pods = 40;
const maxPages = 4;

/**
 * Runs the common prefix (seed, cache start, one late write so the cache lags) and then the given
 * clients concurrently; returns every trace record, in order.
 */
async function record(world: World, clients: ClientSpec[], warmUp = true): Promise<TraceRecord[]> {
  const records: TraceRecord[] = [];
  const r = new ScenarioRun({
    scenario: 'concurrent-lists',
    seed: 1,
    profile: world.profile,
    onRecord: (x) => records.push(x),
  });
  const etcd = new DelayedWatchEtcd({
    clock: r.clock,
    watchDelayMs: world.lagMs,
    rangeStream: world.rangeStream,
    latency: { perRequestMs: 2, perKeyMs: 0.25 },
    simulateLatency: true,
  });
  const resource = r.createResource({
    etcd,
    cache: { requestWatchProgressSupported: world.progress },
    gates: world.skipTimeoutFallback ? { ConsistentListFromCacheSkipTimeoutFallback: true } : {},
  });
  const oldRv = r.seedPods(resource, pods, {
    namespace: 'default',
    name: (i) => `pod-${String(i).padStart(2, '0')}`,
    labels: (i) => ({ app: i % 5 === 0 ? 'match' : 'other' }),
  });
  r.seedPods(resource, 5, { namespace: 'default', name: (i) => `late-${i}` });
  // etcd answers take virtual time: the cache becomes ready while time passes.
  if (world.cacher) resource.start();
  await r.advance(1000);
  assert.strictEqual(resource.cacher.isReady(), world.cacher, 'the cache is ready once started');
  // The RangeStream memory is shared by design: the first Unimplemented answer marks RangeStream
  // unsupported for 10 minutes for every later list (and every later decision names the recheck
  // time). A started cacher's reflector marks it before any client lists; without one this warm-up
  // does, so a client sees the same memory alone or not. `warmUp: false` leaves it cold.
  if (!world.cacher && warmUp)
    await drive(r.clock, r.list(resource, { namespace: 'default' }, 'store', 'warm-up'));
  // The write the cache sees `lagMs` late (its etcd answer takes virtual time too).
  await drive(r.clock, resource.createPod({ name: 'newest', namespace: 'default' }, 'writer'));
  const current = String(etcd.currentRevision());

  const request = (c: ClientSpec): ResourceListRequest => {
    const base: ResourceListRequest = {
      namespace: 'default',
      limit: c.limit,
      ...(c.selector ? { labelSelector: 'app=match' } : {}),
    };
    switch (c.kind) {
      case 'consistent':
      case 'store':
        return base;
      case 'exact-old':
        return { ...base, resourceVersion: String(oldRv), resourceVersionMatch: 'Exact' };
      case 'any':
        return { ...base, resourceVersion: '0' };
      case 'not-older-than':
        return { ...base, resourceVersion: current, resourceVersionMatch: 'NotOlderThan' };
    }
  };
  const client = async (c: ClientSpec, name: string): Promise<void> => {
    // Offset 0 starts synchronously: every such client decides before any answer arrives.
    if (c.offsetMs > 0) await r.clock.sleep(c.offsetMs);
    let token: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const res = await r.list(
        resource,
        { ...request(c), continue: token },
        c.kind === 'store' ? 'store' : 'delegator',
        name,
      );
      token = res.result?.continue;
      if (!token) return;
    }
  };
  await drive(r.clock, Promise.all(clients.map((c, i) => client(c, clientName(clients, i)))));
  r.stop();
  return records;
}

/**
 * Moves virtual time from timer to timer, letting every promise continuation run before time moves
 * (an event-loop turn, not a fixed number of microtask turns): a client's chain of cache-served
 * pages then ends at the same virtual instant whether or not other clients' timers fire meanwhile,
 * as it would on a real clock.
 */
async function drive<T>(clock: FakeClock, work: Promise<T>): Promise<T> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  const end = clock.now() + 30_000;
  for (;;) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const next = clock.nextDue();
    if (done || next === undefined || next > end) break;
    await clock.advanceToAsync(next);
  }
  assert.ok(done, 'the work finished within 30 virtual seconds');
  return settled;
}

/** Clients are named by their index in the full set, so a client alone keeps its name. */
function clientName(clients: ClientSpec[], i: number): string {
  return `client-${(clients[i] as ClientSpec & { index?: number }).index ?? i}`;
}

function fold(records: TraceRecord[]): RunModel {
  const b = new RunModelBuilder({
    format: 'listwatch-trace',
    version: 2,
    scenario: 'concurrent-lists',
    profile: '1.36',
    seed: 1,
    params: {},
  });
  for (const x of records) b.add(x);
  return b.finish();
}

/** A record without what differs between runs by construction (the run-local id and the request id). */
function comparable(l: ListRecord): Omit<ListRecord, 'id' | 'requestId'> {
  const rest: Partial<ListRecord> = { ...l };
  delete rest.id;
  delete rest.requestId;
  return rest as Omit<ListRecord, 'id' | 'requestId'>;
}

function byClient(model: RunModel): Map<string, unknown[]> {
  const m = new Map<string, unknown[]>();
  for (const l of model.lists) {
    const k = l.client ?? '';
    m.set(k, [...(m.get(k) ?? []), comparable(l)]);
  }
  return m;
}

/** Every client's records in the concurrent run equal its records run alone (and the cacher's own lists agree). */
function checkAgainstAlone(
  concurrent: RunModel,
  alone: RunModel[],
  clients: ClientSpec[],
): string | undefined {
  const all = byClient(concurrent);
  for (let i = 0; i < clients.length; i++) {
    const name = clientName(clients, i);
    const want = byClient(alone[i]).get(name);
    const got = all.get(name);
    try {
      assert.deepStrictEqual(got, want);
    } catch (e) {
      return `${name} (${JSON.stringify(clients[i])}): ${(e as Error).message}`;
    }
    try {
      assert.deepStrictEqual(
        concurrent.cacherLists?.map(comparable),
        alone[i].cacherLists?.map(comparable),
      );
    } catch (e) {
      return `the cacher's own lists differ: ${(e as Error).message}`;
    }
  }
  return undefined;
}

const worldArb: fc.Arbitrary<World> = fc.record({
  profile: fc.constantFrom<World['profile']>('1.36', '1.37'),
  lagMs: fc.constantFrom(0, 400, 3500),
  progress: fc.boolean(),
  rangeStream: fc.constantFrom<World['rangeStream']>('supported', 'unimplemented'),
  cacher: fc.constantFrom(true, true, true, false),
  skipTimeoutFallback: fc.boolean(),
});

const clientArb: fc.Arbitrary<ClientSpec> = fc.record({
  kind: fc.constantFrom<ListKind>('consistent', 'exact-old', 'any', 'not-older-than', 'store'),
  limit: fc.constantFrom(undefined, 3, 7, 20),
  selector: fc.boolean(),
  offsetMs: fc.constantFrom(0, 0, 1, 3, 250, 1200),
});

/** Numbers the clients: each keeps its name when it runs alone. */
function normalize(clients: ClientSpec[]): ClientSpec[] {
  return clients.map((c, index) => ({ ...c, index }));
}

describe('run model: concurrent LISTs fold by request id', () => {
  it('property: each LIST of interleaved clients folds into the records it has when its client runs alone', async () => {
    await fc.assert(
      fc.asyncProperty(
        worldArb,
        fc.array(clientArb, { minLength: 2, maxLength: 4 }),
        async (world, raw) => {
          const clients = normalize(raw);
          const concurrent = fold(await record(world, clients));
          const alone: RunModel[] = [];
          for (const c of clients) alone.push(fold(await record(world, [c])));
          const problem = checkAgainstAlone(concurrent, alone, clients);
          assert.strictEqual(problem, undefined, problem);
        },
      ),
      { numRuns: 60, seed: 20250601 },
    );
  });

  it('the workload reaches every path the property is about', async () => {
    // One case per path, asserted on the concurrent run's records: a check that passes vacuously
    // (no wait, no fallback, no page) would not test the fold.
    const world: World = {
      profile: '1.37',
      lagMs: 3500,
      progress: true,
      rangeStream: 'unimplemented',
      cacher: true,
      skipTimeoutFallback: false,
    };
    const clients = normalize([
      { kind: 'consistent', limit: 7, selector: false, offsetMs: 0 },
      { kind: 'store', limit: 3, selector: true, offsetMs: 1 },
      { kind: 'exact-old', limit: 20, selector: false, offsetMs: 0 },
      { kind: 'any', limit: undefined, selector: false, offsetMs: 3 },
    ]);
    const m = fold(await record(world, clients));
    const of = (i: number) => m.lists.filter((l) => l.client === clientName(clients, i));
    assert.ok(
      of(0)[0].waits[0]?.outcome === 'timeout' && /fell back to etcd/.test(of(0)[0].fallbacks[0]),
      'a consistent read times out and falls back to etcd',
    );
    assert.match(of(0)[0].rule, /then the cache did not catch up within 3 s: fell back to etcd\)$/);
    assert.ok(of(0).length > 1 && of(1).length > 1, 'clients page with continue tokens');
    assert.ok(
      of(1)[0].pages!.length > 1 && of(1)[0].pages![1].limitAsked === 6,
      'a filtered etcd page doubles its limit',
    );
    assert.strictEqual(of(2)[0].servedBy, 'etcd', 'an exact old RV is delegated to etcd');
    assert.strictEqual(of(3)[0].servedBy, 'cache', 'RV 0 is served by the cache');
    assert.ok(
      m.cacherLists?.[0].fallbacks.some((f) => /RangeStream answered Unimplemented/.test(f)),
      "the reflector's list probes RangeStream and falls back",
    );
    const cold = { ...world, cacher: false, lagMs: 0 };
    const probes = fold(
      await record(
        cold,
        normalize([
          { kind: 'store', limit: 7, selector: false, offsetMs: 0 },
          { kind: 'store', limit: undefined, selector: false, offsetMs: 0 },
        ]),
        false,
      ),
    );
    const first = (i: number) => probes.lists.filter((l) => l.client === `client-${i}`);
    assert.deepStrictEqual(
      [first(0)[0], first(1)[0], first(0)[1]].map((l) => [
        l.etcdRequests[0].operation,
        l.stream?.reason,
        l.fallbacks.length,
      ]),
      [
        ['listStream', 'supported', 1],
        ['listStream', 'supported', 1],
        ['list', 'marked-unsupported', 0],
      ],
      'without a cacher, clients starting together each probe RangeStream and fall back',
    );
  });

  it('the check catches an event that carries another request id', async () => {
    const world: World = {
      profile: '1.36',
      lagMs: 400,
      progress: true,
      rangeStream: 'unimplemented',
      cacher: true,
      skipTimeoutFallback: false,
    };
    const clients = normalize([
      { kind: 'store', limit: 3, selector: true, offsetMs: 0 },
      { kind: 'consistent', limit: undefined, selector: false, offsetMs: 0 },
    ]);
    const records = await record(world, clients);
    const alone = [];
    for (const c of clients) alone.push(fold(await record(world, [c])));
    assert.strictEqual(checkAgainstAlone(fold(records), alone, clients), undefined);
    // The first client's second etcd request, re-tagged with the second client's request id.
    const ids = records.flatMap((x) =>
      x.kind === 'input' && x.action === 'list' ? [x.requestId] : [],
    );
    const [victim] = records
      .flatMap((x) => (x.kind === 'event' && x.event.type === 'etcd/request' ? [x.event] : []))
      .filter((e) => e.requestId === ids[0])
      .slice(1);
    victim.requestId = ids[1];
    const problem = checkAgainstAlone(fold(records), alone, clients);
    assert.ok(problem?.startsWith('client-0'), `the misattributed request is caught: ${problem}`);
  });
});
