// Property tests (fast-check) for the cacher as a whole (src/engine/apiserver.ts over the in-memory
// etcd): random workloads of writes, compactions, watches (selectors, resource versions, watch-list
// options, read rates, content types, timeouts), read-rate changes, disconnects and time steps.
// Properties checked against etcd's history, replayed independently here:
// - every watcher receives a gap-free, ordered, duplicate-free stream (its initial state, then the
//   history after its start RV filtered by scope and selector, with selector transitions) or a
//   prefix of it and is closed with a recorded reason;
// - no bookmark goes below what the watcher already delivered; events always move forward;
// - a watch-list watcher gets exactly one initial-events-end bookmark, right after its initial state;
// - encodes per event never exceed the distinct content types of the clients that received it.
import * as assert from 'assert';
import fc from 'fast-check';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import { RecordingSink } from '../../../src/engine/inspect/events';
import { makePod, type KubeObject } from '../../../src/engine/storage/objects';
import { contentTypeJSON, contentTypeProtobuf } from '../../../src/engine/cacher/object-encoders';
import type { ReadRate, WatchContentType } from '../../../src/engine/clients/watch-client';
import {
  createResource,
  type OpenedWatch,
  type Resource,
  type ResourceWatchRequest,
} from '../../../src/engine/apiserver';

const namespaces = ['a', 'b'];
const names = ['p0', 'p1', 'p2', 'p3'];
const xs = ['1', '2'];

type Cmd =
  | { op: 'create'; ns: string; name: string; x: string }
  | { op: 'update'; ns: string; name: string; x: string }
  | { op: 'delete'; ns: string; name: string }
  | { op: 'compact'; back: number }
  | {
      op: 'watch';
      ns: string | undefined;
      selector: string | undefined;
      rv: 'empty' | 'zero' | 'current' | { back: number };
      allowWatchBookmarks: boolean;
      sendInitialEvents: boolean | undefined;
      rate: ReadRate;
      contentType: WatchContentType | undefined;
      timeoutSeconds: number | undefined;
    }
  | { op: 'rate'; watch: number; rate: ReadRate }
  | { op: 'disconnect'; watch: number }
  | { op: 'step'; ms: number };

const rateArb: fc.Arbitrary<ReadRate> = fc.oneof(
  fc.constant<ReadRate>({ kind: 'fast' }),
  fc.constantFrom<ReadRate>(
    { kind: 'slow', eventsPerSecond: 5 },
    { kind: 'slow', eventsPerSecond: 50 },
  ),
  fc.constant<ReadRate>({ kind: 'stalled' }),
);

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      ns: fc.constantFrom(...namespaces),
      name: fc.constantFrom(...names),
      x: fc.constantFrom(...xs),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('update' as const),
      ns: fc.constantFrom(...namespaces),
      name: fc.constantFrom(...names),
      x: fc.constantFrom(...xs),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      ns: fc.constantFrom(...namespaces),
      name: fc.constantFrom(...names),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('compact' as const),
      back: fc.integer({ min: 0, max: 5 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('watch' as const),
      ns: fc.constantFrom(undefined, 'a'),
      selector: fc.constantFrom(undefined, 'x=1'),
      rv: fc.oneof(
        fc.constantFrom('empty' as const, 'zero' as const, 'current' as const),
        fc.record({ back: fc.integer({ min: 1, max: 8 }) }),
      ),
      allowWatchBookmarks: fc.boolean(),
      sendInitialEvents: fc.constantFrom(undefined, true, false),
      rate: rateArb,
      contentType: fc.constantFrom(undefined, contentTypeJSON, contentTypeProtobuf),
      timeoutSeconds: fc.constantFrom(undefined, undefined, 2, 20),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('rate' as const), watch: fc.nat(20), rate: rateArb }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('disconnect' as const), watch: fc.nat(20) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('step' as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 300, max: 3000 })),
    }),
  },
);

/** One write as etcd recorded it: the object after it and before it (prev), at its revision. */
interface HistoryEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  key: string;
  rv: number;
  obj: KubeObject;
  prev: KubeObject | undefined;
}

interface WatchRecord {
  req: ResourceWatchRequest;
  opened: OpenedWatch;
}

/** `TYPE ns/name@rv x=…`: what the properties compare. */
function show(type: string, o: KubeObject, rv: number | string): string {
  return `${type} ${o.metadata.namespace}/${o.metadata.name}@${rv} x=${o.metadata.labels?.x ?? ''}`;
}

class Oracle {
  readonly history: HistoryEvent[] = [];

  /** The objects at revision rv, by key (Go byte order = JS order for these ASCII keys). */
  stateAt(rv: number): Map<string, KubeObject> {
    const m = new Map<string, KubeObject>();
    for (const h of this.history) {
      if (h.rv > rv) break;
      if (h.type === 'DELETED') m.delete(h.key);
      else m.set(h.key, h.obj);
    }
    return m;
  }

  current(): Map<string, KubeObject> {
    return this.stateAt(Number.MAX_SAFE_INTEGER);
  }
}

function selects(req: ResourceWatchRequest, key: string, o: KubeObject | undefined): boolean {
  if (!o) return false;
  if (req.namespace !== undefined && !key.startsWith(`/pods/${req.namespace}/`)) return false;
  if (req.labelSelector === 'x=1' && o.metadata.labels?.x !== '1') return false;
  return true;
}

/** The watch events a watcher should see for the history after `fromRV` (convertToWatchEvent). */
function expectedLive(oracle: Oracle, req: ResourceWatchRequest, fromRV: number): string[] {
  const out: string[] = [];
  for (const h of oracle.history) {
    if (h.rv <= fromRV) continue;
    const cur = h.type !== 'DELETED' && selects(req, h.key, h.obj);
    const old = selects(req, h.key, h.prev);
    if (cur && !old) out.push(show('ADDED', h.obj, h.rv));
    else if (cur && old) out.push(show('MODIFIED', h.obj, h.rv));
    else if (!cur && old) out.push(show('DELETED', h.prev as KubeObject, h.rv));
  }
  return out;
}

async function runWorkload(seed: number, cmds: Cmd[], preStart = 0): Promise<void> {
  const clock = new FakeClock(0);
  const insp = new RecordingSink();
  const r: Resource = createResource({
    clock,
    rand: new SeededRandom(seed),
    eventSink: insp,
    cache: { bookmarkFrequency: 2000 },
  });
  const oracle = new Oracle();
  const watches: WatchRecord[] = [];
  // Pods that exist before the cache starts: listed, not in its history (older RVs get 410).
  for (let i = 0; i < preStart; i++) {
    const ns = namespaces[i % namespaces.length];
    const name = `pre${i}`;
    const out = await r.create(makePod({ name, namespace: ns, labels: { x: xs[i % 2] } }));
    oracle.history.push({
      type: 'ADDED',
      key: r.objectKey(ns, name),
      rv: Number(out.metadata.resourceVersion),
      obj: out,
      prev: undefined,
    });
  }
  r.start();
  await r.waitReady();
  await r.step(20);

  for (const c of cmds) {
    switch (c.op) {
      case 'create': {
        const key = r.objectKey(c.ns, c.name);
        if (oracle.current().has(key)) break;
        const out = await r.create(makePod({ name: c.name, namespace: c.ns, labels: { x: c.x } }));
        oracle.history.push({
          type: 'ADDED',
          key,
          rv: Number(out.metadata.resourceVersion),
          obj: out,
          prev: undefined,
        });
        break;
      }
      case 'update': {
        const key = r.objectKey(c.ns, c.name);
        const prev = oracle.current().get(key);
        if (!prev) break;
        const out = await r.setLabels(c.ns, c.name, { x: c.x });
        const rv = Number(out.metadata.resourceVersion);
        if (rv !== Number(prev.metadata.resourceVersion))
          oracle.history.push({ type: 'MODIFIED', key, rv, obj: out, prev });
        break;
      }
      case 'delete': {
        const key = r.objectKey(c.ns, c.name);
        const prev = oracle.current().get(key);
        if (!prev) break;
        const out = await r.delete(c.ns, c.name);
        oracle.history.push({
          type: 'DELETED',
          key,
          rv: Number(out.metadata.resourceVersion),
          obj: out,
          prev,
        });
        break;
      }
      case 'compact': {
        const rev = r.etcd.currentRevision() - c.back;
        if (rev > Math.max(0, r.etcd.compactRevision())) await r.compact(rev);
        break;
      }
      case 'watch': {
        const cur = r.etcd.currentRevision();
        const rv =
          c.rv === 'empty'
            ? ''
            : c.rv === 'zero'
              ? '0'
              : c.rv === 'current'
                ? String(cur)
                : String(Math.max(1, cur - c.rv.back));
        const req: ResourceWatchRequest = {
          namespace: c.ns,
          labelSelector: c.selector,
          resourceVersion: rv,
          allowWatchBookmarks: c.allowWatchBookmarks,
          sendInitialEvents: c.sendInitialEvents,
          readRate: c.rate,
          contentType: c.contentType,
          timeoutSeconds: c.timeoutSeconds,
          // Only RV "" / "0" with sendInitialEvents=true need NotOlderThan (validation); defaulting covers nil.
          resourceVersionMatch: c.sendInitialEvents !== undefined ? 'NotOlderThan' : undefined,
        };
        const p = r.watch(req);
        // A watch-list may wait for the cache (progress requests): let virtual time pass.
        let done = false;
        void p.then(
          () => (done = true),
          () => (done = true),
        );
        for (let i = 0; i < 50 && !done; i++) await r.step(100);
        const opened = await p;
        watches.push({ req, opened });
        break;
      }
      case 'rate': {
        const w = watches[c.watch % Math.max(1, watches.length)];
        if (w && !w.opened.client.closed) w.opened.client.setReadRate(c.rate);
        break;
      }
      case 'disconnect': {
        const w = watches[c.watch % Math.max(1, watches.length)];
        w?.opened.client.disconnect();
        break;
      }
      case 'step':
        await r.step(c.ms);
        break;
    }
    await r.settle();
  }
  // Drain: every client reads fast now.
  for (const w of watches)
    if (!w.opened.client.closed) w.opened.client.setReadRate({ kind: 'fast' });
  await r.step(5000);
  r.flushEvents();

  const registrations = new Map<
    number,
    ReturnType<RecordingSink['ofType']>[number] & { type: 'cacher/watch' }
  >();
  for (const e of insp.ofType('cacher/watch'))
    if (e.watcherId !== undefined) registrations.set(e.watcherId, e);
  const serverClosed = new Set<number | string>();
  for (const e of insp.ofType('watcher/closed')) serverClosed.add(e.watcherId);
  for (const e of insp.ofType('watcher/terminated')) serverClosed.add(e.watcherId);

  for (const [i, { req, opened }] of watches.entries()) {
    const name = `watch #${i} ${JSON.stringify({ ...req, readRate: undefined })}`;
    const events = opened.client.events;
    const client = opened.client;
    if (events.length > 0 && events[0].type === 'ERROR') {
      assert.strictEqual(events.length, 1, `${name}: a single ERROR event`);
      const code = (events[0].object as unknown as { code: number }).code;
      assert.ok(code === 410 || code === 504, `${name}: ERROR ${code}`);
      assert.ok(client.closed, `${name}: closed after the error`);
      continue;
    }
    if (opened.watcherId === undefined) {
      assert.deepStrictEqual(events, [], `${name}: an immediately closed watch has no events`);
      continue;
    }
    const reg = registrations.get(opened.watcherId);
    assert.ok(reg, `${name}: registration recorded`);
    const intervalRV = reg.intervalResourceVersion as number;
    const requestedRV = Number(opened.options.resourceVersion || '0');
    const sie = opened.options.sendInitialEvents;
    const fromStore = sie === true || (requestedRV === 0 && sie === undefined);
    const watchList = sie === true && (req.allowWatchBookmarks ?? false);
    const initial = fromStore
      ? [...oracle.stateAt(intervalRV).entries()]
          .filter(([k, o]) => selects(req, k, o))
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) // by key, as the store lists them
          .map(([, o]) => show('ADDED', o, o.metadata.resourceVersion ?? ''))
      : [];
    const live = expectedLive(oracle, req, intervalRV);

    // Split what the client got: initial events, bookmarks, live events.
    const got = events.map((e) =>
      e.type === 'BOOKMARK'
        ? `BOOKMARK @${e.resourceVersion}`
        : show(e.type, e.object, e.resourceVersion),
    );
    const nonBookmarks = events
      .filter((e) => e.type !== 'BOOKMARK')
      .map((e) => show(e.type, e.object, e.resourceVersion));
    const want = [...initial, ...live];
    const closed = client.closed;
    assert.ok(
      want.length >= nonBookmarks.length,
      `${name}: more events than etcd's history allows\n got ${JSON.stringify(got)}\nwant ${JSON.stringify(want)}`,
    );
    assert.deepStrictEqual(
      nonBookmarks,
      want.slice(0, nonBookmarks.length),
      `${name}: a gap-free prefix of the history\n got ${JSON.stringify(got)}`,
    );
    if (nonBookmarks.length < want.length) {
      assert.ok(
        closed,
        `${name}: truncated (${nonBookmarks.length}/${want.length}) but not closed\n got ${JSON.stringify(got)}\nwant ${JSON.stringify(want)}`,
      );
      if (client.closeReason === 'resultClosed')
        assert.ok(serverClosed.has(opened.watcherId), `${name}: the server recorded why it closed`);
    }

    // Bookmarks: only when asked for; never below what was delivered; events move forward.
    const bookmarks = events.filter((e) => e.type === 'BOOKMARK');
    if (!(req.allowWatchBookmarks ?? false))
      assert.strictEqual(bookmarks.length, 0, `${name}: bookmarks without allowWatchBookmarks`);
    let floor = fromStore ? intervalRV : Math.max(requestedRV, intervalRV);
    let seen = 0;
    for (const e of events) {
      const rv = Number(e.resourceVersion);
      if (e.type !== 'BOOKMARK' && seen < initial.length) {
        seen++;
        assert.ok(
          rv <= intervalRV,
          `${name}: initial event ${rv} above the interval RV ${intervalRV}`,
        );
        continue;
      }
      if (e.type === 'BOOKMARK') {
        assert.ok(
          rv >= floor,
          `${name}: bookmark ${rv} below the floor ${floor}\n got ${JSON.stringify(got)}`,
        );
        floor = rv;
      } else {
        assert.ok(
          rv > floor,
          `${name}: event ${rv} not after ${floor}\n got ${JSON.stringify(got)}`,
        );
        floor = rv;
      }
    }
    const endMarks = events
      .map((e, k) => ({ e, k }))
      .filter(
        (x) =>
          x.e.type === 'BOOKMARK' &&
          x.e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true',
      );
    if (!watchList)
      assert.strictEqual(
        endMarks.length,
        0,
        `${name}: an initial-events-end bookmark without a watch-list`,
      );
    else {
      assert.ok(endMarks.length <= 1, `${name}: more than one initial-events-end bookmark`);
      const reachedEnd = nonBookmarks.length > initial.length || !closed;
      if (reachedEnd) {
        assert.strictEqual(
          endMarks.length,
          1,
          `${name}: exactly one initial-events-end bookmark\n got ${JSON.stringify(got)}`,
        );
        const initialCount = events
          .slice(0, endMarks[0].k)
          .filter((e) => e.type !== 'BOOKMARK').length;
        assert.strictEqual(
          initialCount,
          initial.length,
          `${name}: the end bookmark right after the initial events`,
        );
        assert.strictEqual(
          Number(endMarks[0].e.resourceVersion),
          intervalRV,
          `${name}: the end bookmark at the interval RV`,
        );
      }
    }
  }

  // Serialization: per dispatched event, at most one encode per content type the receivers used.
  const encodes = new Map<string, Map<string, number>>();
  for (const s of insp.ofType('serialization/encode')) {
    const k = `${s.resourceVersion} ${s.key}`;
    const m = encodes.get(k) ?? new Map<string, number>();
    m.set(s.identifier, (m.get(s.identifier) ?? 0) + s.encodes);
    encodes.set(k, m);
  }
  for (const [k, m] of encodes) {
    for (const [id, n] of m) assert.ok(n <= 1, `${k}: ${n} encodes for ${id}`);
    const [rv, key] = k.split(' ');
    const receivers = new Set<string>();
    for (const { req, opened } of watches) {
      if (!req.contentType) continue;
      if (
        opened.client.events.some(
          (e) =>
            e.resourceVersion === rv &&
            `/pods/${e.object.metadata.namespace}/${e.object.metadata.name}` === key,
        )
      )
        receivers.add(req.contentType);
    }
    const encoded = [...m.values()].filter((n) => n > 0).length;
    assert.ok(
      encoded <= receivers.size,
      `${k}: ${encoded} identifiers encoded for ${receivers.size} receiving content types`,
    );
  }
  assert.strictEqual(
    insp.ofType('caching-object/invalidated').length,
    0,
    'no cached serialization was invalidated',
  );
  r.stop();
}
describe('the cacher under random workloads (property)', () => {
  it('streams are gap-free prefixes of etcd history, bookmarks respect floors, one end bookmark per watch-list, encodes bounded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(cmdArb, { minLength: 10, maxLength: 80 }),
        fc.integer({ min: 0, max: 4 }),
        async (seed, cmds, preStart) => {
          await runWorkload(seed, cmds, preStart);
        },
      ),
      { numRuns: 150, seed: 20240601 },
    );
  });

  it('a fixed heavy workload (many writes, slow and stalled clients)', async () => {
    const cmds: Cmd[] = [];
    for (let i = 0; i < 4; i++) {
      cmds.push({
        op: 'watch',
        ns: i % 2 ? 'a' : undefined,
        selector: i % 3 ? undefined : 'x=1',
        rv: i % 2 ? 'current' : 'empty',
        allowWatchBookmarks: true,
        sendInitialEvents: i % 2 ? undefined : true,
        rate: i === 3 ? { kind: 'stalled' } : { kind: 'slow', eventsPerSecond: 50 },
        contentType: i % 2 ? contentTypeJSON : contentTypeProtobuf,
        timeoutSeconds: undefined,
      });
    }
    for (let i = 0; i < 120; i++) {
      const ns = namespaces[i % 2];
      const name = names[i % 4];
      cmds.push(
        i % 7 === 6
          ? { op: 'delete', ns, name }
          : ({ op: i % 3 ? 'update' : 'create', ns, name, x: xs[i % 2] } as Cmd),
      );
      if (i % 10 === 0) cmds.push({ op: 'step', ms: 250 });
    }
    await runWorkload(7, cmds);
  });
});
