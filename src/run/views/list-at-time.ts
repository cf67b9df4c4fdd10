// A LIST's figures at a moment of virtual time (the scrubber's), folded from what the run recorded
// up to it: the steps the fold kept (decision, fallbacks, the storage's answer), the etcd
// requests sent, the pages read and the waits over by then. No upstream counterpart. Shared by
// the Lists tab's rows and its detail, as watcher-at-time.ts is by the Watchers tab's.
import type { EtcdRequestRecord, ListPageRecord, ListRecord, VirtualMs } from '../run-model';
import { lastIndexAtOrBefore } from './watcher-states';

/** Where a LIST stands at a moment: not sent yet, in progress, or answered. */
export type ListProgress = 'future' | 'running' | 'done';

export interface ListFigures {
  progress: ListProgress;
  /**
   * What served it (done), or the target so far (running: the delegator's choice, then a
   * fallback's); undefined before the delegator decided.
   */
  servedBy?: ListRecord['servedBy'];
  /** The delegation rule as known then (without a fallback still to come). */
  rule?: string;
  /** Fetched / evaluated / returned, once the storage (or the answer) had them. */
  fetched?: number;
  evaluated?: number;
  returned?: number;
  /** The etcd requests sent by then; `answered` false while etcd had not answered one yet. */
  etcdRequests: Array<EtcdRequestRecord & { answered: boolean }>;
  pages: ListPageRecord[];
  /** Freshness waits over by then, and the one under way. */
  waits: ListRecord['waits'];
  waiting?: { since: VirtualMs; rv: number };
  fallbacks: string[];
  /** The answer's own figures (resourceVersion, continue, remainingItemCount, error): done only. */
  answered: boolean;
}

export function listProgressAt(l: ListRecord, at: VirtualMs): ListProgress {
  if (l.at > at) return 'future';
  if (l.endedAt !== undefined && l.endedAt > at) return 'running';
  return 'done';
}

/** Every figure of the LIST as it stood at `at` (after everything that happened at `at`). */
export function listFiguresAt(l: ListRecord, at: VirtualMs): ListFigures {
  const progress = listProgressAt(l, at);
  if (progress === 'done')
    return {
      progress,
      servedBy: l.servedBy,
      rule: l.rule,
      fetched: l.fetched,
      evaluated: l.evaluated,
      returned: l.returned,
      etcdRequests: l.etcdRequests.map((r) => ({ ...r, answered: true })),
      pages: l.pages ?? [],
      waits: l.waits,
      fallbacks: l.fallbacks,
      answered: true,
    };
  const none: ListFigures = {
    progress,
    etcdRequests: [],
    pages: [],
    waits: [],
    fallbacks: [],
    answered: false,
  };
  if (progress === 'future') return none;
  const steps = l.steps ?? [];
  const step = steps[lastIndexAtOrBefore(steps, at)];
  const waits = l.waits.filter((w) => w.at + w.waitedMs <= at);
  const under = l.waits.find((w) => w.at <= at && w.at + w.waitedMs > at);
  return {
    ...none,
    ...(step
      ? {
          servedBy: step.servedBy,
          rule: step.rule,
          fallbacks: l.fallbacks.slice(0, step.fallbacks),
          ...step.answer,
        }
      : {}),
    etcdRequests: l.etcdRequests
      .filter((r) => r.at <= at)
      .map((r) => ({ ...r, answered: r.at + r.latencyMs <= at })),
    pages: (l.pages ?? []).filter((p) => p.at <= at),
    waits,
    ...(under ? { waiting: { since: under.at, rv: under.rv } } : {}),
  };
}
