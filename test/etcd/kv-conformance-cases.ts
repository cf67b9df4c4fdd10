// No upstream counterpart: the KV conformance cases, written once over the KV interface
// (src/engine/etcd/kv.ts) and run by kv-conformance.test.ts against MemoryEtcd and a real etcd.
// Each case works under its own key prefix and returns a normalised result: revisions relative to
// the case's start (so one etcd serves every case), latencyMs and the watch ids dropped. Whatever
// else differs between the two is a documented difference (docs/ETCD-DIFFERENCES.md), declared on
// the case and asserted exactly.

import {
  EtcdError,
  prefixEnd,
  rangeStreamToRangeResponse,
  type DeleteRangeResponse,
  type KeyValue,
  type KV,
  type PutResponse,
  type RangeResponse,
  type RequestOp,
  type ResponseOp,
  type TxnRequest,
  type TxnResponse,
  type Watch,
  type WatchRequest,
  type WatchResponse,
} from '../../src/engine/etcd/kv';

/** What a case runs against. */
export interface CaseContext {
  kv: KV;
  /** A key prefix no other case writes under (ends in '/'). */
  p: string;
  /** The store's revision when the case started. */
  base: number;
  /** The progress notification interval both members were started with (ms). */
  progressIntervalMs: number;
}

/**
 * A difference between the model and etcd 3.4 that is kept: at `path` in the normalised result
 * the model has `memory` and etcd has `real`; everything else must be equal.
 */
export interface DocumentedDifference {
  /** The row of docs/ETCD-DIFFERENCES.md. */
  id: string;
  path: (string | number)[];
  memory: unknown;
  real: unknown;
}

export interface ConformanceCase {
  name: string;
  run(ctx: CaseContext): Promise<unknown>;
  differences?: DocumentedDifference[];
}

// ---- normalisation ----

/** A revision as an offset from the case's start ('b+3'); 0 (absent) stays 0. */
export function rel(ctx: CaseContext, rev: number): string | 0 {
  if (rev === 0) return 0;
  const d = rev - ctx.base;
  return d >= 0 ? `b+${d}` : `b${d}`;
}

/** A key under the case's prefix without it ('a' for '/kvc/07/a'); any other key as it is. */
function nkey(ctx: CaseContext, key: string): string {
  return key.startsWith(ctx.p) ? key.slice(ctx.p.length) : key;
}

function nkv(ctx: CaseContext, kv: KeyValue): unknown {
  return {
    key: nkey(ctx, kv.key),
    value: kv.value,
    createRevision: rel(ctx, kv.createRevision),
    modRevision: rel(ctx, kv.modRevision),
    version: kv.version,
    lease: kv.lease ?? 0,
  };
}

function nrange(ctx: CaseContext, r: RangeResponse): unknown {
  return {
    header: rel(ctx, r.header.revision),
    kvs: r.kvs.map((kv) => nkv(ctx, kv)),
    count: r.count,
    more: !!r.more,
  };
}

function nput(ctx: CaseContext, r: PutResponse): unknown {
  return { header: rel(ctx, r.header.revision), prevKv: r.prevKv ? nkv(ctx, r.prevKv) : null };
}

function ndelete(ctx: CaseContext, r: DeleteRangeResponse): unknown {
  return {
    header: rel(ctx, r.header.revision),
    deleted: r.deleted,
    prevKvs: (r.prevKvs ?? []).map((kv) => nkv(ctx, kv)),
  };
}

function nop(ctx: CaseContext, r: ResponseOp): unknown {
  if ('responseRange' in r) return { range: nrange(ctx, r.responseRange) };
  if ('responsePut' in r) return { put: nput(ctx, r.responsePut) };
  if ('responseDeleteRange' in r) return { deleteRange: ndelete(ctx, r.responseDeleteRange) };
  return { txn: ntxn(ctx, r.responseTxn) };
}

function ntxn(ctx: CaseContext, r: TxnResponse): unknown {
  return {
    header: rel(ctx, r.header.revision),
    succeeded: r.succeeded,
    responses: r.responses.map((x) => nop(ctx, x)),
  };
}

export function nwatch(ctx: CaseContext, r: WatchResponse): unknown {
  return {
    header: rel(ctx, r.header.revision),
    events: r.events.map((e) => ({
      type: e.type,
      kv: nkv(ctx, e.kv),
      prevKv: e.prevKv ? nkv(ctx, e.prevKv) : null,
    })),
    compactRevision: rel(ctx, r.compactRevision ?? 0),
    canceled: !!r.canceled,
    cancelReason: r.cancelReason ?? '',
    progressNotify: !!r.progressNotify,
  };
}

/** An error as the caller sees it: gRPC code and message (EtcdError), else its name and message. */
export function nerror(e: unknown): unknown {
  if (e instanceof EtcdError)
    return { error: { code: e.code, codeName: e.codeName, message: e.message } };
  if (e instanceof Error) return { error: { name: e.name, message: e.message } };
  return { error: String(e) };
}

async function attempt<T>(f: () => Promise<T>, n: (r: T) => unknown): Promise<unknown> {
  try {
    return n(await f());
  } catch (e) {
    return nerror(e);
  }
}

// ---- requests ----

function range(ctx: CaseContext, req: Parameters<KV['range']>[0]): Promise<unknown> {
  return attempt(
    () => ctx.kv.range(req),
    (r) => nrange(ctx, r),
  );
}

function txn(ctx: CaseContext, req: TxnRequest): Promise<unknown> {
  return attempt(
    () => ctx.kv.txn(req),
    (r) => ntxn(ctx, r),
  );
}

function compaction(ctx: CaseContext, revision: number): Promise<unknown> {
  return attempt(
    () => ctx.kv.compaction({ revision }),
    (r) => ({ header: rel(ctx, r.header.revision) }),
  );
}

/** A Put as clientv3 sends it (a Txn with one requestPut here); returns the new revision. */
async function put(ctx: CaseContext, key: string, value: string): Promise<number> {
  const r = await ctx.kv.txn({ success: [{ requestPut: { key, value } }] });
  return r.header.revision;
}

async function del(ctx: CaseContext, key: string): Promise<number> {
  return (await ctx.kv.deleteRange({ key })).header.revision;
}

const prefix = (ctx: CaseContext, sub = '') => ({
  key: ctx.p + sub,
  rangeEnd: prefixEnd(ctx.p + sub),
});

// ---- watches ----

/** A watch whose responses are collected as they arrive. */
export class Collector {
  readonly responses: WatchResponse[] = [];
  private readonly watch: Watch;
  private wake: (() => void) | undefined;

  constructor(kv: KV, req: WatchRequest) {
    this.watch = kv.watch(req);
    this.watch.onResponse((r) => {
      this.responses.push(r);
      this.wake?.();
    });
  }

  /** Waits until `n` responses arrived or `timeoutMs` passed; returns how many arrived. */
  async until(n: number, timeoutMs: number): Promise<number> {
    await this.waitFor((rs) => rs.length >= n, timeoutMs);
    return this.responses.length;
  }

  /** Waits until `done(responses)` or `timeoutMs` passed. */
  async waitFor(done: (rs: WatchResponse[]) => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.responses) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  requestProgress(): void {
    this.watch.requestProgress();
  }

  cancel(): void {
    this.watch.cancel();
  }
}

/** Long enough for a real etcd's watch sync (100 ms loop) and a loopback round trip. */
const arrive = 5000;
/** How long a case waits to see that nothing more arrives. */
const quiet = 1500;

async function watchResponses(
  ctx: CaseContext,
  req: WatchRequest,
  n: number,
  then?: (w: Collector) => Promise<void>,
): Promise<unknown[]> {
  const w = new Collector(ctx.kv, req);
  try {
    await w.until(n, arrive);
    if (then) await then(w);
    return w.responses.map((r) => nwatch(ctx, r));
  } finally {
    w.cancel();
  }
}

// ---- the cases ----

export const cases: ConformanceCase[] = [
  {
    // Must run first, on a fresh member: an empty etcd is at revision 1, its first write at 2.
    name: 'a fresh member is at revision 1; the first write makes revision 2',
    async run(ctx) {
      const all = await ctx.kv.range({ key: '\0', rangeEnd: '\0' });
      const first = await put(ctx, ctx.p + 'k', 'v');
      return { freshRevision: all.header.revision, count: all.count, firstWrite: first };
    },
  },
  {
    name: 'range at revisions: kvs and count as of the revision, header.revision the current one',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await put(ctx, ctx.p + 'b', '1'); // b+2
      await put(ctx, ctx.p + 'a', '2'); // b+3
      await del(ctx, ctx.p + 'b'); // b+4
      await put(ctx, ctx.p + 'c', '1'); // b+5
      await del(ctx, ctx.p + 'c'); // b+6
      await put(ctx, ctx.p + 'c', '2'); // b+7: created again
      const out: Record<string, unknown> = {};
      for (let d = 0; d <= 7; d++)
        out[`prefix@b+${d}`] = await range(ctx, { ...prefix(ctx), revision: ctx.base + d });
      out['prefix@0'] = await range(ctx, prefix(ctx));
      out['a@b+2'] = await range(ctx, { key: ctx.p + 'a', revision: ctx.base + 2 });
      out['b@b+4'] = await range(ctx, { key: ctx.p + 'b', revision: ctx.base + 4 });
      out['c@b+5'] = await range(ctx, { key: ctx.p + 'c', revision: ctx.base + 5 });
      out['missing'] = await range(ctx, { key: ctx.p + 'zz' });
      out['fromKey'] = await range(ctx, { key: ctx.p + 'b', rangeEnd: '\0' });
      out['serializable'] = await range(ctx, { ...prefix(ctx), serializable: true });
      return out;
    },
  },
  {
    name: 'limit with count and more: count from key (not the prefix), countOnly, keysOnly',
    async run(ctx) {
      for (let i = 0; i < 10; i++) await put(ctx, `${ctx.p}k${i}`, `v${i}`); // b+1..b+10
      await del(ctx, ctx.p + 'k3'); // b+11
      const end = prefixEnd(ctx.p);
      const out: Record<string, unknown> = {};
      for (const limit of [1, 3, 8, 9, 10, 0])
        out[`limit ${limit}`] = await range(ctx, { ...prefix(ctx), limit });
      out['from k5 limit 2'] = await range(ctx, { key: ctx.p + 'k5', rangeEnd: end, limit: 2 });
      out['from k5 limit 2 at b+5'] = await range(ctx, {
        key: ctx.p + 'k2',
        rangeEnd: end,
        limit: 2,
        revision: ctx.base + 5,
      });
      out['countOnly'] = await range(ctx, { ...prefix(ctx), countOnly: true });
      out['countOnly limit 2'] = await range(ctx, { ...prefix(ctx), countOnly: true, limit: 2 });
      out['countOnly at b+4'] = await range(ctx, {
        ...prefix(ctx),
        countOnly: true,
        revision: ctx.base + 4,
      });
      out['countOnly single key'] = await range(ctx, { key: ctx.p + 'k1', countOnly: true });
      out['keysOnly limit 2'] = await range(ctx, { ...prefix(ctx), keysOnly: true, limit: 2 });
      out['keysOnly single key'] = await range(ctx, { key: ctx.p + 'k9', keysOnly: true });
      out['empty range limit 5'] = await range(ctx, { ...prefix(ctx, 'none'), limit: 5 });
      return out;
    },
  },
  {
    name: 'byte keys and values: every byte 0..255, prefixEnd over 0xff',
    async run(ctx) {
      const bytes = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');
      await put(ctx, ctx.p + '\xff\xff', bytes);
      await put(ctx, ctx.p + '\xfe\xff', '\x00');
      await put(ctx, ctx.p + '\x01', '');
      return {
        all: await range(ctx, prefix(ctx)),
        underFe: await range(ctx, prefix(ctx, '\xfe')),
        underFf: await range(ctx, prefix(ctx, '\xff')),
        prefixEndOfFf: prefixEnd(ctx.p + '\xff\xff') === ctx.p.slice(0, -1) + '0',
      };
    },
  },
  {
    name: 'compacted and future revisions on range: OutOfRange with etcd messages',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await put(ctx, ctx.p + 'a', '2'); // b+2
      await put(ctx, ctx.p + 'a', '3'); // b+3
      const compacted = await compaction(ctx, ctx.base + 2);
      return {
        compacted,
        'range@b+1 (compacted)': await range(ctx, { key: ctx.p + 'a', revision: ctx.base + 1 }),
        'range@b+2 (the compact revision)': await range(ctx, {
          key: ctx.p + 'a',
          revision: ctx.base + 2,
        }),
        'range@b+3': await range(ctx, { key: ctx.p + 'a', revision: ctx.base + 3 }),
        'range@b+4 (future)': await range(ctx, { key: ctx.p + 'a', revision: ctx.base + 4 }),
        'prefix limit 1 @b+1': await range(ctx, {
          ...prefix(ctx),
          limit: 1,
          revision: ctx.base + 1,
        }),
        'countOnly @b+1': await range(ctx, {
          ...prefix(ctx),
          countOnly: true,
          revision: ctx.base + 1,
        }),
        'txn range @b+1': await txn(ctx, {
          success: [{ requestRange: { key: ctx.p + 'a', revision: ctx.base + 1 } }],
        }),
        'txn range @b+9 (future)': await txn(ctx, {
          success: [{ requestRange: { key: ctx.p + 'a', revision: ctx.base + 9 } }],
        }),
      };
    },
  },
  {
    name: 'compaction itself: an already-compacted revision, a future one, the current one',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await put(ctx, ctx.p + 'a', '2'); // b+2
      return {
        'compact b+1': await compaction(ctx, ctx.base + 1),
        'compact b+1 again': await compaction(ctx, ctx.base + 1),
        'compact b+0 (older)': await compaction(ctx, ctx.base),
        'compact b+3 (future)': await compaction(ctx, ctx.base + 3),
        'compact b+2 (current)': await compaction(ctx, ctx.base + 2),
        'compact b+2 again': await compaction(ctx, ctx.base + 2),
        'range@0 after': await range(ctx, { key: ctx.p + 'a' }),
      };
    },
  },
  {
    name: 'watch from a revision: replay, then live events; DELETE event shape; prev_kv',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await put(ctx, ctx.p + 'b', '1'); // b+2
      await put(ctx, ctx.p + 'a', '2'); // b+3
      await del(ctx, ctx.p + 'b'); // b+4
      await put(ctx, ctx.p + 'other', 'x'); // b+5 (outside the watched prefix 'a'..'b')
      const out: Record<string, unknown> = {};
      for (const prevKv of [false, true]) {
        out[`prevKv=${prevKv}`] = await watchResponses(
          ctx,
          { key: ctx.p + 'a', rangeEnd: ctx.p + 'c', startRevision: ctx.base + 2, prevKv },
          1,
          async (w) => {
            await put(ctx, ctx.p + 'b', prevKv ? '3' : '2'); // created again
            await w.until(2, arrive);
            await del(ctx, ctx.p + 'a');
            await w.until(3, arrive);
            await ctx.kv.txn({
              success: [
                { requestPut: { key: ctx.p + 'a', value: 'new' } },
                { requestPut: { key: ctx.p + 'b', value: 'again' } },
              ],
            });
            await w.until(4, arrive);
          },
        );
      }
      return out;
    },
  },
  {
    name: 'watch a single key and from a key (rangeEnd \\0)',
    async run(ctx) {
      // The writes first: both watches then start behind the store and get their events in one
      // replay response. Written after, the events' batching would depend on whether the watch
      // reached the real etcd before them (one response per revision) or not (one in all).
      await put(ctx, ctx.p + 'j', '1');
      await put(ctx, ctx.p + 'k', '1');
      await put(ctx, ctx.p + 'kk', '1');
      const start = ctx.base + 1;
      const single = new Collector(ctx.kv, { key: ctx.p + 'k', startRevision: start });
      const fromKey = new Collector(ctx.kv, {
        key: ctx.p + 'k',
        rangeEnd: '\0',
        startRevision: start,
      });
      try {
        await single.until(1, arrive);
        await fromKey.until(1, arrive);
        // Nothing more comes: a second response would be a split replay.
        await fromKey.until(2, quiet);
        return {
          single: single.responses.map((r) => nwatch(ctx, r)),
          fromKey: fromKey.responses.map((r) => nwatch(ctx, r)),
        };
      } finally {
        single.cancel();
        fromKey.cancel();
      }
    },
  },
  {
    name: 'watch filters: noPut and noDelete drop events; a response with nothing left is not sent',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await del(ctx, ctx.p + 'a'); // b+2
      await put(ctx, ctx.p + 'b', '1'); // b+3
      const out: Record<string, unknown> = {};
      for (const filter of ['noPut', 'noDelete'] as const) {
        out[filter] = await watchResponses(
          ctx,
          { ...prefix(ctx), startRevision: ctx.base + 1, filters: [filter], prevKv: true },
          1,
          async (w) => {
            const before = w.responses.length;
            await put(ctx, ctx.p + 'c', filter);
            await del(ctx, ctx.p + 'c');
            await w.until(before + 1, arrive);
          },
        );
      }
      return out;
    },
  },
  {
    name: 'watch from a compacted revision: compactRevision, canceled, no header revision',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await put(ctx, ctx.p + 'a', '2'); // b+2
      await del(ctx, ctx.p + 'a'); // b+3
      await put(ctx, ctx.p + 'a', '3'); // b+4
      await ctx.kv.compaction({ revision: ctx.base + 3 });
      return {
        'from b+2 (compacted)': await watchResponses(
          ctx,
          { ...prefix(ctx), startRevision: ctx.base + 2 },
          1,
        ),
        'from b+3 (the compact revision)': await watchResponses(
          ctx,
          { ...prefix(ctx), startRevision: ctx.base + 3 },
          1,
        ),
        'from b+4': await watchResponses(
          ctx,
          { ...prefix(ctx), startRevision: ctx.base + 4, prevKv: true },
          1,
        ),
      };
    },
  },
  {
    name: 'watch replay past 1000 revisions comes in batches of watchBatchMaxRevs revisions',
    async run(ctx) {
      const n = 1500;
      for (let i = 0; i < n; i++) await put(ctx, ctx.p + 'k' + (i % 7), String(i));
      const w = new Collector(ctx.kv, { ...prefix(ctx), startRevision: ctx.base + 1 });
      try {
        await w.waitFor((rs) => rs.reduce((a, r) => a + r.events.length, 0) >= n, arrive * 4);
        // The events one by one are the replay case's business: here the batch boundaries count.
        return w.responses.map((r) => ({
          header: rel(ctx, r.header.revision),
          events: r.events.length,
          first: rel(ctx, r.events[0]?.kv.modRevision ?? 0),
          last: rel(ctx, r.events[r.events.length - 1]?.kv.modRevision ?? 0),
        }));
      } finally {
        w.cancel();
      }
    },
  },
  {
    name: 'watch from a negative start revision, and on an empty range (rangeEnd before key)',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      await ctx.kv.compaction({ revision: ctx.base + 1 });
      return {
        negative: await watchResponses(ctx, { ...prefix(ctx), startRevision: -1 }, 1),
        'empty range': await watchResponses(
          ctx,
          { key: ctx.p + 'b', rangeEnd: ctx.p + 'a' },
          1,
          async (w) => {
            await put(ctx, ctx.p + 'a', '2');
            await w.until(1, quiet);
          },
        ),
      };
    },
    differences: [
      {
        // etcd 3.5+ refuses a negative start revision in recvLoop with ErrCompacted as the cancel
        // reason; 3.4 takes it as an old revision: the watcher is unsynced and compacted away.
        id: 'watch-negative-start-revision',
        path: ['negative'],
        memory: [
          {
            ...canceledShape('b+1'),
            cancelReason: 'etcdserver: mvcc: required revision has been compacted',
          },
        ],
        real: [{ ...canceledShape(0), compactRevision: 'b+1' }],
      },
    ],
  },
  {
    name: 'progress notifications: progressNotify ticks report the current revision; events between ticks',
    async run(ctx) {
      // A tick reports progress only when no event was sent since the previous one: wait for two
      // ticks and a little (the real etcd adds up to a tenth of jitter).
      const ticks = ctx.progressIntervalMs * 3 + arrive;
      const isProgressAt = (rev: number) => (rs: WatchResponse[]) =>
        rs.length > 0 &&
        !!rs[rs.length - 1].progressNotify &&
        rs[rs.length - 1].header.revision === rev;
      await put(ctx, ctx.p + 'x', 'before'); // b+1: replayed
      const rs = await watchResponses(
        ctx,
        { ...prefix(ctx), startRevision: ctx.base + 1, progressNotify: true },
        1,
        async (w) => {
          await w.waitFor(isProgressAt(ctx.base + 1), ticks);
          await put(ctx, ctx.p + 'x', 'after'); // b+2: live
          await w.waitFor(isProgressAt(ctx.base + 2), ticks);
        },
      );
      // Ticks run on the member's own phase: a second tick before our next write repeats the same
      // notification, which tells nothing new; keep one of each.
      return rs.filter((r, i) => i === 0 || JSON.stringify(r) !== JSON.stringify(rs[i - 1]));
    },
  },
  {
    name: 'requestProgress on a synced watch: one progress response at the current revision',
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1'); // b+1
      return watchResponses(ctx, { ...prefix(ctx), startRevision: ctx.base + 1 }, 1, async (w) => {
        w.requestProgress();
        await w.until(2, arrive);
        await put(ctx, ctx.p + 'a', '2'); // b+2
        await w.until(3, arrive);
        w.requestProgress();
        await w.until(4, arrive);
        await w.until(5, quiet);
      });
    },
  },
  {
    name: 'requestProgress on a watch whose start revision is ahead of the store',
    async run(ctx) {
      return watchResponses(ctx, { ...prefix(ctx), startRevision: ctx.base + 2 }, 0, async (w) => {
        w.requestProgress();
        await w.until(1, quiet);
        await put(ctx, ctx.p + 'a', '1'); // b+1: still before the start revision
        await put(ctx, ctx.p + 'a', '2'); // b+2: the first event
        await w.until(w.responses.length + 1, arrive);
        w.requestProgress();
        await w.until(w.responses.length + 1, arrive);
      });
    },
    differences: [
      {
        // etcd 3.4.23 answers every progress request (watch.go recvLoop, WatchId -1); 3.5 and
        // 3.4.25+ only when every watcher is synced and past its start revision.
        id: 'progress-request-before-start-revision',
        path: [],
        memory: [
          watchShape('b+2', [
            { type: 'PUT', key: 'a', value: '2', create: 'b+1', mod: 'b+2', version: 2 },
          ]),
          progressShape('b+2'),
        ],
        real: [
          progressShape('b+0'),
          watchShape('b+2', [
            { type: 'PUT', key: 'a', value: '2', create: 'b+1', mod: 'b+2', version: 2 },
          ]),
          progressShape('b+2'),
        ],
      },
    ],
  },
  {
    name: 'prev_kv on put and deleteRange; a delete that matches nothing keeps the revision',
    async run(ctx) {
      const p = ctx.p;
      return {
        'put new': await txn(ctx, {
          success: [{ requestPut: { key: p + 'a', value: '1', prevKv: true } }],
        }),
        'put over': await txn(ctx, {
          success: [{ requestPut: { key: p + 'a', value: '2', prevKv: true } }],
        }),
        'put over, no prevKv asked': await txn(ctx, {
          success: [{ requestPut: { key: p + 'a', value: '3' } }],
        }),
        'put b': await txn(ctx, { success: [{ requestPut: { key: p + 'b', value: '1' } }] }),
        'delete missing': await attempt(
          () => ctx.kv.deleteRange({ key: p + 'zz', prevKv: true }),
          (r) => ndelete(ctx, r),
        ),
        'delete prefix with prevKv': await attempt(
          () => ctx.kv.deleteRange({ ...prefix(ctx), prevKv: true }),
          (r) => ndelete(ctx, r),
        ),
        after: await range(ctx, prefix(ctx)),
      };
    },
  },
  {
    name: 'deleteRange: a prefix, [key, rangeEnd), from a key (rangeEnd \\0), without prevKv',
    async run(ctx) {
      for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) await put(ctx, ctx.p + k, k); // b+1..b+6
      return {
        'single key a (its neighbours stay)': await attempt(
          () => ctx.kv.deleteRange({ key: ctx.p + 'a', prevKv: true }),
          (r) => ndelete(ctx, r),
        ),
        '[b, d)': await attempt(
          () => ctx.kv.deleteRange({ key: ctx.p + 'b', rangeEnd: ctx.p + 'd' }),
          (r) => ndelete(ctx, r),
        ),
        'from e': await attempt(
          () => ctx.kv.deleteRange({ key: ctx.p + 'e', rangeEnd: '\0', prevKv: true }),
          (r) => ndelete(ctx, r),
        ),
        prefix: await attempt(
          () => ctx.kv.deleteRange(prefix(ctx)),
          (r) => ndelete(ctx, r),
        ),
        'history at b+7': await range(ctx, {
          ...prefix(ctx),
          revision: ctx.base + 7,
          keysOnly: true,
        }),
        now: await range(ctx, prefix(ctx)),
      };
    },
  },
  {
    name: 'txn compare-and-swap as the etcd3 store uses it (OptimisticPut, GuaranteedUpdate, delete)',
    async run(ctx) {
      const key = ctx.p + 'obj';
      // kubernetes.Client.OptimisticPut: If(ModRevision(key) == expected).Then(Put).Else(Get).
      const cas = (value: string, expected: number) =>
        txn(ctx, {
          compare: [{ key, target: 'modRevision', result: 'equal', value: expected }],
          success: [{ requestPut: { key, value } }],
          failure: [{ requestRange: { key } }],
        });
      const out: Record<string, unknown> = {};
      out['create (modRevision 0)'] = await cas('v1', 0); // b+1
      out['create again'] = await cas('v1b', 0);
      out['update at b+1'] = await cas('v2', ctx.base + 1); // b+2
      out['stale update at b+1'] = await cas('v3', ctx.base + 1);
      out['create with version = 0, exists'] = await txn(ctx, {
        compare: [{ key, target: 'version', result: 'equal', value: 0 }],
        success: [{ requestPut: { key, value: 'x' } }],
        failure: [{ requestRange: { key } }],
      });
      out['create with version = 0, absent'] = await txn(ctx, {
        compare: [{ key: ctx.p + 'other', target: 'version', result: 'equal', value: 0 }],
        success: [{ requestPut: { key: ctx.p + 'other', value: 'o' } }],
        failure: [{ requestRange: { key: ctx.p + 'other' } }],
      }); // b+3
      out['stale delete'] = await txn(ctx, {
        compare: [{ key, target: 'modRevision', result: 'equal', value: ctx.base + 1 }],
        success: [{ requestDeleteRange: { key } }],
        failure: [{ requestRange: { key } }],
      });
      out['delete at b+2'] = await txn(ctx, {
        compare: [{ key, target: 'modRevision', result: 'equal', value: ctx.base + 2 }],
        success: [{ requestDeleteRange: { key, prevKv: true } }],
        failure: [{ requestRange: { key } }],
      }); // b+4
      out['update a deleted key'] = await cas('v4', ctx.base + 2);
      return out;
    },
  },
  {
    name: 'txn compares: value, version, createRevision, lease; greater, less, notEqual; ranges; missing keys',
    async run(ctx) {
      const p = ctx.p;
      await put(ctx, p + 'a', 'm'); // b+1
      await put(ctx, p + 'b', 'm'); // b+2
      await put(ctx, p + 'b', 'n'); // b+3
      const check = (c: TxnRequest['compare']) =>
        txn(ctx, { compare: c, success: [], failure: [] });
      const cmp = (
        key: string,
        target: 'version' | 'createRevision' | 'modRevision' | 'value' | 'lease',
        result: 'equal' | 'notEqual' | 'greater' | 'less',
        value: number | string,
        rangeEnd?: string,
      ) => ({ key: p + key, rangeEnd, target, result, value });
      return {
        'value a = m': await check([cmp('a', 'value', 'equal', 'm')]),
        'value a < n': await check([cmp('a', 'value', 'less', 'n')]),
        'value missing = ""': await check([cmp('zz', 'value', 'equal', '')]),
        'value missing != x': await check([cmp('zz', 'value', 'notEqual', 'x')]),
        'version b = 2': await check([cmp('b', 'version', 'equal', 2)]),
        'version b > 1': await check([cmp('b', 'version', 'greater', 1)]),
        'version missing = 0': await check([cmp('zz', 'version', 'equal', 0)]),
        'createRevision a = b+1': await check([cmp('a', 'createRevision', 'equal', ctx.base + 1)]),
        'modRevision b < b+3': await check([cmp('b', 'modRevision', 'less', ctx.base + 3)]),
        'lease a = 0': await check([cmp('a', 'lease', 'equal', 0)]),
        'range [a, c) version > 0': await check([cmp('a', 'version', 'greater', 0, p + 'c')]),
        'range [a, c) version = 1': await check([cmp('a', 'version', 'equal', 1, p + 'c')]),
        'range [a, c) value = m': await check([cmp('a', 'value', 'equal', 'm', p + 'c')]),
        'empty range version = 0': await check([cmp('x', 'version', 'equal', 0, p + 'y')]),
        'two compares, second fails': await check([
          cmp('a', 'value', 'equal', 'm'),
          cmp('b', 'value', 'equal', 'm'),
        ]),
      };
    },
  },
  {
    name: 'txn response headers: each op its own revision; a nested txn; reads see earlier writes',
    async run(ctx) {
      const p = ctx.p;
      await put(ctx, p + 'a', '1'); // b+1
      const ops = (v: string): RequestOp[] => [
        { requestRange: { key: p + 'a' } },
        { requestDeleteRange: { key: p + 'none' } },
        { requestPut: { key: p + 'a', value: v, prevKv: true } },
        { requestRange: { key: p + 'a' } },
        { requestDeleteRange: { key: p + 'none' } },
        {
          requestTxn: {
            compare: [{ key: p + 'a', target: 'value', result: 'equal', value: v }],
            success: [
              { requestRange: { ...prefix(ctx), countOnly: true } },
              { requestPut: { key: p + 'n', value: v } },
            ],
          },
        },
      ];
      return {
        write: await txn(ctx, { success: ops('2') }), // b+2
        readOnly: await txn(ctx, {
          success: [
            { requestRange: { key: p + 'a' } },
            { requestTxn: { success: [{ requestRange: { key: p + 'n' } }] } },
          ],
        }),
        'nothing changed': await txn(ctx, {
          success: [{ requestDeleteRange: { key: p + 'none' } }],
        }),
        'no ops': await txn(ctx, {}),
      };
    },
  },
  {
    name: 'txn errors: duplicate keys, too many ops, empty keys; which check comes first',
    async run(ctx) {
      const p = ctx.p;
      const puts = (n: number): RequestOp[] =>
        Array.from({ length: n }, (_, i) => ({ requestPut: { key: `${p}k${i}`, value: 'v' } }));
      const nested = (success: RequestOp[], failure: RequestOp[] = []): RequestOp => ({
        requestTxn: { success, failure },
      });
      const putOp = (k: string): RequestOp => ({ requestPut: { key: p + k, value: 'v' } });
      const delOp = (k: string, end?: string): RequestOp => ({
        requestDeleteRange: { key: p + k, rangeEnd: end === undefined ? undefined : p + end },
      });
      const out: Record<string, unknown> = {
        'two puts of a key': await txn(ctx, { success: [putOp('a'), putOp('a')] }),
        'put and delete of a key': await txn(ctx, { success: [delOp('a'), putOp('a')] }),
        'put inside a deleted range': await txn(ctx, { success: [putOp('b'), delOp('a', 'c')] }),
        // checkIntervals takes a from-key delete's rangeEnd "\0" literally: [key, "\0") covers nothing.
        'put inside a from-key delete': await txn(ctx, {
          success: [{ requestDeleteRange: { key: p + 'x', rangeEnd: '\0' } }, putOp('y')],
        }),
        'put then delete of a key, failure branch': await txn(ctx, {
          failure: [putOp('a'), delOp('a')],
        }),
        'same key in success and failure': await txn(ctx, {
          success: [putOp('a')],
          failure: [putOp('a')],
        }),
        'same key in a nested txn then and else': await txn(ctx, {
          success: [nested([putOp('a')], [putOp('a')])],
        }),
        'nested put and outer put': await txn(ctx, { success: [nested([putOp('a')]), putOp('a')] }),
        'nested put inside an outer delete': await txn(ctx, {
          success: [delOp('a', 'c'), nested([putOp('b')])],
        }),
        'two nested txns put a key': await txn(ctx, {
          success: [nested([putOp('a')]), nested([putOp('a')])],
        }),
        'two deletes overlap': await txn(ctx, { success: [delOp('a', 'c'), delOp('b', 'd')] }),
        '128 puts': await txn(ctx, { success: puts(128) }),
        '129 puts': await txn(ctx, { success: puts(129) }),
        '129 compares': await txn(ctx, {
          compare: Array.from({ length: 129 }, () => ({
            key: p + 'a',
            target: 'version' as const,
            result: 'greater' as const,
            value: -1,
          })),
        }),
        '129 failure ops': await txn(ctx, { failure: puts(129) }),
        'nested: 64 outer + 65 inner puts': await txn(ctx, {
          success: [...puts(64), nested(puts(129).slice(64))],
        }),
        'empty key in a range op': await txn(ctx, { success: [{ requestRange: { key: '' } }] }),
        'empty key in a put op': await txn(ctx, {
          success: [{ requestPut: { key: '', value: 'v' } }],
        }),
        'empty key in a delete op': await txn(ctx, {
          success: [{ requestDeleteRange: { key: '' } }],
        }),
        'empty key in a compare': await txn(ctx, {
          compare: [{ key: '', target: 'version', result: 'equal', value: 0 }],
        }),
        'empty compare key before duplicate puts': await txn(ctx, {
          compare: [{ key: '', target: 'version', result: 'equal', value: 0 }],
          success: [putOp('a'), putOp('a')],
        }),
        'duplicate puts in failure, empty key in success': await txn(ctx, {
          success: [{ requestRange: { key: '' } }],
          failure: [putOp('a'), putOp('a')],
        }),
        'too many ops before an empty key': await txn(ctx, {
          success: [{ requestPut: { key: '', value: 'v' } }, ...puts(128)],
        }),
      };
      out['after'] = await range(ctx, { ...prefix(ctx), countOnly: true });
      return out;
    },
  },
  {
    name: 'txn: a range at a compacted or future revision fails only on the branch taken',
    async run(ctx) {
      const p = ctx.p;
      await put(ctx, p + 'a', '1'); // b+1
      await put(ctx, p + 'a', '2'); // b+2
      await ctx.kv.compaction({ revision: ctx.base + 2 });
      const isTwo = [
        { key: p + 'a', target: 'value' as const, result: 'equal' as const, value: '2' },
      ];
      const old = { requestRange: { key: p + 'a', revision: ctx.base + 1 } };
      const future = { requestRange: { key: p + 'a', revision: ctx.base + 5 } };
      const write = { requestPut: { key: p + 'w', value: 'w' } };
      return {
        'compacted, taken': await txn(ctx, { compare: isTwo, success: [old] }),
        'compacted, not taken': await txn(ctx, { compare: isTwo, failure: [old] }),
        'compacted, not taken, write': await txn(ctx, {
          compare: isTwo,
          success: [write],
          failure: [old],
        }),
        'future, taken, write': await txn(ctx, { compare: isTwo, success: [write, future] }),
        'future, not taken': await txn(ctx, { compare: isTwo, failure: [future] }),
        'nested, compacted, not taken': await txn(ctx, {
          success: [{ requestTxn: { compare: isTwo, failure: [old] } }],
        }),
      };
    },
  },
  {
    name: 'empty keys: range, put, deleteRange answer InvalidArgument "key is not provided"',
    async run(ctx) {
      return {
        range: await range(ctx, { key: '' }),
        'range with rangeEnd': await range(ctx, { key: '', rangeEnd: ctx.p }),
        put: await txn(ctx, { success: [{ requestPut: { key: '', value: 'v' } }] }),
        deleteRange: await attempt(
          () => ctx.kv.deleteRange({ key: '' }),
          (r) => ndelete(ctx, r),
        ),
      };
    },
  },
  {
    name: "the RangeStream probe: Unimplemented, with grpc-go's message",
    async run(ctx) {
      await put(ctx, ctx.p + 'a', '1');
      return {
        probe: await attempt(
          () => rangeStreamToRangeResponse(ctx.kv.rangeStream(prefix(ctx))),
          (r) => nrange(ctx, r),
        ),
        'range still answers': await range(ctx, prefix(ctx)),
      };
    },
  },
];

interface EventShape {
  type: 'PUT' | 'DELETE';
  key: string;
  value: string;
  create: string | 0;
  mod: string;
  version: number;
}

/** A normalised watch response with events (keys relative to the case prefix are filled in by the runner). */
function watchShape(header: string, events: EventShape[]): unknown {
  return {
    header,
    events: events.map((e) => ({
      type: e.type,
      kv: {
        key: e.key,
        value: e.value,
        createRevision: e.create,
        modRevision: e.mod,
        version: e.version,
        lease: 0,
      },
      prevKv: null,
    })),
    compactRevision: 0,
    canceled: false,
    cancelReason: '',
    progressNotify: false,
  };
}

function canceledShape(header: string | 0): Record<string, unknown> {
  return {
    header,
    events: [],
    compactRevision: 0,
    canceled: true,
    cancelReason: '',
    progressNotify: false,
  };
}

function progressShape(header: string): unknown {
  return {
    header,
    events: [],
    compactRevision: 0,
    canceled: false,
    cancelReason: '',
    progressNotify: true,
  };
}
