// Mirrors etcd server/etcdserver/api/v3rpc/key.go (release-3.4: etcdserver/api/v3rpc/key.go):
// checkTxnRequest, checkRequestOp and checkIntervals, the checks a Txn passes before it is applied,
// in etcd's order: too many operations and empty keys first, then put/delete overlaps per branch.

import { EtcdError, etcdErrorMessages, type RequestOp, type TxnRequest } from './kv';
import { compareKeys } from './index-tree';

/**
 * checkTxnRequest: the largest of compare, success and failure must be within maxTxnOps, and a
 * nested txn within what its parent leaves (maxTxnOps minus the parent's count); no compare and
 * no op may have an empty key.
 */
export function checkTxnRequest(req: TxnRequest, maxTxnOps: number): void {
  const opc = Math.max(
    req.compare?.length ?? 0,
    req.success?.length ?? 0,
    req.failure?.length ?? 0,
  );
  if (opc > maxTxnOps) throw EtcdError.invalidArgument(etcdErrorMessages.tooManyOps);
  for (const c of req.compare ?? []) if (c.key === '') throw emptyKey();
  for (const op of [...(req.success ?? []), ...(req.failure ?? [])])
    checkRequestOp(op, maxTxnOps - opc);
}

function checkRequestOp(op: RequestOp, maxTxnOps: number): void {
  if ('requestRange' in op) {
    if (op.requestRange.key === '') throw emptyKey();
  } else if ('requestPut' in op) {
    if (op.requestPut.key === '') throw emptyKey();
  } else if ('requestDeleteRange' in op) {
    if (op.requestDeleteRange.key === '') throw emptyKey();
  } else {
    checkTxnRequest(op.requestTxn, maxTxnOps);
  }
}

function emptyKey(): EtcdError {
  return EtcdError.invalidArgument(etcdErrorMessages.emptyKey);
}

/**
 * adt's string intervals as checkIntervals builds them: a point for a delete without rangeEnd,
 * else [key, rangeEnd) taken literally, so a from-key delete (rangeEnd "\0") covers no key.
 */
interface DelInterval {
  begin: string;
  end: string | undefined;
}

function covers(dels: DelInterval[], key: string): boolean {
  return dels.some((d) =>
    d.end === undefined
      ? d.begin === key
      : compareKeys(d.begin, key) <= 0 && compareKeys(key, d.end) < 0,
  );
}

/**
 * checkIntervals: within one branch no key may be put twice, nor put and deleted; a nested txn's
 * then and else branches may put the same key (only one runs). Returns the branch's puts and
 * deletes for its parent's check.
 */
export function checkIntervals(reqs: RequestOp[]): { puts: Set<string>; dels: DelInterval[] } {
  const dels: DelInterval[] = [];
  for (const r of reqs) {
    if (!('requestDeleteRange' in r)) continue;
    const d = r.requestDeleteRange;
    dels.push({ begin: d.key, end: d.rangeEnd ? d.rangeEnd : undefined });
  }
  const puts = new Set<string>();
  const duplicate = () => EtcdError.invalidArgument(etcdErrorMessages.duplicateKey);
  for (const r of reqs) {
    if (!('requestTxn' in r)) continue;
    const then = checkIntervals(r.requestTxn.success ?? []);
    const otherwise = checkIntervals(r.requestTxn.failure ?? []);
    for (const k of then.puts) {
      if (puts.has(k) || covers(dels, k)) throw duplicate();
      puts.add(k);
    }
    for (const k of otherwise.puts) {
      if (puts.has(k) && !then.puts.has(k)) throw duplicate();
      if (covers(dels, k)) throw duplicate();
      puts.add(k);
    }
    dels.push(...then.dels, ...otherwise.dels);
  }
  for (const r of reqs) {
    if (!('requestPut' in r)) continue;
    const k = r.requestPut.key;
    if (puts.has(k) || covers(dels, k)) throw duplicate();
    puts.add(k);
  }
  return { puts, dels };
}
