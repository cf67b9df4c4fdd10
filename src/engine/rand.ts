// Seeded randomness for the engine (upstream uses math/rand for bookmark jitter and watch
// deadlines). Same seed, same sequence, so the same scenario produces the same trace.

/** A small, fast, well-distributed PRNG (mulberry32). Not for cryptography. */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1), like Go's rand.Float64. */
  float64(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n), like Go's rand.Int63n / rand.Intn. */
  intn(n: number): number {
    if (!(n > 0)) throw new RangeError(`intn: n must be positive, got ${n}`);
    return Math.floor(this.float64() * n);
  }
}
