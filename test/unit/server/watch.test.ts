// Tests for src/server/handlers/watch.ts: a real http.Server on 127.0.0.1:0 serving the engine's
// watches (a FakeClock resource) to a real http client reading the chunked stream. Ports the
// behaviours upstream's watch_test.go and the cacher tests check at the handler: event lines,
// bookmarks, the WatchList end bookmark, a 410 ERROR event, the timeout, disconnects and a client
// that stops reading.
import * as assert from 'assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeClock } from '../../../src/engine/clock';
import { SeededRandom } from '../../../src/engine/rand';
import {
  createResource,
  type Resource,
  type ResourceWatchRequest,
} from '../../../src/engine/apiserver';
import { watchRequestTimeout } from '../../../src/engine/cacher/cacher';
import { WatchRequestContext } from '../../../src/engine/clients/watch-client';
import { newCachingObject } from '../../../src/engine/cacher/caching-object';
import {
  formatRFC3339,
  makePod,
  objectEpochMs,
  type KubeObject,
} from '../../../src/engine/storage/objects';
import { negotiateEncoding } from '../../../src/server/negotiation';
import {
  serveWatch,
  WatchEventEncoder,
  watchEventEncoderFor,
  type ServeWatchOptions,
  type WatchCloseReason,
  type WatchServer,
} from '../../../src/server/handlers/watch';
import type { ServedResource } from '../../../src/server/served-resource';

const podsServed: Pick<
  ServedResource,
  'group' | 'version' | 'resource' | 'kind' | 'jsonOnly' | 'printerColumns'
> = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', jsonOnly: false };

/** Resource.openWatch's steps (the core's addition to apiserver.ts), without a modelled client. */
async function openWatch(r: Resource, req: ResourceWatchRequest, rand: SeededRandom) {
  const options = r.watchOptions(req);
  const timeoutMs = watchRequestTimeout(req.timeoutSeconds, r.minRequestTimeoutMs, rand);
  const ctx = new WatchRequestContext(r.clock, timeoutMs);
  const watcher = await r.delegator.watch(r.collectionKey(req.namespace), options, {
    requestNamespace: req.namespace,
    ctx,
    request: r.watchContext(req),
  });
  return { watcher, ctx, timeoutMs };
}

interface Harness {
  r: Resource;
  clock: FakeClock;
  url: string;
  server: http.Server;
  /** The handlers' close reasons, in order. */
  closes: WatchCloseReason[];
  handlers: WatchServer[];
  close(): Promise<void>;
}

async function harness(
  before?: (r: Resource) => Promise<void>,
  cache: Parameters<typeof createResource>[0]['cache'] = {},
  /** Awaited between opening the watch and serving it (a client may vanish meanwhile). */
  beforeServe?: () => Promise<void>,
): Promise<Harness> {
  const clock = new FakeClock(0);
  const r = createResource({ clock, rand: new SeededRandom(7), cache });
  if (before) await before(r);
  r.start();
  await r.waitReady();
  await r.step(20);
  const rand = new SeededRandom(1);
  const closes: WatchCloseReason[] = [];
  const handlers: WatchServer[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    const negotiated = negotiateEncoding(
      { accept: req.headers.accept, query: q, userAgent: req.headers['user-agent'] },
      'watch',
    );
    if (!negotiated.ok) {
      res.writeHead(negotiated.status.code ?? 500).end(JSON.stringify(negotiated.status));
      return;
    }
    const wreq: ResourceWatchRequest = {
      namespace: q.get('namespace') ?? undefined,
      resourceVersion: q.get('resourceVersion') ?? undefined,
      resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
      allowWatchBookmarks: q.get('allowWatchBookmarks') === 'true',
      sendInitialEvents: q.has('sendInitialEvents')
        ? q.get('sendInitialEvents') === 'true'
        : undefined,
      timeoutSeconds: q.has('timeoutSeconds') ? Number(q.get('timeoutSeconds')) : undefined,
    };
    void openWatch(r, wreq, rand).then(async (w) => {
      await beforeServe?.();
      handlers.push(
        serveWatch(res, w, {
          clock,
          served: podsServed,
          encoding: negotiated.encoding,
          now: () => objectEpochMs + clock.now(),
          hooks: { closed: (reason) => closes.push(reason) },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    r,
    clock,
    url: `http://127.0.0.1:${port}/api/v1/pods`,
    server,
    closes,
    handlers,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      r.stop();
    },
  };
}

/** A real client reading the stream line by line. */
class StreamReader {
  readonly lines: Record<string, unknown>[] = [];
  response: http.IncomingMessage | undefined;
  readonly request: http.ClientRequest;
  readonly ended: Promise<void>;
  private waiters: { n: number; resolve: () => void }[] = [];
  private buffered = '';

  constructor(url: string, accept?: string) {
    let endResolve: () => void = () => undefined;
    this.ended = new Promise((resolve) => (endResolve = resolve));
    this.request = http.get(url, { headers: accept ? { Accept: accept } : {} }, (res) => {
      this.response = res;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        this.buffered += chunk;
        let nl;
        while ((nl = this.buffered.indexOf('\n')) >= 0) {
          this.lines.push(JSON.parse(this.buffered.slice(0, nl)) as Record<string, unknown>);
          this.buffered = this.buffered.slice(nl + 1);
        }
        this.wake();
      });
      res.on('end', endResolve);
      res.on('close', endResolve);
    });
    this.request.on('error', () => endResolve());
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (this.lines.length < w.n) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `n` lines have arrived. */
  waitLines(n: number): Promise<void> {
    if (this.lines.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  /** Resolves once the response headers are in. */
  async headers(): Promise<http.IncomingMessage> {
    while (this.response === undefined) await new Promise((r) => setImmediate(r));
    return this.response;
  }
}

/** Lets sockets and promise continuations run (no wall-clock wait). */
async function io(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/** Steps the FakeClock in `stepMs` increments until `done()`, at most `maxSteps` times. */
async function stepUntil(h: Harness, done: () => boolean, stepMs: number, maxSteps: number) {
  for (let i = 0; i < maxSteps && !done(); i++) {
    await h.r.step(stepMs);
    await io();
  }
}

function meta(line: Record<string, unknown>): Record<string, unknown> {
  return (line.object as { metadata: Record<string, unknown> }).metadata;
}

describe('serveWatch (WatchServer.HandleHTTP over a real socket)', () => {
  it('streams ADDED, MODIFIED and DELETED as JSON lines, headers flushed before any event', async () => {
    const h = await harness();
    try {
      const reader = new StreamReader(`${h.url}?watch=true&resourceVersion=0`);
      const res = await reader.headers();
      assert.strictEqual(res.statusCode, 200);
      assert.strictEqual(res.headers['content-type'], 'application/json');
      assert.strictEqual(res.headers['transfer-encoding'], 'chunked');
      assert.strictEqual(reader.lines.length, 0, 'headers arrive before any event');
      await h.r.createPod({ name: 'a', namespace: 'ns' });
      await h.r.settle();
      await reader.waitLines(1);
      await h.r.setLabels('ns', 'a', { app: 'x' });
      await h.r.settle();
      await reader.waitLines(2);
      await h.r.delete('ns', 'a');
      await h.r.settle();
      await reader.waitLines(3);
      assert.deepStrictEqual(
        reader.lines.map((l) => [l.type, meta(l).name]),
        [
          ['ADDED', 'a'],
          ['MODIFIED', 'a'],
          ['DELETED', 'a'],
        ],
      );
      const obj = reader.lines[0].object as Record<string, unknown>;
      assert.strictEqual(obj.kind, 'Pod');
      assert.strictEqual(obj.apiVersion, 'v1');
      assert.deepStrictEqual(meta(reader.lines[1]).labels, { app: 'x' });
      assert.ok(
        Number(meta(reader.lines[2]).resourceVersion) >
          Number(meta(reader.lines[1]).resourceVersion),
        'the DELETED event carries the delete revision',
      );
    } finally {
      await h.close();
    }
  });

  it('sends periodic BOOKMARK events with kind, apiVersion and the resourceVersion', async () => {
    const h = await harness(undefined, { bookmarkFrequency: 5_000 });
    try {
      // A resourceVersion other than "0": not defaulted to a watch-list (no initial-events-end).
      const rv = h.r.etcd.currentRevision();
      const reader = new StreamReader(
        `${h.url}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=600`,
      );
      await reader.headers();
      await h.r.createPod({ name: 'a', namespace: 'ns' });
      await h.r.settle();
      await reader.waitLines(1);
      await stepUntil(h, () => reader.lines.some((l) => l.type === 'BOOKMARK'), 1000, 120);
      const bookmark = reader.lines.find((l) => l.type === 'BOOKMARK');
      assert.ok(bookmark, 'a bookmark arrives');
      const o = bookmark.object as Record<string, unknown>;
      assert.strictEqual(o.kind, 'Pod');
      assert.strictEqual(o.apiVersion, 'v1');
      assert.deepStrictEqual(Object.keys(meta(bookmark)), ['resourceVersion']);
      assert.ok(
        Number(meta(bookmark).resourceVersion) >= Number(meta(reader.lines[0]).resourceVersion),
      );
    } finally {
      await h.close();
    }
  });

  it('ends a watch-list with the k8s.io/initial-events-end bookmark after the initial ADDED events', async () => {
    const h = await harness(async (r) => {
      for (const n of ['a', 'b']) await r.createPod({ name: n, namespace: 'ns' });
    });
    try {
      const reader = new StreamReader(
        `${h.url}?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=600`,
      );
      await reader.headers();
      await stepUntil(h, () => reader.lines.length >= 3, 50, 200);
      await reader.waitLines(3);
      assert.deepStrictEqual(
        reader.lines.slice(0, 2).map((l) => [l.type, meta(l).name]),
        [
          ['ADDED', 'a'],
          ['ADDED', 'b'],
        ],
      );
      const end = reader.lines[2];
      assert.strictEqual(end.type, 'BOOKMARK');
      assert.deepStrictEqual(meta(end).annotations, { 'k8s.io/initial-events-end': 'true' });
      assert.strictEqual(meta(end).resourceVersion, String(h.r.etcd.currentRevision()));
    } finally {
      await h.close();
    }
  });

  it('answers a watch from a resourceVersion before the cache with a 410 ERROR event, then ends', async () => {
    const h = await harness(async (r) => {
      for (const n of ['a', 'b', 'c']) await r.createPod({ name: n, namespace: 'ns' });
    });
    try {
      const reader = new StreamReader(`${h.url}?watch=true&resourceVersion=1`);
      await reader.ended;
      assert.strictEqual(reader.lines.length, 1);
      const [line] = reader.lines;
      assert.strictEqual(line.type, 'ERROR');
      const status = line.object as Record<string, unknown>;
      assert.strictEqual(status.kind, 'Status');
      assert.strictEqual(status.code, 410);
      assert.strictEqual(status.reason, 'Expired');
      assert.match(String(status.message), /^too old resource version: 1 \(\d+\)$/);
      assert.deepStrictEqual(h.closes, ['resultClosed']);
    } finally {
      await h.close();
    }
  });

  it('ends the chunked response cleanly at timeoutSeconds and leaves no watcher', async () => {
    const h = await harness();
    try {
      const reader = new StreamReader(`${h.url}?watch=true&resourceVersion=0&timeoutSeconds=5`);
      await reader.headers();
      await io();
      assert.strictEqual(h.r.cacher.watcherCount(), 1);
      await h.r.step(4_999);
      await io();
      assert.deepStrictEqual(h.closes, [], 'still open before the timeout');
      await h.r.step(1);
      await reader.ended;
      assert.deepStrictEqual(h.closes, ['timeout']);
      assert.strictEqual(reader.response?.complete, true, 'the terminating chunk arrived');
      assert.strictEqual(h.r.cacher.watcherCount(), 0);
    } finally {
      await h.close();
    }
  });

  it('without timeoutSeconds ends at the random deadline in [minRequestTimeout, 2·minRequestTimeout)', async () => {
    const h = await harness();
    try {
      const reader = new StreamReader(`${h.url}?watch=true&resourceVersion=0`);
      await reader.headers();
      await io();
      await h.r.step(1_800_000 - 1);
      await io();
      assert.deepStrictEqual(h.closes, []);
      await h.r.step(1_800_000);
      await reader.ended;
      assert.deepStrictEqual(h.closes, ['timeout']);
    } finally {
      await h.close();
    }
  });

  it('stops the watcher when the client disconnects mid-stream (no leaked watcher)', async () => {
    const h = await harness();
    try {
      const readers = [0, 1, 2].map(
        () => new StreamReader(`${h.url}?watch=true&resourceVersion=0`),
      );
      for (const rd of readers) await rd.headers();
      await io();
      assert.strictEqual(h.r.cacher.watcherCount(), 3);
      await h.r.createPod({ name: 'a', namespace: 'ns' });
      await h.r.settle();
      for (const rd of readers) await rd.waitLines(1);
      for (const rd of readers) rd.request.destroy();
      for (let i = 0; i < 50 && h.closes.length < 3; i++) await io();
      assert.deepStrictEqual(h.closes, ['disconnected', 'disconnected', 'disconnected']);
      assert.strictEqual(h.r.cacher.watcherCount(), 0);
    } finally {
      await h.close();
    }
  });

  it('stops the watcher of a client that left while its watch was being opened', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = await harness(undefined, {}, () => gate);
    try {
      const reader = new StreamReader(`${h.url}?watch=true&resourceVersion=0`);
      for (let i = 0; i < 50 && h.r.cacher.watcherCount() === 0; i++) await io();
      assert.strictEqual(h.r.cacher.watcherCount(), 1);
      reader.request.destroy();
      await io(10);
      release();
      for (let i = 0; i < 50 && h.closes.length < 1; i++) await io();
      assert.deepStrictEqual(h.closes, ['disconnected']);
      assert.strictEqual(h.r.cacher.watcherCount(), 0);
    } finally {
      await h.close();
    }
  });

  it('stops reading for a client that does not read; the cacher terminates it', async () => {
    const h = await harness();
    try {
      const reader = new StreamReader(`${h.url}?watch=true&resourceVersion=0`);
      const res = await reader.headers();
      res.pause();
      await io();
      const big = 'x'.repeat(256 * 1024);
      const terminated = () =>
        h.r.metrics.samples()['apiserver_terminated_watchers_total{group="",resource="pods"}'] ===
        1;
      for (let i = 0; i < 400 && !terminated(); i++) {
        const pod = makePod({ name: `p${i}`, namespace: 'ns' });
        pod.metadata.annotations = { big };
        await h.r.create(pod);
        await h.r.settle();
        await io(2);
        await h.r.step(200);
      }
      assert.ok(terminated(), 'the cacher terminated the blocked watcher');
      assert.strictEqual(h.r.cacher.watcherCount(), 0);
      const written = h.handlers[0].written;
      assert.ok(written < 400, `the handler stopped taking events (${written} written)`);
      reader.request.destroy();
      for (let i = 0; i < 50 && h.closes.length < 1; i++) await io();
      assert.deepStrictEqual(h.closes, ['disconnected']);
    } finally {
      await h.close();
    }
  });

  it('streams Table events: columnDefinitions in the first event only', async () => {
    const h = await harness();
    try {
      const reader = new StreamReader(
        `${h.url}?watch=true&resourceVersion=0`,
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      );
      const res = await reader.headers();
      assert.strictEqual(res.headers['content-type'], 'application/json');
      for (const n of ['a', 'b'])
        await h.r.createPod({
          name: n,
          namespace: 'ns',
          creationTimestamp: formatRFC3339(objectEpochMs + h.clock.now() - 190_000),
        });
      await h.r.settle();
      await reader.waitLines(2);
      const [first, second] = reader.lines.map((l) => l.object as Record<string, unknown>);
      assert.strictEqual(first.kind, 'Table');
      assert.strictEqual(first.apiVersion, 'meta.k8s.io/v1');
      assert.deepStrictEqual(
        (first.columnDefinitions as { name: string }[]).map((c) => c.name),
        [
          'Name',
          'Ready',
          'Status',
          'Restarts',
          'Age',
          'IP',
          'Node',
          'Nominated Node',
          'Readiness Gates',
        ],
      );
      assert.strictEqual(second.columnDefinitions, null);
      const rows = second.rows as { cells: unknown[]; object: Record<string, unknown> }[];
      assert.deepStrictEqual(rows[0].cells, [
        'b',
        '0/0',
        '',
        '0',
        '3m10s',
        '<none>',
        '<none>',
        '<none>',
        '<none>',
      ]);
      assert.strictEqual(rows[0].object.kind, 'PartialObjectMetadata');
    } finally {
      await h.close();
    }
  });
});

describe('WatchEventEncoder (one encode per event for every watcher)', () => {
  it('watches that convert nothing share one encoder per resource and clock; a conversion or a now of its own gets its own', () => {
    const clock = new FakeClock(0);
    const json = negotiateEncoding({ accept: 'application/json' }, 'watch');
    const table = negotiateEncoding(
      { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      'watch',
    );
    assert.ok(json.ok && table.ok);
    const plain: ServeWatchOptions = { clock, served: podsServed, encoding: json.encoding };
    const first = watchEventEncoderFor(plain);
    const cases: Array<[string, ServeWatchOptions, boolean]> = [
      ['another plain watch', { ...plain }, true],
      ['another clock', { ...plain, clock: new FakeClock(0) }, false],
      ['another resource', { ...plain, served: { ...podsServed } }, false],
      ['a Table', { ...plain, encoding: table.encoding }, false],
      ['a now of its own', { ...plain, now: () => 0 }, false],
    ];
    for (const [name, o, shared] of cases)
      assert.strictEqual(watchEventEncoderFor(o) === first, shared, name);
  });

  it('encodes a CachingObject event once for any number of JSON watches', () => {
    const object = newCachingObject(makePod({ name: 'a', namespace: 'ns' }));
    const encoding = { convert: undefined, tableOptions: undefined };
    const encoders = Array.from(
      { length: 1000 },
      () => new WatchEventEncoder(podsServed, encoding, () => 0),
    );
    const lines = encoders.map((e) => e.encode({ type: 'ADDED', object }));
    assert.ok(
      lines.every((l) => l === lines[0]),
      'every watcher writes the same bytes',
    );
    const counts = [...object.serializationCounts().values()];
    assert.deepStrictEqual(
      counts.map((c) => [c.encodes, c.hits]),
      [[1, 999]],
    );
    const text = new TextDecoder().decode(lines[0]);
    assert.ok(
      text.startsWith(
        '{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"',
      ),
    );
    assert.ok(text.endsWith('}}\n'));
  });

  it('converts each event for a metadata informer (PartialObjectMetadata) and passes a Status through', () => {
    const negotiated = negotiateEncoding(
      {
        accept:
          'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
      },
      'watch',
    );
    assert.ok(negotiated.ok);
    const encoder = new WatchEventEncoder(podsServed, negotiated.encoding, () => 0);
    const pod = makePod({ name: 'a', namespace: 'ns', resourceVersion: '9', labels: { app: 'x' } });
    assert.strictEqual(
      new TextDecoder().decode(encoder.encode({ type: 'MODIFIED', object: newCachingObject(pod) })),
      '{"type":"MODIFIED","object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"9","labels":{"app":"x"}}}}\n',
    );
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (5)',
      reason: 'Expired',
      code: 410,
    };
    assert.strictEqual(
      new TextDecoder().decode(
        encoder.encode({ type: 'ERROR', object: status as unknown as KubeObject }),
      ),
      `{"type":"ERROR","object":${JSON.stringify(status)}}\n`,
    );
  });

  it('Table watches share encodes too: headers once per watch, then one encode per event for all', () => {
    const negotiated = negotiateEncoding(
      { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      'watch',
    );
    assert.ok(negotiated.ok);
    const encoders = [0, 1, 2].map(
      () => new WatchEventEncoder(podsServed, negotiated.encoding, () => 0),
    );
    const first = newCachingObject(makePod({ name: 'a', namespace: 'ns' }));
    const second = newCachingObject(makePod({ name: 'b', namespace: 'ns' }));
    const firstLines = encoders.map((e) => e.encode({ type: 'ADDED', object: first }));
    const secondLines = encoders.map((e) => e.encode({ type: 'ADDED', object: second }));
    assert.ok(new TextDecoder().decode(firstLines[0]).includes('"columnDefinitions":[{'));
    assert.ok(new TextDecoder().decode(secondLines[0]).includes('"columnDefinitions":null'));
    const encodes = (o: typeof first) =>
      [...o.serializationCounts().values()].reduce((n, c) => n + c.encodes, 0);
    // The first event: watcher 1 encodes with headers; 2 and 3 find that encoding (same
    // identifier) and so keep their headers for the next event, as upstream's cache does.
    assert.strictEqual(encodes(first), 1);
    assert.ok(encodes(second) <= 2);
  });

  it('writes kind and apiVersion on an object stored without them (a custom resource: apiVersion first)', () => {
    const plain = { metadata: { name: 'w' }, spec: {} } as unknown as KubeObject;
    const widgets = {
      ...podsServed,
      group: 'example.com',
      resource: 'widgets',
      kind: 'Widget',
      jsonOnly: true,
    };
    const cr = new WatchEventEncoder(
      widgets,
      { convert: undefined, tableOptions: undefined },
      () => 0,
    );
    assert.strictEqual(
      new TextDecoder().decode(cr.encode({ type: 'ADDED', object: plain })),
      '{"type":"ADDED","object":{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{}}}\n',
    );
    const pod = new WatchEventEncoder(
      podsServed,
      { convert: undefined, tableOptions: undefined },
      () => 0,
    );
    assert.ok(
      new TextDecoder()
        .decode(pod.encode({ type: 'ADDED', object: plain }))
        .startsWith('{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata"'),
    );
  });
});
