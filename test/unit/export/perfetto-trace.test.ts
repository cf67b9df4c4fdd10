// Tests for src/export/perfetto-trace.ts: real scenario runs exported as Chrome Trace Event JSON,
// checked against a JSON Schema of the Trace Event Format (trace-event-format.schema.json, ajv 8)
// and then track by track: a track per watcher and per client, LISTs with their etcd calls nested,
// the counters, flow arrows paired by id, ts in order and slices nesting on every track.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import {
  apiserverPid,
  clientsPid,
  counterNames,
  perfettoTraceSize,
  watchersPid,
  writePerfettoTrace,
} from '../../../src/export/perfetto-trace';
import type { CompleteEvent, TraceEvent } from '../../../src/export/trace-event';
import { RunModelBuilder } from '../../../src/run/build-run-model';
import type { ClientListRequest, RunModel } from '../../../src/run/run-model';
import { listRetryText } from '../../../src/run/views/chain-text';
import { runScenario } from '../../../src/scenarios/runner';
import { encodeContinue } from '../../../src/engine/storage/continue';
import { liveRunHeader } from '../run/live-run-header-fixture';

const root = path.resolve(__dirname, '../../../..');
const schemaFile = path.join(root, 'test/unit/export/trace-event-format.schema.json');

interface TraceFile {
  traceEvents: TraceEvent[];
  displayTimeUnit: string;
  otherData: Record<string, string>;
}

async function exported(model: RunModel): Promise<{ text: string; chunks: number }> {
  const chunks: string[] = [];
  const n = await writePerfettoTrace(model, (c) => void chunks.push(c));
  assert.strictEqual(n, perfettoTraceSize(model).events, 'the size said before writing');
  return { text: chunks.join(''), chunks: chunks.length };
}

const validate = new Ajv({ allErrors: true, strictTypes: false }).compile(
  JSON.parse(fs.readFileSync(schemaFile, 'utf8')) as object,
);

function schemaErrors(value: unknown): string {
  if (validate(value)) return '';
  return (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath} ${e.message ?? ''}`)
    .join('; ');
}

/** Thread names by "pid/tid". */
function threadNames(events: TraceEvent[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && 'name' in e.args)
      names.set(`${e.pid}/${e.tid}`, e.args.name);
  return names;
}

function slicesOf(events: TraceEvent[]): CompleteEvent[] {
  return events.filter((e): e is CompleteEvent => e.ph === 'X');
}

/** Up to rounding to the nanosecond (ts and dur are rounded separately). */
const epsilon = 0.002;
const endOf = (s: CompleteEvent) => s.ts + s.dur;

/** Checks every track: ts never goes back, slices nest (a stack), no B/E left open. */
function checkTracks(events: TraceEvent[], label: string): void {
  const stacks = new Map<string, CompleteEvent[]>();
  const lastTs = new Map<string, number>();
  const open = new Map<string, number>();
  for (const e of events) {
    if (e.ph === 'M') continue;
    const key = e.ph === 'C' ? `${e.pid}/counter/${e.name}` : `${e.pid}/${e.tid}`;
    if (e.ph === 'i' && e.s === 'g') continue;
    const prev = lastTs.get(key) ?? -Infinity;
    assert.ok(e.ts >= prev, `${label}: ${key}: ts ${e.ts} after ${prev} (${e.name})`);
    lastTs.set(key, e.ts);
    const ph = (e as { ph: string }).ph;
    if (ph === 'B') open.set(key, (open.get(key) ?? 0) + 1);
    if (ph === 'E') open.set(key, (open.get(key) ?? 0) - 1);
    if (e.ph !== 'X') continue;
    const stack = stacks.get(key) ?? [];
    stacks.set(key, stack);
    // Pop what ended before this slice starts, or ends where it starts while this one goes on
    // (a zero-length slice where its parent ends is still its child).
    for (let top = stack[stack.length - 1]; top; top = stack[stack.length - 1]) {
      const ended = endOf(top) < e.ts - epsilon;
      const touching = endOf(top) <= e.ts + epsilon && endOf(e) > endOf(top) + epsilon;
      if (!ended && !touching) break;
      stack.pop();
    }
    const parent = stack[stack.length - 1];
    if (parent)
      assert.ok(
        endOf(e) <= endOf(parent) + epsilon,
        `${label}: ${key}: ${e.name} [${e.ts}, ${endOf(e)}] overlaps ${parent.name} [${parent.ts}, ${endOf(parent)}] without nesting`,
      );
    stack.push(e);
  }
  for (const [key, n] of open) assert.strictEqual(n, 0, `${label}: ${key}: B/E unbalanced`);
}

/** Every flow_in has its one flow_out by bind_id, earlier or at the same time. */
function checkFlows(events: TraceEvent[], label: string): number {
  const outs = new Map<number, CompleteEvent>();
  const ins: CompleteEvent[] = [];
  for (const s of slicesOf(events)) {
    if (s.flow_out) {
      assert.ok(!outs.has(s.bind_id as number), `${label}: bind_id ${s.bind_id} starts twice`);
      outs.set(s.bind_id as number, s);
    }
    if (s.flow_in) ins.push(s);
  }
  const used = new Set<number>();
  for (const i of ins) {
    const o = outs.get(i.bind_id as number);
    assert.ok(o, `${label}: flow ${i.bind_id} ends at ${i.name} but never starts`);
    assert.ok(o.ts <= i.ts, `${label}: flow ${i.bind_id} goes back in time`);
    // The write's revisions hold the RV of the event the read ended with.
    const [first, last = first] = String(o.args?.revisions).split('–').map(Number);
    const rv = Number(i.args?.lastRv);
    assert.ok(
      first <= rv && rv <= last,
      `${label}: flow ${i.bind_id}: rv ${rv} not in ${first}–${last}`,
    );
    used.add(i.bind_id as number);
  }
  for (const id of outs.keys()) assert.ok(used.has(id), `${label}: flow ${id} starts, never ends`);
  return ins.length;
}

const runs: Array<{ name: string; set: Record<string, number>; watchers: boolean }> = [
  {
    name: 'selector-death-spiral',
    set: { objects: 3000, matchEvery: 10, limit: 50, pages: 2 },
    watchers: false,
  },
  { name: 'serialization-fanout', set: { watchers: 4, events: 6 }, watchers: true },
  { name: 'watchlist-starvation', set: { watchers: 3, stuckSeconds: 4 }, watchers: true },
  { name: 'read-your-writes', set: { readers: 2 }, watchers: false },
];

describe('perfetto export', () => {
  it('the schema refuses what the importers refuse', () => {
    const base = { pid: 1, tid: 1, ts: 0 };
    const table: Array<[string, unknown]> = [
      ['X without dur', { ...base, ph: 'X', name: 'a' }],
      ['X with a negative dur', { ...base, ph: 'X', name: 'a', dur: -1 }],
      ['C with a string series', { ...base, ph: 'C', name: 'c', args: { value: 'high' } }],
      ['C without args', { ...base, ph: 'C', name: 'c' }],
      ['thread_name without a name', { ...base, ph: 'M', name: 'thread_name', args: {} }],
      ['flow_in without bind_id', { ...base, ph: 'X', name: 'a', dur: 1, flow_in: true }],
      ['f without id', { ...base, ph: 'f', name: 'f', bp: 'e' }],
      ['an unknown phase', { ...base, ph: 'Q', name: 'q' }],
      ['an instant of an unknown scope', { ...base, ph: 'i', name: 'i', s: 'x' }],
    ];
    for (const [what, event] of table)
      assert.notStrictEqual(schemaErrors({ traceEvents: [event] }), '', what);
    assert.strictEqual(
      schemaErrors({ traceEvents: [{ ...base, ph: 'X', name: 'a', dur: 0 }] }),
      '',
    );
  });

  const cases = new Map<
    string,
    { model: RunModel; file: TraceFile; text: string; chunks: number }
  >();
  before(async () => {
    for (const r of runs) {
      const { model } = await runScenario(r.name, r.set, { seed: 7 });
      const { text, chunks } = await exported(model);
      cases.set(r.name, { model, file: JSON.parse(text) as TraceFile, text, chunks });
    }
  });

  for (const r of runs) {
    it(`${r.name}: the file is the Trace Event Format's JSON Object Format (schema)`, () => {
      const { file, model } = cases.get(r.name)!;
      assert.strictEqual(schemaErrors(file), '', r.name);
      assert.strictEqual(file.displayTimeUnit, 'ms');
      assert.strictEqual(file.otherData.scenario, r.name);
      assert.strictEqual(file.otherData.seed, '7');
      assert.deepStrictEqual(JSON.parse(file.otherData.params), model.header.params);
    });

    it(`${r.name}: every track keeps ts in order and its slices nest`, () => {
      checkTracks(cases.get(r.name)!.file.traceEvents, r.name);
    });

    it(`${r.name}: a named track per watcher and per client`, () => {
      const { file, model } = cases.get(r.name)!;
      const names = threadNames(file.traceEvents);
      const watcherTracks = [...names].filter(([k]) => k.startsWith(`${watchersPid}/`));
      assert.strictEqual(watcherTracks.length, model.watchers.length);
      for (const w of model.watchers) {
        const track = watcherTracks.find(([, n]) => n.split(' · ')[0] === `watcher ${w.id}`);
        assert.ok(track, `no track for watcher ${w.id}`);
        const states = slicesOf(file.traceEvents).filter(
          (s) => `${s.pid}/${s.tid}` === track[0] && s.cat === 'watcher',
        );
        assert.ok(states.length > 0, `watcher ${w.id} has no state slices`);
        for (const s of states)
          assert.ok(
            ['WaitingForBookmark', 'BookmarkReceived', 'BookmarkSent'].includes(
              String(s.args?.state),
            ),
          );
        assert.strictEqual(
          states[0].ts,
          Math.round(w.states[0].at * 1e6) / 1000,
          'opens when created',
        );
      }
      const clientTracks = new Set(
        [...names].filter(([k]) => k.startsWith(`${clientsPid}/`)).map(([, n]) => n),
      );
      assert.ok((model.clients ?? []).length > 0);
      for (const c of model.clients ?? [])
        assert.ok(clientTracks.has(c.id), `no track for ${c.id}`);
      const requests = slicesOf(file.traceEvents).filter(
        (s) => s.pid === clientsPid && (s.cat === 'list' || s.cat === 'watch'),
      );
      assert.strictEqual(
        requests.length,
        (model.clients ?? []).reduce((n, c) => n + c.requests.length, 0),
        'every request of every client is a slice',
      );
    });

    it(`${r.name}: LISTs are slices with their etcd calls nested, args from the run`, () => {
      const { file, model } = cases.get(r.name)!;
      const slices = slicesOf(file.traceEvents);
      const lists = slices.filter((s) => s.cat === 'list');
      assert.strictEqual(lists.length, model.lists.length + (model.cacherLists?.length ?? 0));
      for (const l of lists) {
        for (const k of ['request', 'servedBy', 'rule', 'fetched', 'returned', 'continueDecoded'])
          assert.ok(l.args && k in l.args, `${l.name}: no ${k}`);
        const calls = slices.filter(
          (s) =>
            s.cat === 'etcd' &&
            s.pid === l.pid &&
            s.tid === l.tid &&
            s.ts >= l.ts &&
            endOf(s) <= endOf(l) + epsilon,
        );
        assert.strictEqual(
          calls.length,
          l.args?.etcdRequests,
          `${l.args?.request}: its etcd calls`,
        );
        for (const c of calls)
          for (const k of ['key', 'rangeEnd', 'limit', 'returned', 'count', 'more'])
            assert.ok(c.args && k in c.args, `${c.name}: no ${k}`);
      }
    });

    it(`${r.name}: counters for cache RV, etcd RV, capacity${r.watchers ? ' and buffer fill' : ''}`, () => {
      const { file } = cases.get(r.name)!;
      const counters = new Set(
        file.traceEvents.filter((e) => e.ph === 'C' && e.pid === apiserverPid).map((e) => e.name),
      );
      const expected: string[] = [counterNames.cacheRv, counterNames.etcdRv, counterNames.capacity];
      if (r.watchers) expected.push(counterNames.bufferFill);
      assert.deepStrictEqual([...counters].sort(), expected.sort());
    });

    it(`${r.name}: flow arrows pair by id, from a write to the reads of its event`, () => {
      const { file } = cases.get(r.name)!;
      const flows = checkFlows(file.traceEvents, r.name);
      if (r.watchers) assert.ok(flows > 0, 'no write reached a watcher');
      else assert.strictEqual(flows, 0);
    });
  }

  it("selector-death-spiral: the page-doubling loop is the LIST's nested etcd calls, 50 100 200 …", () => {
    const { file } = cases.get('selector-death-spiral')!;
    const slices = slicesOf(file.traceEvents);
    const first = slices.find((s) => s.cat === 'list')!;
    const calls = slices.filter(
      (s) => s.cat === 'etcd' && s.tid === first.tid && s.ts < endOf(first),
    );
    assert.deepStrictEqual(
      calls.slice(0, 4).map((c) => c.args?.limit),
      [50, 100, 200, 400],
    );
    assert.strictEqual(calls[0].args?.more, true);
    assert.match(
      String(first.args?.continueDecoded),
      /^start key "pod-\d+\\u0000", resourceVersion \d+$/,
    );
    const second = slices.filter((s) => s.cat === 'list')[1];
    assert.match(String(second.args?.continueFrom), /^start key "pod-\d+\\u0000"/);
  });

  it('a big run streams in chunks, and its size is known before writing', async () => {
    const { model } = await runScenario(
      'serialization-fanout',
      { watchers: 50, events: 60 },
      { seed: 7 },
    );
    const size = perfettoTraceSize(model);
    assert.ok(size.events > 2000, String(size.events));
    const { text, chunks } = await exported(model);
    assert.ok(chunks > 2, `written in ${chunks} chunks`);
    assert.strictEqual((JSON.parse(text) as TraceFile).traceEvents.length, size.events);
    assert.strictEqual(size.flows, checkFlows((JSON.parse(text) as TraceFile).traceEvents, 'big'));
  });

  it('a retried page is marked as the Clients tab shows it: the same chain and page, its name and retryOf say the retry', async () => {
    const b = new RunModelBuilder(liveRunHeader());
    const prefix = '/registry/pods/default/';
    const t1 = encodeContinue(`${prefix}pod-1\u0000`, prefix, 100);
    const timeout = {
      code: 504,
      reason: 'Timeout',
      message: 'the server was unable to return a response in the time allotted',
    };
    let n = 0;
    const list = (at: number, query: string, o: { next?: string; error?: typeof timeout }) => {
      n++;
      const request = `/api/v1/namespaces/default/pods?${query}`;
      b.addInput(at, {
        action: 'list',
        id: `l${n}`,
        requestId: n,
        request,
        via: 'store',
        client: 'kubectl',
      });
      b.addInput(at + 5, {
        action: 'list-end',
        id: `l${n}`,
        requestId: n,
        status: o.error ? o.error.code : 200,
        items: o.error ? 0 : 2,
        resourceVersion: o.error ? '' : '100',
        continue: o.next ?? '',
        ...(o.error ? { error: o.error } : {}),
      });
    };
    list(0, 'limit=2', { error: timeout });
    list(1000, 'limit=2', { next: t1 });
    list(2000, `continue=${t1}&limit=2`, { error: timeout });
    list(3000, `continue=${t1}&limit=2`, {});
    const model = b.finish();
    const { text } = await exported(model);
    const file = JSON.parse(text) as TraceFile;
    assert.strictEqual(schemaErrors(file), '');
    const lists = slicesOf(file.traceEvents)
      .filter((s) => s.pid === clientsPid && s.cat === 'list')
      .sort((a, b) => a.ts - b.ts);
    assert.deepStrictEqual(
      lists.map((s) => [s.name, s.args?.chain, s.args?.page]),
      [
        ['LIST → 504', 1, 1],
        ['LIST (etcd) (retry of chain 1 page 1 → 504)', 1, 1],
        ['LIST → 504', 1, 2],
        ['LIST (etcd) (retry of chain 1 page 2 → 504)', 1, 2],
      ],
      'one chain, each retry on the page it re-sent, named as a retry',
    );
    assert.deepStrictEqual(
      lists.map((s) => s.args?.retryOf),
      [
        undefined,
        'retry of page 1: the same request (no continue) again after its 504 Timeout answer at 0.000 s (client-go re-sends a request answered 429 or 5xx with Retry-After); the same chain, not a new one',
        undefined,
        'retry of page 2: the same continue token again after its 504 Timeout answer at 2.000 s (client-go re-sends a page answered 429 or 5xx with Retry-After); the token came from page 1',
      ],
    );
    // The Clients tab's words for the same requests (webview/clients-view.ts calls listRetryText).
    const [c] = model.clients ?? [];
    assert.deepStrictEqual(
      c.requests.map((r) =>
        r.kind === 'list' && r.retryOf !== undefined
          ? listRetryText(r, c.requests[r.retryOf] as ClientListRequest)
          : undefined,
      ),
      lists.map((s) => s.args?.retryOf),
    );
  });

  it("a live WatchList's reads are labelled by the lines its client read; an arrow only from a write it read", async () => {
    const b = new RunModelBuilder(liveRunHeader());
    // rv 12 wrote the pod this fieldSelector watch matches; rv 13–19 wrote other pods.
    b.addInput(0, {
      action: 'seed',
      objects: 11,
      keyPrefix: '/registry/pods/',
      revision: 11,
      text: '',
    });
    b.addInput(5, {
      action: 'writes',
      verb: 'create',
      count: 1,
      revision: 12,
      keyPrefix: '/registry/pods/default/',
    });
    b.addInput(8, {
      action: 'writes',
      verb: 'update',
      count: 7,
      revision: 19,
      keyPrefix: '/registry/pods/default/',
    });
    b.add({
      type: 'watcher/created',
      at: 10,
      watcherId: 7,
      groupResource: { group: '', resource: 'pods' },
      identifier: 'key: "/pods/default", labels: "", fields: "metadata.name=pod-1"',
      chanSize: 10,
      deadline: null,
      allowWatchBookmarks: true,
    });
    b.addInput(10, {
      action: 'watch-opened',
      client: 'kubectl/v1.35.0',
      requestId: 3,
      watcherId: 7,
      readsRecorded: true,
    });
    // The initial-events-end bookmark is put in the result channel before the client reads a line.
    b.add({
      type: 'watcher/bookmark',
      at: 11,
      watcherId: 7,
      resourceVersion: 19,
      outcome: 'delivered',
      initialEventsEnd: true,
    });
    // The client reads ADDED (rv 12), then the BOOKMARK (rv 19).
    b.add({
      kind: 'metrics',
      scope: 'watchers',
      at: 12,
      changes: [{ ids: [7], received: 1, lastRv: 12, bookmarksRead: 0, lastEventRv: 12 }],
    });
    b.add({
      kind: 'metrics',
      scope: 'watchers',
      at: 13,
      changes: [{ ids: [7], received: 1, lastRv: 19, bookmarksRead: 1 }],
    });
    const { text } = await exported(b.finish());
    const file = JSON.parse(text) as TraceFile;
    assert.strictEqual(schemaErrors(file), '');
    const reads = file.traceEvents.filter(
      (e): e is CompleteEvent => e.ph === 'X' && e.cat === 'delivery' && e.pid === watchersPid,
    );
    assert.deepStrictEqual(
      reads.map((e) => [e.name, e.args?.lastRv, e.args?.write ?? null, e.bind_id ?? null]),
      [
        ['events read', 12, 'rv 12, written at 5 ms', reads[0]?.bind_id ?? null],
        ['bookmark read', 19, null, null],
      ],
    );
    assert.ok(reads[0].bind_id !== undefined, 'the ADDED read has its arrow');
    const writes = file.traceEvents.filter(
      (e): e is CompleteEvent => e.ph === 'X' && e.cat === 'etcd' && e.name.startsWith('writes'),
    );
    assert.deepStrictEqual(
      writes.map((e) => [e.name, e.bind_id ?? null]),
      [
        ['writes → rv 11', null],
        ['writes → rv 12', reads[0].bind_id],
        ['writes → rv 19', null],
      ],
      'no arrow from the writes this watch never received',
    );
    assert.ok(!('bufferFill' in (reads[0].args ?? {})), 'a live run does not record buffers');
  });

  // The Watchers tab's words (watcher-states.ts watcherStateText), upstream's name as an arg.
  const stateNameCases: Array<{
    name: string;
    allowWatchBookmarks: boolean;
    /** How long before its first state change the watcher was created (default 0). */
    createdBeforeMs?: number;
    states: Array<{
      to: 'WaitingForBookmark' | 'BookmarkReceived' | 'BookmarkSent';
      floor: number;
    }>;
    want: Array<[string, string]>;
  }> = [
    {
      name: 'a watch that asked for no bookmarks',
      allowWatchBookmarks: false,
      states: [{ to: 'BookmarkSent', floor: 0 }],
      want: [['Streaming (no bookmarks asked)', 'BookmarkSent']],
    },
    {
      name: 'a get -w watch, a millisecond in its zero state before it is registered',
      allowWatchBookmarks: false,
      createdBeforeMs: 1,
      states: [{ to: 'BookmarkSent', floor: 0 }],
      want: [
        ['Opening', 'WaitingForBookmark'],
        ['Streaming (no bookmarks asked)', 'BookmarkSent'],
      ],
    },
    {
      name: 'a reflector watch with heartbeat bookmarks',
      allowWatchBookmarks: true,
      states: [{ to: 'BookmarkSent', floor: 0 }],
      want: [['Streaming', 'BookmarkSent']],
    },
    {
      name: 'a WatchList watch through its three states',
      allowWatchBookmarks: true,
      states: [
        { to: 'WaitingForBookmark', floor: 9 },
        { to: 'BookmarkReceived', floor: 9 },
        { to: 'BookmarkSent', floor: 9 },
      ],
      want: [
        ['Initial events', 'WaitingForBookmark'],
        ['End bookmark due', 'BookmarkReceived'],
        ['Streaming (initial events done)', 'BookmarkSent'],
      ],
    },
  ];
  for (const c of stateNameCases) {
    it(`a state slice is named as the Watchers tab reads it: ${c.name}`, async () => {
      const b = new RunModelBuilder(liveRunHeader());
      b.add({
        type: 'watcher/created',
        at: 10 - (c.createdBeforeMs ?? 0),
        watcherId: 4,
        groupResource: { group: '', resource: 'pods' },
        identifier: 'key: "/pods", labels: "", fields: ""',
        chanSize: 10,
        deadline: null,
        allowWatchBookmarks: c.allowWatchBookmarks,
      });
      let from: 'WaitingForBookmark' | 'BookmarkReceived' | 'BookmarkSent' = 'WaitingForBookmark';
      c.states.forEach((s, i) => {
        b.add({
          type: 'watcher/state',
          at: 10 + 5 * i,
          watcherId: 4,
          from,
          to: s.to,
          bookmarkAfterResourceVersion: s.floor,
        });
        from = s.to;
      });
      const file = JSON.parse((await exported(b.finish())).text) as TraceFile;
      const states = slicesOf(file.traceEvents).filter(
        (s) => s.pid === watchersPid && s.cat === 'watcher',
      );
      assert.deepStrictEqual(
        states.map((s) => [s.name, s.args?.state]),
        c.want,
        c.name,
      );
    });
  }

  it('a live run is named on real time, with no seed', async () => {
    const b = new RunModelBuilder(liveRunHeader());
    b.addInput(0, {
      action: 'seed',
      objects: 1,
      keyPrefix: '/registry/pods/',
      revision: 1,
      text: '',
    });
    const file = JSON.parse((await exported(b.finish())).text) as TraceFile;
    const process = file.traceEvents.find(
      (e) => e.ph === 'M' && e.name === 'process_name' && e.pid === apiserverPid,
    );
    assert.strictEqual(
      (process?.args as { name?: string } | undefined)?.name,
      'apiserver · live (profile 1.36, real time)',
    );
    assert.ok(!('seed' in file.otherData), JSON.stringify(file.otherData));
    assert.match(file.otherData.timeline, /^real time/);
  });

  it("a client's track says when its connections were joined by inference, not proof", async () => {
    const b = new RunModelBuilder(liveRunHeader());
    const ua = 'kubectl.1.32/v1.32.5';
    // Three one-LIST connections one after another: without Kubectl-Session, one inferred client;
    // with three sessions, three clients.
    const sent: Array<[string, string | undefined]> = [
      ['c1', undefined],
      ['c2', undefined],
      ['c3', 's-a'],
      ['c4', 's-b'],
    ];
    sent.forEach(([connection, session], i) => {
      const at = 100 * i;
      b.addInput(at, {
        action: 'list',
        id: `l${i}`,
        requestId: i + 1,
        request: '/api/v1/pods?limit=500',
        via: 'store',
        client: i < 2 ? ua : `${ua} (sessions)`,
        connection,
        ...(session ? { session } : {}),
      });
      b.addInput(at + 10, {
        action: 'list-end',
        id: `l${i}`,
        requestId: i + 1,
        status: 200,
        items: 0,
        resourceVersion: '5',
        continue: '',
      });
    });
    const file = JSON.parse((await exported(b.finish())).text) as TraceFile;
    assert.deepStrictEqual(
      [...threadNames(file.traceEvents)]
        .filter(([k]) => k.startsWith(`${clientsPid}/`))
        .map(([, n]) => n),
      [`${ua} · c1, c2 (joined by inference)`, `${ua} (sessions) · c3`, `${ua} (sessions) · c4`],
    );
  });

  it('names from the run are bounded and shown, args keep them as data', async () => {
    const b = new RunModelBuilder(liveRunHeader());
    const hostile = `<script>alert(1)</script>\u0000\u001b[31m${'x'.repeat(300)}`;
    b.addInput(0, {
      action: 'list',
      id: 'l1',
      requestId: 1,
      request: '/api/v1/pods?limit=5',
      via: 'store',
      client: hostile,
    });
    b.addInput(2, {
      action: 'list-end',
      id: 'l1',
      requestId: 1,
      status: 200,
      items: 0,
      resourceVersion: '5',
      continue: 'not-a-token',
    });
    const model = b.finish();
    const { text } = await exported(model);
    const file = JSON.parse(text) as TraceFile;
    assert.strictEqual(schemaErrors(file), '');
    const name = [...threadNames(file.traceEvents).values()].find((n) => n.startsWith('<script>'));
    assert.ok(name, 'the client has its track');
    assert.ok(name.length <= 100, `${name.length} characters`);
    assert.ok(
      [...name].every((ch) => ch.charCodeAt(0) >= 0x20),
      'control characters are shown, not kept',
    );
    const list = slicesOf(file.traceEvents).find((s) => s.cat === 'list');
    assert.strictEqual(list?.args?.client, hostile, 'args hold the run as it was');
    assert.match(String(list?.args?.continueDecoded), /^not valid: continue key is not valid/);
  });
});
