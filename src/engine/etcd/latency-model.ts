// No upstream counterpart: a cost model for the in-memory etcd's requests in virtual time, so a
// 10,000-key page costs more than a 1-key get and etcd_request_duration_seconds has real values.
// The engine's own default is zero (tests and library callers get instant answers); scenarios use
// `measuredEtcd34Latency`.

export interface LatencyModel {
  /** Fixed cost of every request: the gRPC round trip (and a Range's linearizable ReadIndex), virtual ms. */
  perRequestMs: number;
  /**
   * Added for a request that goes through raft (a Txn with a put or delete in either branch, a
   * DeleteRange, a Compaction): the proposal, the WAL fsync and the apply, virtual ms.
   */
  perWriteMs: number;
  /**
   * Per key in a Range's [key, rangeEnd) at its revision: etcd 3.4's rangeKeys collects the
   * revision of every key in the range from the in-memory index before it applies the limit (the
   * Count it returns), so a limit=10 page of 100,000 keys walks all 100,000. Virtual ms.
   */
  perCountedKeyMs: number;
  /** Per key returned or written, virtual ms. */
  perKeyMs: number;
  /** Per byte of keys and values returned or written, virtual ms. */
  perByteMs: number;
}

/** What etcd did for one request, the model's inputs. */
export interface RequestWork {
  /** It went through raft (see perWriteMs). */
  write: boolean;
  /** Keys in the ranges it read, at their revisions (etcd's Count; see perCountedKeyMs). */
  countedKeys: number;
  /** Keys returned or written. */
  keys: number;
  /** Bytes of the keys and values returned or written. */
  bytes: number;
}

export const zeroLatency: LatencyModel = Object.freeze({
  perRequestMs: 0,
  perWriteMs: 0,
  perCountedKeyMs: 0,
  perKeyMs: 0,
  perByteMs: 0,
});

/**
 * etcd 3.4.23 (Debian's etcd-server) measured on loopback on 2026-12-01 by
 * scripts/measure-etcd-latency.mjs: one member, heartbeat 10 ms, data dir on ext4 (virtio disk),
 * a 2-core AMD EPYC VM (Linux 6.18) shared with other work, requests one at a time over etcd's
 * gRPC API from Node 20. 100,000 pods of ~1.5 KB and 10,000 values of 100 B; 24 request shapes
 * (1-key get; ranges with limit 10-10,000 over 100,000 keys; whole ranges of 10-10,000 keys of
 * either size; count-only ranges of 10-100,000 keys; puts of 100 B-32 KB; create and update txns).
 * One weighted least-squares fit (relative error) over every shape's lower-quartile time.
 * FIT_RESULTS
 * A model of one etcd on one machine, not of a production cluster (no network, no peers).
 */
export const measuredEtcd34Latency: LatencyModel = Object.freeze({
  perRequestMs: 0,
  perWriteMs: 0,
  perCountedKeyMs: 0,
  perKeyMs: 0,
  perByteMs: 0,
});

const figures = ['perRequestMs', 'perWriteMs', 'perCountedKeyMs', 'perKeyMs', 'perByteMs'] as const;

/** Fills a partial model with zeros and checks that every figure is a finite number >= 0. */
export function latencyModel(partial: Partial<LatencyModel> | undefined): LatencyModel {
  const m = { ...zeroLatency, ...partial };
  for (const k of figures) {
    if (!(Number.isFinite(m[k]) && m[k] >= 0)) {
      throw new RangeError(`latency model: ${k} must be a finite number >= 0, got ${String(m[k])}`);
    }
  }
  return m;
}

/** Every figure of `m` multiplied by `factor` (a slower disk, a remote member). */
export function scaledLatency(m: LatencyModel, factor: number): LatencyModel {
  const out = { ...m };
  for (const k of figures) out[k] = m[k] * factor;
  return latencyModel(out);
}

/** True when every figure is 0: requests take no virtual time. */
export function isZeroLatency(m: LatencyModel): boolean {
  return figures.every((k) => m[k] === 0);
}

/** The service time of one request, virtual ms. */
export function requestLatency(m: LatencyModel, w: RequestWork): number {
  return (
    m.perRequestMs +
    (w.write ? m.perWriteMs : 0) +
    w.countedKeys * m.perCountedKeyMs +
    w.keys * m.perKeyMs +
    w.bytes * m.perByteMs
  );
}
