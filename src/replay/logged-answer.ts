// No upstream counterpart: what a log says the real apiserver answered to a request, beside what
// the engine answered to the same request re-issued, compared on what both know. Resource
// versions and continue tokens are never compared by value: the engine's etcd has its own
// revisions, so they differ by construction; only whether a token came back is.
import { requestWatchProgressDisabled } from '../run/request-watch-progress-proof';
import type { LoggedAnswer } from '../run/run-model';
import type { AnswerComparison, EngineAnswer } from '../sim/scenario-run';
import type { ImportedRequest } from '../run/imported-request';
import { watchExpiredText } from '../run/watch-expired-text';
import { blockTimeout } from '../engine';
import { formatCount } from '../format/count-text';

/**
 * Statuses a log holds that the replay does not model: APF's 429 and the 5xx of an overloaded or
 * failing apiserver (a 504 waiting for the watch cache). They are the log's own faults: the
 * engine answering otherwise is said as that, never as a disagreement with the model.
 */
const notModelledStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** The log's status is one the replay does not model and the engine did not answer it too. */
function notModelled(logged: LoggedAnswer, engineStatus: number): boolean {
  return (
    logged.status !== undefined &&
    notModelledStatuses.has(logged.status) &&
    logged.status !== engineStatus
  );
}

/** How much earlier than in the log the engine may end a watch before it counts (timer rounding). */
const durationSlackMs = 1000;

/**
 * The log's answer to a LIST or the start of a WATCH (only the fields the log has). `continued`:
 * a later page of its chain sent a token, so the log proves this page answered with one even
 * without its body (a Metadata-level audit log).
 */
export function loggedAnswer(r: ImportedRequest, continued = false): LoggedAnswer {
  const a: LoggedAnswer = {};
  if (r.code !== undefined) a.status = r.code;
  const resp = r.response;
  if (resp?.items !== undefined) a.items = resp.items;
  if (resp?.remainingItemCount !== undefined) a.remainingItemCount = resp.remainingItemCount;
  if (resp?.resourceVersion !== undefined) a.resourceVersion = resp.resourceVersion;
  // The body's ListMeta was read (a whole body, or a cut one whose metadata object closed): a
  // continue or remainingItemCount it lacks is absent, as telling as one it has.
  if (resp !== undefined) {
    a.continue = Boolean(resp.continue);
    a.listMetaRead = true;
  } else if (continued) a.continue = true;
  if (r.code !== undefined && r.code >= 400)
    a.error = { code: r.code, reason: r.status?.reason ?? '', message: r.status?.message ?? '' };
  return a;
}

/**
 * What differs between the log's LIST answer and the engine's: `status` (e.g. 410 vs 200),
 * `continue` (a token vs none), `remainingItemCount` (its value, or present vs absent, wherever
 * the log read the answer's ListMeta) and `items` (compared only for LISTs without selectors:
 * seeded objects do not carry the real cluster's labels).
 */
export function listDisagreements(
  logged: LoggedAnswer,
  engine: EngineAnswer,
  compareItems: boolean,
): string[] {
  const out: string[] = [];
  if (notModelled(logged, engine.status)) return out;
  if (logged.status !== undefined && logged.status !== engine.status) out.push('status');
  if (logged.status !== undefined && logged.status !== 200) return out;
  if (engine.status !== 200) return out;
  if (logged.continue !== undefined && logged.continue !== (engine.continue !== ''))
    out.push('continue');
  if (
    (logged.listMetaRead || logged.remainingItemCount !== undefined) &&
    logged.remainingItemCount !== engine.remainingItemCount
  )
    out.push('remainingItemCount');
  if (compareItems && logged.items !== undefined && logged.items !== engine.items)
    out.push('items');
  return out;
}

/** The comparison recorded with a LIST's list-end. */
export function compareList(r: ImportedRequest, compareItems: boolean, continued = false) {
  return (engine: EngineAnswer): AnswerComparison => {
    const logged = loggedAnswer(r, continued);
    if (notModelled(logged, engine.status)) logged.notModelled = true;
    const disagrees = listDisagreements(logged, engine, compareItems);
    if (!disagrees.length && !logged.notModelled) {
      const latency = latencyNotReproduced(r, logged, engine, compareItems);
      if (latency) logged.latencyNotReproduced = latency;
    }
    return { logged, ...(disagrees.length ? { disagrees } : {}) };
  };
}

/** How far the engine's time to answer may be from the log's before it counts (etcd's own latency). */
const latencySlackMs = 1000;

/**
 * Upstream's consistent read from cache waits up to blockTimeout for the cache to reach etcd's
 * RV, then reads etcd (delegator.go GetList, IsTooLargeResourceVersion): a latency from
 * blockTimeout to this much over it is that fallback's signature.
 */
const fallbackReadMs = 1000;

/** How long the log proves the request took, and whose figure it is. */
function loggedLatency(r: ImportedRequest): { ms: number; whose: string } | undefined {
  if (r.stageLatencyMs !== undefined) return { ms: r.stageLatencyMs, whose: "the audit event's" };
  if (r.latencyMs === undefined) return undefined;
  const server = r.sources.every((s) => s.format === 'httplog');
  return {
    ms: r.latencyMs,
    whose: server ? "as the apiserver's httplog logged it" : 'as its client logged it',
  };
}

/** A LIST without resourceVersion and continue: a consistent read (from the cache since 1.31). */
function consistentRead(r: ImportedRequest): boolean {
  const q = new URLSearchParams(r.requestURI.split('?')[1] ?? '');
  return !q.get('resourceVersion') && !q.get('continue');
}

/**
 * The words of a LIST whose answer agrees but whose logged latency the engine did not take (by
 * latencySlackMs or more either way): what agrees, the two latencies, and, where the log's is the
 * consistent-read fallback's signature and the engine did not wait that long, the lagging cache it
 * suggests, said as an inference (upstream logs the fallback only in a metric,
 * apiserver_watch_cache_consistent_read_total{fallback="true"}, which no log here holds).
 */
function latencyNotReproduced(
  r: ImportedRequest,
  logged: LoggedAnswer,
  engine: EngineAnswer,
  compareItems: boolean,
): LoggedAnswer['latencyNotReproduced'] {
  const log = loggedLatency(r);
  if (log === undefined || engine.latencyMs === undefined) return undefined;
  if (Math.abs(log.ms - engine.latencyMs) < latencySlackMs) return undefined;
  const agreed = [
    ...(logged.status !== undefined ? ['status'] : []),
    ...(compareItems && logged.items !== undefined ? ['items'] : []),
    ...(logged.continue !== undefined ? ['continue'] : []),
    ...(logged.listMetaRead || logged.remainingItemCount !== undefined
      ? ['remainingItemCount']
      : []),
  ];
  const on =
    agreed.length > 1
      ? `${agreed.slice(0, -1).join(', ')} and ${agreed[agreed.length - 1]}`
      : agreed.join('');
  const fallback =
    logged.status === 200 &&
    consistentRead(r) &&
    log.ms >= blockTimeout &&
    log.ms < blockTimeout + fallbackReadMs &&
    engine.latencyMs < blockTimeout;
  const text = [
    on ? `agrees on ${on}; ` : '',
    `the log's latency (${formatCount(log.ms)} ms, ${log.whose}) is not reproduced: `,
    `the engine answered in ${formatCount(engine.latencyMs)} ms`,
    fallback
      ? `. An inference from that latency alone: the watch cache lagged, the consistent read waited ${blockTimeout / 1000} s for it (blockTimeout), then etcd served the LIST`
      : '',
  ].join('');
  return { loggedMs: log.ms, text };
}

/** The log's duration of a watch, when both its ends are in the file. */
export function loggedDurationMs(r: ImportedRequest): number | undefined {
  if (!r.startInFile || !r.endInFile) return undefined;
  const from = r.receivedAt;
  const to = r.completedAt;
  return from !== undefined && to !== undefined && to >= from ? to - from : undefined;
}

/** A watch from a resourceVersion the watch cache's history (or etcd) no longer holds. */
const tooOldResourceVersion = watchExpiredText;

/**
 * The log proves the watch was answered 410 because the watch cache's history no longer held its
 * resourceVersion: its status, or the `too old resource version` its client logged from the
 * stream (the cacher answers such a watch with a 200 whose one event is that ERROR).
 */
export function watchExpiredInLog(r: ImportedRequest): boolean {
  return r.code === 410 || tooOldResourceVersion.test(r.watchEnd?.message ?? '');
}

/**
 * A watch's comparison: its status when answered (a 200 stream or the log's error code; a stream
 * whose client logged `too old resource version` counts as the 410 it carried, one whose client
 * logged the RequestWatchProgress refusal as the 500 InternalError it carried, as the engine's
 * error watcher does), and when its handler returns, whether the engine ended it earlier than the
 * log says it lasted. `notReproduced`: why the replay could not re-create the log's answer (said
 * as that when the engine answers otherwise, never as a disagreement).
 */
export function compareWatch(r: ImportedRequest, openedAt: () => number, notReproduced?: string) {
  return {
    opened(engine: EngineAnswer): AnswerComparison {
      const logged: LoggedAnswer = {};
      if (r.code !== undefined) logged.status = r.code;
      if (r.code !== undefined && r.code >= 400)
        logged.error = {
          code: r.code,
          reason: r.status?.reason ?? '',
          message: r.status?.message ?? '',
        };
      else if (r.watchEnd && tooOldResourceVersion.test(r.watchEnd.message)) {
        logged.status = 410;
        logged.error = { code: 410, reason: 'Expired', message: r.watchEnd.message };
      } else if (r.watchEnd && requestWatchProgressDisabled.test(r.watchEnd.message)) {
        // The cacher's refusal, inside a 200 stream: an ERROR event of a 500 InternalError.
        logged.status = 500;
        logged.error = { code: 500, reason: 'InternalError', message: r.watchEnd.message };
      }
      if (notModelled(logged, engine.status)) logged.notModelled = true;
      if (notReproduced !== undefined && logged.status !== engine.status)
        logged.notReproduced = notReproduced;
      const disagrees =
        logged.status !== undefined &&
        logged.status !== engine.status &&
        !logged.notModelled &&
        !logged.notReproduced
          ? ['status']
          : [];
      return { logged, ...(disagrees.length ? { disagrees } : {}) };
    },
    closed(atMs: number): AnswerComparison {
      const durationMs = loggedDurationMs(r);
      if (durationMs === undefined) return {};
      const early = atMs - openedAt() < durationMs - durationSlackMs;
      return { logged: { durationMs }, ...(early ? { disagrees: ['duration'] } : {}) };
    },
  };
}
