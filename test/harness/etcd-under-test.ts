// The etcd a ported store or watch suite runs on: the in-memory model (the unit suite) or a real
// etcd (the etcd suite, test/etcd/harness/ported-etcd.ts). No upstream counterpart: upstream's
// suites start an embedded etcd per test (testserver.RunEtcd); here the same cases are handed
// one of the two, so they show the model and a real etcd answering alike.
import { FakeClock, settle } from '../../src/engine/clock';
import type { EtcdMember } from '../../src/engine/etcd/etcd-member';
import { MemoryEtcd } from '../../src/engine/etcd/memory-etcd';

/**
 * An etcd a case can write to beside its store. The conveniences (put, delete, compact) are not
 * recorded, as MemoryEtcd's are not: over a real etcd they go through a second client.
 */
export type TestEtcd = EtcdMember & {
  /** Writes key=value; the new revision. */
  put(key: string, value: string): number | Promise<number>;
  /** Deletes one key; the revision after it. */
  delete(key: string): number | Promise<number>;
  /** Compacts history before `revision` (etcd's Compact, synchronous in the model). */
  compact(revision: number): void | Promise<void>;
};

/** What a case may ask of the etcd it is given (MemoryEtcdOptions a real etcd can honour). */
export interface OpenEtcdOptions {
  /**
   * Whether the case needs RangeStream: only the model has it ('supported'); a real etcd 3.4
   * answers Unimplemented, as the model's default does.
   */
  rangeStream?: 'supported' | 'unimplemented';
  rangeStreamInitialChunk?: number;
  progressNotifyIntervalMs?: number;
  /** The virtual clock's epoch (ms; default 0). */
  clockStartMs?: number;
}

/** One case's etcd and the virtual clock its store runs on. */
export interface OpenedEtcd {
  readonly clock: FakeClock;
  readonly etcd: TestEtcd;
  /** The in-memory member itself, for a case that uses its fault hooks (memory-only cases). */
  readonly memory: MemoryEtcd | undefined;
  /**
   * Lets the etcd answer what it was asked: microtask turns in memory; over a real etcd, until no
   * call is in flight and every open watch has the events of the writes it covers.
   */
  settle(turns?: number): Promise<void>;
}

export interface EtcdUnderTest {
  readonly kind: 'memory' | 'grpc';
  /** A fresh etcd (or a fresh, revision-1 view of a shared one) for one case. */
  open(o?: OpenEtcdOptions): Promise<OpenedEtcd>;
}

/** The in-memory model, a new member per case, as the unit suite has always run. */
export const memoryEtcd: EtcdUnderTest = {
  kind: 'memory',
  open: async (o = {}) => openMemoryEtcd(o),
};

/** memoryEtcd.open without the promise, for a case that must build its store synchronously. */
export function openMemoryEtcd(o: OpenEtcdOptions = {}): OpenedEtcd {
  const clock = new FakeClock(o.clockStartMs);
  const etcd = new MemoryEtcd({
    clock,
    rangeStream: o.rangeStream,
    rangeStreamInitialChunk: o.rangeStreamInitialChunk,
    progressNotifyIntervalMs: o.progressNotifyIntervalMs,
  });
  return { clock, etcd, memory: etcd, settle: (turns) => settle(turns) };
}
