// Mirrors clientv3's watcher (client/v3/watch.go: watchGrpcStream.run, serveSubstream, the resume
// logic of newWatchClient / openWatchClient, IsProgressNotify, RequestProgress) for one watch.
// Deliberate difference: clientv3 multiplexes every watch with the same context metadata onto one
// gRPC Watch stream; here each Watch handle has a stream of its own (as MemoryEtcd's watches do),
// so a progress request (WatchProgressRequest, answered for the whole stream) reaches exactly the
// watch it was asked on, and a resume re-creates one watch.

import * as grpc from '@grpc/grpc-js';
import {
  WatchResponses,
  type Watch,
  type WatchRequest,
  type WatchResponse,
} from '../engine/etcd-face';
import type { EndpointPool } from './endpoint-pool';
import { sleep } from './endpoint-pool';
import type { EtcdMethod } from './etcd-protos';
import { noLeaderDesc, toEtcdError } from './grpc-errors';
import { header, watchCreateRequest, watchEvent, type Pb } from './pb-convert';

/** watch.go's maxBackoff for re-opening a stream (backoffIfUnavailable grows by 25% up to it). */
const maxBackoffMs = 100;

/** What the watch tells its GrpcEtcd: revisions seen, its creation (for the request record). */
export interface WatchHooks {
  sawRevision(rev: number): void;
  sawCompactRevision(rev: number): void;
  /** The first created response (or the error that ended the watch before it). */
  created(headerRevision: number, error?: string): void;
  progressRequested(): void;
  /** The watch ended (canceled by either side): the member forgets it. */
  ended(): void;
}

type Stream = grpc.ClientDuplexStream<Pb, Pb>;

export class GrpcWatch implements Watch {
  readonly id: number;
  private readonly pool: EndpointPool;
  private readonly method: EtcdMethod;
  private readonly req: WatchRequest;
  private readonly hooks: WatchHooks;
  /** serveSubstream's nextRev: the start revision of a resumed watch (0 = from now). */
  private nextRev: number;
  private stream: Stream | undefined;
  private watchId: number | undefined;
  private reportedCreate = false;
  /** Events of a fragmented response, until its last fragment. */
  private fragments: Pb[] = [];
  private backoffMs = 1;
  private ended = false;
  private clientCanceled = false;
  private readonly responses: WatchResponses;

  constructor(
    id: number,
    pool: EndpointPool,
    method: EtcdMethod,
    req: WatchRequest,
    hooks: WatchHooks,
  ) {
    this.id = id;
    this.pool = pool;
    this.method = method;
    this.req = req;
    this.hooks = hooks;
    this.nextRev = req.startRevision ?? 0;
    this.responses = new WatchResponses(
      id,
      () => this.canceled,
      () => this.cancel(),
    );
    this.open();
  }

  get canceled(): boolean {
    return this.ended || this.clientCanceled;
  }

  onResponse(cb: (r: WatchResponse) => void): void {
    this.responses.onResponse(cb);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchResponse> {
    return this.responses.iterator();
  }

  /** watcher.RequestProgress: a WatchProgressRequest on this watch's stream. */
  requestProgress(): void {
    this.hooks.progressRequested();
    if (this.canceled || !this.stream) return;
    this.stream.write({ progressRequest: {} });
  }

  /** The consumer is done: WatchCancelRequest, then the stream is closed (closeSubstream). */
  cancel(): void {
    if (this.clientCanceled) return;
    this.clientCanceled = true;
    this.responses.close();
    this.closeStream(true);
    this.hooks.ended();
  }

  /** The member is closing: ends the watch without a response. */
  close(): void {
    this.cancel();
  }

  // ---- the stream ----

  /** openWatchClient + the create request (resumed at nextRev). */
  private open(): void {
    if (this.canceled) return;
    let stream: Stream;
    try {
      const client = this.pool.client();
      const md = new grpc.Metadata();
      // clientv3.WithRequireLeader (the etcd3 store's watch context): etcd cancels the stream with
      // "etcdserver: no leader" instead of leaving it silent while the member has no leader.
      md.set('hasleader', 'true');
      stream = client.makeBidiStreamRequest(
        this.method.path,
        this.method.requestSerialize,
        this.method.responseDeserialize,
        md,
      );
      stream.on('data', (pb: Pb) => {
        if (this.stream === stream) this.receive(pb);
      });
      // The call's final status (emitted once, after every message) decides; 'error' repeats it.
      stream.on('error', () => {});
      stream.on('status', (st: grpc.StatusObject) => {
        if (this.stream === stream) this.streamFailed(client, st);
      });
    } catch (e) {
      this.end({ header: { revision: 0 }, events: [], canceled: true, cancelReason: String(e) });
      return;
    }
    this.stream = stream;
    this.watchId = undefined;
    this.fragments = [];
    stream.write(watchCreateRequest(this.req, this.nextRev));
  }

  /**
   * run()'s errc case: a halting error (or no leader) ends the watch; anything else resumes. A
   * stream the server closed with OK (it never does while a watch is open) counts as a loss.
   */
  private streamFailed(client: grpc.Client, st: grpc.StatusObject): void {
    this.stream = undefined;
    if (this.canceled) return;
    const err = toEtcdError(st.code, st.details);
    // isHaltErr: anything but Unavailable and Internal; ErrNoLeader halts although Unavailable.
    const halt =
      st.code !== grpc.status.OK &&
      ((st.code !== grpc.status.UNAVAILABLE && st.code !== grpc.status.INTERNAL) ||
        err.desc === noLeaderDesc);
    if (halt) {
      if (!this.reportedCreate) {
        this.reportedCreate = true;
        this.hooks.created(0, err.message);
      }
      // closeErr: the consumer gets a canceled response whose Err() is the stream's error.
      this.end({ header: { revision: 0 }, events: [], canceled: true, cancelReason: err.message });
      return;
    }
    this.pool.failed(client);
    // backoffIfUnavailable: 25% more each time, up to maxBackoff.
    this.backoffMs = Math.min(maxBackoffMs, this.backoffMs + this.backoffMs / 4);
    void sleep(this.backoffMs).then(() => this.open());
  }

  /** run()'s recvc case and serveSubstream: one WatchResponse from etcd. */
  private receive(pb: Pb): void {
    const rev = header(pb.header).revision;
    if (rev) this.hooks.sawRevision(rev);
    const compactRevision = typeof pb.compactRevision === 'number' ? pb.compactRevision : 0;
    if (pb.created) {
      this.backoffMs = 1;
      if (!this.reportedCreate) {
        this.reportedCreate = true;
        this.hooks.created(rev, pb.canceled ? String(pb.cancelReason) : undefined);
      }
      if (pb.canceled) {
        // addSubstream: a create refused (e.g. a negative start revision) carries its reason.
        this.end({
          header: { revision: rev },
          events: [],
          canceled: true,
          cancelReason: String(pb.cancelReason ?? ''),
        });
        return;
      }
      this.watchId = typeof pb.watchId === 'number' ? pb.watchId : 0;
      // A watch "from now" resumes after the revision it was created at. (clientv3 resumes at
      // the header revision itself, which can repeat that revision's events.)
      if (this.nextRev === 0) this.nextRev = rev + 1;
      // The created response carries no events; only a compaction may share it.
      if (!compactRevision) return;
    }
    if (compactRevision) {
      this.hooks.sawCompactRevision(compactRevision);
      this.end({ header: { revision: rev }, events: [], compactRevision, canceled: true });
      return;
    }
    if (pb.canceled) {
      this.end({
        header: { revision: rev },
        events: [],
        canceled: true,
        cancelReason: String(pb.cancelReason ?? ''),
      });
      return;
    }
    // Fragments: events accumulate until the response whose fragment flag is false.
    const events = (pb.events as Pb[] | undefined) ?? [];
    if (pb.fragment) {
      for (const e of events) this.fragments.push(e);
      return;
    }
    const all = this.fragments.length ? [...this.fragments, ...events] : events;
    this.fragments = [];
    if (all.length === 0) {
      // IsProgressNotify: no events, not canceled or created, no compaction, a header revision.
      if (rev === 0) return;
      this.nextRev = rev + 1;
      this.deliver({ header: { revision: rev }, events: [], progressNotify: true });
      return;
    }
    const mapped = all.map(watchEvent);
    this.nextRev = mapped[mapped.length - 1].kv.modRevision + 1;
    this.deliver({ header: { revision: rev }, events: mapped });
  }

  private closeStream(sendCancel: boolean): void {
    const s = this.stream;
    this.stream = undefined;
    if (!s) return;
    if (sendCancel && this.watchId !== undefined)
      s.write({ cancelRequest: { watchId: this.watchId } });
    s.end();
    // The server ends the stream once it read the half-close; cancel locally either way so no
    // call outlives the watch.
    setTimeout(() => s.cancel(), 1000).unref();
  }

  /** A canceled response: the last one delivered; the stream is closed. */
  private end(r: WatchResponse): void {
    if (this.canceled) return;
    this.ended = true;
    this.closeStream(true);
    this.hooks.ended();
    this.deliver(r);
  }

  private deliver(r: WatchResponse): void {
    if (!this.clientCanceled) this.responses.push(r);
  }
}
