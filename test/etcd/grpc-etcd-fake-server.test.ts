// Tests for src/etcd-client against an in-process gRPC server speaking etcd's protos, for what a
// single etcd 3.4 member cannot show on demand: the `hasleader` metadata and the "etcdserver: no
// leader" cancel, a transient stream failure and its resume revision, fragmented watch responses,
// and a RangeStream that exists (etcd 3.7).
import * as assert from 'assert';
import * as grpc from '@grpc/grpc-js';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { etcdMethods } from '../../src/etcd-client/etcd-protos';
import type { Pb } from '../../src/etcd-client/pb-convert';
import { rangeStreamToRangeResponse, type WatchResponse } from '../../src/engine/etcd/kv';
import { RequestRecorder } from '../../src/engine/etcd/request-recorder';

type WatchCall = grpc.ServerDuplexStream<Pb, Pb>;

const hdr = (revision: number) => ({ revision });
const kv = (key: string, rev: number) => ({
  key: Buffer.from(key),
  value: Buffer.from('v'),
  createRevision: rev,
  modRevision: rev,
  version: 1,
});

/** A fake etcd: Range answers revision 10; every Watch stream goes to `onWatch`; RangeStream to `onRangeStream`. */
class FakeEtcd {
  readonly server = new grpc.Server();
  url = '';
  onWatch: (call: WatchCall, create: Pb, n: number) => void = () => {};
  onRangeStream: ((call: grpc.ServerWritableStream<Pb, Pb>) => void) | undefined;
  readonly creates: Pb[] = [];
  readonly metadata: grpc.Metadata[] = [];

  async start(): Promise<void> {
    const m = etcdMethods();
    const kv: grpc.ServiceDefinition = this.onRangeStream
      ? { Range: m.range, RangeStream: m.rangeStream }
      : { Range: m.range };
    const handlers: grpc.UntypedServiceImplementation = {
      Range: (_call: unknown, cb: grpc.sendUnaryData<Pb>) =>
        cb(null, { header: hdr(10), kvs: [], count: 0 }),
    };
    if (this.onRangeStream) handlers.RangeStream = this.onRangeStream;
    this.server.addService(kv, handlers);
    this.server.addService(
      { Watch: m.watch },
      {
        Watch: (call: WatchCall) => {
          this.metadata.push(call.metadata);
          call.on('data', (req: Pb) => {
            if (req.createRequest) {
              this.creates.push(req.createRequest as Pb);
              this.onWatch(call, req.createRequest as Pb, this.creates.length);
            }
          });
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    this.url = `http://127.0.0.1:${port}`;
  }

  stop(): void {
    this.server.forceShutdown();
  }
}

function collect(w: { onResponse(cb: (r: WatchResponse) => void): void }) {
  const got: WatchResponse[] = [];
  let check: (() => void) | undefined;
  w.onResponse((r) => {
    got.push(r);
    check?.();
  });
  const until = (pred: (g: WatchResponse[]) => boolean) =>
    new Promise<void>((resolve) => {
      check = () => {
        if (pred(got)) resolve();
      };
      check();
    });
  return { got, until };
}

describe('GrpcEtcd against a fake etcd server', function () {
  let fake: FakeEtcd;
  let etcd: GrpcEtcd | undefined;

  beforeEach(() => {
    fake = new FakeEtcd();
    etcd = undefined;
  });

  afterEach(() => {
    etcd?.close();
    fake.stop();
  });

  async function connect(): Promise<GrpcEtcd> {
    await fake.start();
    etcd = await GrpcEtcd.connect({ endpoints: [fake.url] });
    return etcd;
  }

  it('watch streams carry hasleader=true; "etcdserver: no leader" ends the watch, without a resume', async () => {
    fake.onWatch = (call) => {
      call.write({ header: hdr(10), watchId: 0, created: true });
      call.write({ header: hdr(11), watchId: 0, events: [{ type: 0, kv: kv('/a', 11) }] });
      setTimeout(
        () =>
          call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'etcdserver: no leader' }),
        50,
      );
    };
    const e = await connect();
    const w = e.watch({ key: '/a', startRevision: 11 });
    const c = collect(w);
    await c.until((g) => g.some((r) => r.canceled));
    assert.deepStrictEqual(fake.metadata[0].get('hasleader'), ['true']);
    assert.strictEqual(c.got.length, 2);
    assert.deepStrictEqual(c.got[1], {
      header: { revision: 0 },
      events: [],
      canceled: true,
      cancelReason: 'etcdserver: no leader',
    });
    assert.strictEqual(w.canceled, true);
    assert.strictEqual(fake.creates.length, 1, 'no resume after a halting error');
  });

  it('a transient failure resumes at the revision after the last event seen', async () => {
    fake.onWatch = (call, _create, n) => {
      call.write({ header: hdr(12), watchId: 0, created: true });
      if (n === 1) {
        call.write({ header: hdr(12), watchId: 0, events: [{ type: 0, kv: kv('/a', 12) }] });
        setTimeout(
          () =>
            call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'transport is closing' }),
          50,
        );
      } else call.write({ header: hdr(13), watchId: 0, events: [{ type: 0, kv: kv('/b', 13) }] });
    };
    const e = await connect();
    const w = e.watch({ key: '/', rangeEnd: '0', startRevision: 5, prevKv: true });
    const c = collect(w);
    await c.until((g) => g.flatMap((r) => r.events).length === 2);
    w.cancel();
    assert.deepStrictEqual(
      fake.creates.map((cr) => [cr.startRevision, cr.prevKv]),
      [
        [5, true],
        [13, true],
      ],
    );
    assert.deepStrictEqual(
      c.got.map((r) => r.events.map((ev) => ev.kv.key)),
      [['/a'], ['/b']],
    );
  });

  it('fragments are reassembled into one response', async () => {
    fake.onWatch = (call) => {
      call.write({ header: hdr(20), watchId: 0, created: true });
      call.write({ header: hdr(20), watchId: 0, fragment: true, events: [{ kv: kv('/a', 20) }] });
      call.write({ header: hdr(20), watchId: 0, fragment: true, events: [{ kv: kv('/b', 20) }] });
      call.write({ header: hdr(20), watchId: 0, events: [{ kv: kv('/c', 20) }] });
    };
    const e = await connect();
    const w = e.watch({ key: '/', rangeEnd: '0', startRevision: 20 });
    const c = collect(w);
    await c.until((g) => g.length === 1);
    w.cancel();
    assert.deepStrictEqual(
      c.got[0].events.map((ev) => ev.kv.key),
      ['/a', '/b', '/c'],
    );
    assert.strictEqual(c.got[0].header.revision, 20);
  });

  it('a progress response for the whole stream (watch_id -1, as etcd 3.4 answers) is a progress notification', async () => {
    fake.onWatch = (call) => {
      call.write({ header: hdr(30), watchId: 0, created: true });
      call.on('data', (req: Pb) => {
        if (req.progressRequest) call.write({ header: hdr(31), watchId: -1 });
      });
    };
    const e = await connect();
    const w = e.watch({ key: '/a' });
    const c = collect(w);
    w.requestProgress();
    await c.until((g) => g.length === 1);
    w.cancel();
    assert.deepStrictEqual(c.got, [{ header: { revision: 31 }, events: [], progressNotify: true }]);
    assert.strictEqual(e.currentRevision(), 31);
  });

  it('RangeStream where the server has it (etcd 3.7): the chunks, one record', async () => {
    fake.onRangeStream = (call) => {
      call.write({ kvs: [kv('/a', 3), kv('/b', 4)] });
      call.write({ kvs: [kv('/c', 5)], header: hdr(40), count: 3 });
      call.end();
    };
    const e = await connect();
    const rec = new RequestRecorder();
    e.addRequestListener(rec.record);
    const merged = await rangeStreamToRangeResponse(e.rangeStream({ key: '/', rangeEnd: '0' }));
    assert.deepStrictEqual(
      merged.kvs.map((x) => x.key),
      ['/a', '/b', '/c'],
    );
    assert.strictEqual(merged.count, 3);
    assert.strictEqual(merged.header.revision, 40);
    assert.deepStrictEqual(
      rec.requests.map((r) => [r.op, r.kvs, r.count, r.headerRevision]),
      [['rangeStream', 3, 3, 40]],
    );
    assert.strictEqual(rec.getStreamReadsAndReset(), 1);
  });
});
