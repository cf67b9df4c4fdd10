// No upstream counterpart: a cost model for the in-memory etcd's requests in virtual time, so a
// 10,000-key page costs more than a 1-key get and etcd_request_duration_seconds has real values.
// The engine's own default is zero: with simulateLatency an answer waits on the injected clock,
// so only a caller that moves the clock (the scenario runner drives it while it awaits) can use
// it, and unit tests keep exact, timeless expectations. Scenarios and the CLI use
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
  /** A later chunk of one RangeStream: it follows on the stream's round trip (no perRequestMs). */
  continued?: boolean;
}

/**
 * Latencies are whole multiples of 1/128 ms (7.8 µs): sums and differences of such times are exact
 * in floating point, so a request that started at t and took d ends at exactly t + d and reports
 * exactly d, and virtual times stay short to print.
 */
export const latencyQuantumMs = 1 / 128;

export const zeroLatency: LatencyModel = Object.freeze({
  perRequestMs: 0,
  perWriteMs: 0,
  perCountedKeyMs: 0,
  perKeyMs: 0,
  perByteMs: 0,
});

/**
 * etcd 3.4.23 (Debian's etcd-server) measured on loopback on 2026-12-01 by
 * scripts/measure-etcd-latency.mjs (three runs pooled with --refit): one member, heartbeat 10 ms,
 * data dir on ext4 on a virtio disk (real fsync), a 2-core AMD EPYC VM (Linux 6.18) shared with
 * other work (load average ~9), one request at a time over etcd's gRPC API from Node 20.
 * 100,000 pods of ~1.5 KB and 10,000 values of 100 B; 24 request shapes: a 1-key get; ranges with
 * limit 10, 100, 1,000, 10,000 over the 100,000 pods; whole ranges of 10-10,000 keys of either
 * size; count-only ranges of 10-100,000 keys; puts of 100 B-32 KB; create and update txns.
 * One weighted least-squares fit (on relative error, no negative term) of all five figures to
 * every shape's lower-quartile time (the quartile, not the median, keeps most of the other
 * processes' noise out): R² 0.987, relative error median 7%, worst 38% (a 10-key range of small
 * values, 0.82 ms measured, 0.51 ms fitted). Reads fit every term; writes (all single-key) fit
 * perWriteMs, and share perKeyMs and perByteMs with reads. Typical figures: a get 0.47 ms, a
 * write 0.9 ms, a limit=10 page of 100,000 keys 17 ms (the index walk), 10,000 pods 49 ms.
 * A model of one etcd on one machine, not of a production cluster (no network, no peers).
 */
export const measuredEtcd34Latency: LatencyModel = Object.freeze({
  perRequestMs: 0.49,
  perWriteMs: 0.42,
  perCountedKeyMs: 0.000159,
  perKeyMs: 0.00106,
  perByteMs: 0.0000022,
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

/** The service time of one request, virtual ms, rounded to the latency quantum. */
export function requestLatency(m: LatencyModel, w: RequestWork): number {
  const ms =
    (w.continued ? 0 : m.perRequestMs) +
    (w.write ? m.perWriteMs : 0) +
    w.countedKeys * m.perCountedKeyMs +
    w.keys * m.perKeyMs +
    w.bytes * m.perByteMs;
  return Math.round(ms / latencyQuantumMs) * latencyQuantumMs;
}
