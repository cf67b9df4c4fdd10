// No upstream counterpart: a cost model for the in-memory etcd's requests in virtual time, so
// timelines can show that a 10,000-key page costs more than a 1-key get. All figures default to 0.

export interface LatencyModel {
  /** Fixed cost of every request (a round trip plus raft for writes), virtual ms. */
  perRequestMs: number;
  /** Cost per key returned or written, virtual ms. */
  perKeyMs: number;
  /** Cost per byte of keys and values returned or written, virtual ms. */
  perByteMs: number;
}

export const zeroLatency: LatencyModel = Object.freeze({
  perRequestMs: 0,
  perKeyMs: 0,
  perByteMs: 0,
});

/** Fills a partial model with zeros and checks that every figure is a finite number >= 0. */
export function latencyModel(partial: Partial<LatencyModel> | undefined): LatencyModel {
  const m = { ...zeroLatency, ...partial };
  for (const k of ['perRequestMs', 'perKeyMs', 'perByteMs'] as const) {
    if (!(Number.isFinite(m[k]) && m[k] >= 0)) {
      throw new RangeError(`latency model: ${k} must be a finite number >= 0, got ${String(m[k])}`);
    }
  }
  return m;
}

/** The service time of one request that touched `keys` keys totalling `bytes` bytes. */
export function requestLatency(m: LatencyModel, keys: number, bytes: number): number {
  return m.perRequestMs + keys * m.perKeyMs + bytes * m.perByteMs;
}
