// Mirrors the field mapping of etcd api/etcdserverpb/rpc.proto and api/mvccpb/kv.proto onto the
// engine's KV types (src/engine/etcd/kv.ts), both ways. Keys and values are bytes on the wire and
// byte strings (one char per byte, latin1) in the engine, as a Go string holds bytes.

import type {
  Compare,
  DeleteRangeRequest,
  DeleteRangeResponse,
  KeyValue,
  PutResponse,
  RangeRequest,
  RangeResponse,
  RequestOp,
  ResponseHeader,
  ResponseOp,
  TxnRequest,
  TxnResponse,
  WatchEvent,
  WatchRequest,
} from '../engine/etcd-face';

/** A decoded protobuf message (proto-loader: camelCase fields, int64 as number, bytes as Buffer). */
export type Pb = Record<string, unknown>;

/**
 * A bytes field, left out when empty as Go's proto marshalling leaves it out: etcd decodes an
 * empty field that is present as a non-nil empty slice, which for range_end means "every key >=
 * key" instead of the single key.
 */
export function bytes(s: string | undefined): Buffer | undefined {
  return s ? Buffer.from(s, 'latin1') : undefined;
}

export function str(b: unknown): string {
  return Buffer.isBuffer(b) ? b.toString('latin1') : '';
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

export function header(pb: unknown): ResponseHeader {
  return { revision: num((pb as Pb | null)?.revision) };
}

export function keyValue(pb: Pb): KeyValue {
  const kv: KeyValue = {
    key: str(pb.key),
    value: str(pb.value),
    createRevision: num(pb.createRevision),
    modRevision: num(pb.modRevision),
    version: num(pb.version),
  };
  const lease = num(pb.lease);
  if (lease) kv.lease = lease;
  return kv;
}

export function rangeRequest(r: RangeRequest): Pb {
  return {
    key: bytes(r.key),
    rangeEnd: bytes(r.rangeEnd),
    limit: r.limit ?? 0,
    revision: r.revision ?? 0,
    keysOnly: !!r.keysOnly,
    countOnly: !!r.countOnly,
    serializable: !!r.serializable,
  };
}

export function rangeResponse(pb: Pb): RangeResponse {
  return {
    header: header(pb.header),
    kvs: ((pb.kvs as Pb[] | undefined) ?? []).map(keyValue),
    count: num(pb.count),
    more: !!pb.more,
  };
}

export function deleteRangeRequest(r: DeleteRangeRequest): Pb {
  return { key: bytes(r.key), rangeEnd: bytes(r.rangeEnd), prevKv: !!r.prevKv };
}

export function deleteRangeResponse(pb: Pb, withPrev: boolean): DeleteRangeResponse {
  const r: DeleteRangeResponse = { header: header(pb.header), deleted: num(pb.deleted) };
  if (withPrev) r.prevKvs = ((pb.prevKvs as Pb[] | undefined) ?? []).map(keyValue);
  return r;
}

const compareResult = { equal: 0, greater: 1, less: 2, notEqual: 3 } as const;
const compareTarget = {
  version: 0,
  createRevision: 1,
  modRevision: 2,
  value: 3,
  lease: 4,
} as const;

function compare(c: Compare): Pb {
  const pb: Pb = {
    result: compareResult[c.result],
    target: compareTarget[c.target],
    key: bytes(c.key),
    rangeEnd: bytes(c.rangeEnd),
  };
  // The target_union oneof: the field named after the target carries the value.
  pb[c.target] = c.target === 'value' ? bytes(c.value as string) : c.value;
  return pb;
}

function requestOp(op: RequestOp): Pb {
  if ('requestRange' in op) return { requestRange: rangeRequest(op.requestRange) };
  if ('requestPut' in op) {
    const p = op.requestPut;
    return {
      requestPut: {
        key: bytes(p.key),
        value: bytes(p.value),
        lease: p.lease ?? 0,
        prevKv: !!p.prevKv,
      },
    };
  }
  if ('requestDeleteRange' in op)
    return { requestDeleteRange: deleteRangeRequest(op.requestDeleteRange) };
  return { requestTxn: txnRequest(op.requestTxn) };
}

export function txnRequest(t: TxnRequest): Pb {
  return {
    compare: (t.compare ?? []).map(compare),
    success: (t.success ?? []).map(requestOp),
    failure: (t.failure ?? []).map(requestOp),
  };
}

/** A txn response; `req` tells which branch ran, for the prevKv options of its ops. */
export function txnResponse(pb: Pb, req: TxnRequest): TxnResponse {
  const succeeded = !!pb.succeeded;
  const ops = (succeeded ? req.success : req.failure) ?? [];
  const responses = ((pb.responses as Pb[] | undefined) ?? []).map((r, i) => responseOp(r, ops[i]));
  return { header: header(pb.header), succeeded, responses };
}

function responseOp(pb: Pb, op: RequestOp | undefined): ResponseOp {
  switch (pb.response) {
    case 'responseRange':
      return { responseRange: rangeResponse(pb.responseRange as Pb) };
    case 'responsePut': {
      const p = pb.responsePut as Pb;
      const r: PutResponse = { header: header(p.header) };
      if (p.prevKv) r.prevKv = keyValue(p.prevKv as Pb);
      return { responsePut: r };
    }
    case 'responseDeleteRange': {
      const withPrev = !!op && 'requestDeleteRange' in op && !!op.requestDeleteRange.prevKv;
      return { responseDeleteRange: deleteRangeResponse(pb.responseDeleteRange as Pb, withPrev) };
    }
    default: {
      const inner = op && 'requestTxn' in op ? op.requestTxn : {};
      return { responseTxn: txnResponse(pb.responseTxn as Pb, inner) };
    }
  }
}

/** Keys a txn's responses wrote: one per put, the deleted count per delete (nested txns too). */
export function writtenKeys(responses: ResponseOp[]): number {
  let n = 0;
  for (const r of responses) {
    if ('responsePut' in r) n++;
    else if ('responseDeleteRange' in r) n += r.responseDeleteRange.deleted;
    else if ('responseTxn' in r) n += writtenKeys(r.responseTxn.responses);
  }
  return n;
}

const filterType = { noPut: 0, noDelete: 1 } as const;

export function watchCreateRequest(w: WatchRequest, startRevision: number): Pb {
  return {
    createRequest: {
      key: bytes(w.key),
      rangeEnd: bytes(w.rangeEnd),
      startRevision,
      progressNotify: !!w.progressNotify,
      filters: (w.filters ?? []).map((f) => filterType[f]),
      prevKv: !!w.prevKv,
    },
  };
}

export function watchEvent(pb: Pb): WatchEvent {
  const ev: WatchEvent = {
    type: pb.type === 'Delete' ? 'DELETE' : 'PUT',
    kv: keyValue((pb.kv as Pb | null) ?? {}),
  };
  if (pb.prevKv) ev.prevKv = keyValue(pb.prevKv as Pb);
  return ev;
}
