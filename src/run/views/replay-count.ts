// No upstream counterpart: the one count a replayed import reports, and its words. Every face
// (the import's status bar and log line, the Replay tab) says it with replayCountText, so the
// figures cannot drift apart: requests re-issued to the engine; of them, those whose answer was
// compared with the log's; of those, the ones that disagree. A disagreement the replay's own
// seeding explains (the log's answer had more objects than the engine held there: seeded, with
// the replayed creates and deletes before it) is said as that, never blamed on the apiserver.
import { formatCount, plural } from '../../format/count-text';
import type { LoggedAnswer, RunModel } from '../run-model';

/** A replayed import's requests, counted once. */
export interface ReplayCount {
  /** Requests re-issued to the engine (LISTs, WATCHes, writes). */
  reissued: number;
  /** Of them, those whose answer was compared with the log's (LISTs and WATCHes with a logged answer). */
  compared: number;
  /** Of those, the ones whose answer differs from the log's. */
  disagreements: number;
  /** Of those, the ones the replay's seeding explains: the log's answer had more objects than were seeded. */
  seedingShort: SeedingShort[];
  /**
   * Compared requests the log answered with a fault or overload the replay does not model (APF's
   * 429, a 5xx), by status: not reproduced, not disagreements. Absent: none.
   */
  notModelled?: Record<string, number>;
  /**
   * Why the replay could not re-create some of the log's answers (a watch's 410 with no write in
   * the log since its resourceVersion), one text per request: not disagreements. Absent: none.
   */
  notReproduced?: string[];
  /**
   * Compared LISTs whose answer agrees but whose logged latency the replay did not take (the 3 s
   * consistent-read wait, then etcd, answered at once), the log's latency of each in ms: they
   * agree, and the count says what it does not reproduce. Absent: none.
   */
  latencyNotReproduced?: number[];
  /**
   * A what-if replay's settings in words (`watchCacheSize=1000, watchList=true`): it ran as the
   * log's cluster did not, so its differences from the log are what it changed. Absent: a replay
   * of the log as it was.
   */
  whatIf?: string;
}

/** A LIST the replay could not answer as the log did: fewer objects held than the log proves. */
export interface SeedingShort {
  /** Seeded where it looks, at the start of the log (the one seeded count every face says). */
  seeded: number;
  /** Created and deleted there by the replayed log before it (absent: none). */
  created?: number;
  deleted?: number;
  logged: number;
  /** The log proves at least `logged` (a page's limit and a token), not exactly `logged`. */
  atLeast: boolean;
}

/**
 * The replay seeded fewer objects where the LIST looks than the log's answer proves: the engine
 * cannot give that answer, whatever the apiserver does.
 */
export function seedingShortOf(a: LoggedAnswer | undefined): SeedingShort | undefined {
  if (a?.seeded === undefined || a.proven === undefined) return undefined;
  const short: SeedingShort = {
    seeded: a.seeded,
    logged: a.proven,
    atLeast: a.items === undefined,
  };
  if (a.created) short.created = a.created;
  if (a.deleted) short.deleted = a.deleted;
  return a.proven > heldOf(short) ? short : undefined;
}

/** What the engine held where the LIST looked: seeded, plus created, less deleted before it. */
function heldOf(s: SeedingShort): number {
  return s.seeded + (s.created ?? 0) - (s.deleted ?? 0);
}

/**
 * `the replay seeded 9 objects`, or with replayed writes before the LIST: `the engine held 6
 * objects there (4 seeded, 3 created and 1 deleted by the replayed log before it)`.
 */
function heldText(s: SeedingShort): string {
  const writes = [
    s.created ? `${formatCount(s.created)} created` : '',
    s.deleted ? `${formatCount(s.deleted)} deleted` : '',
  ].filter((x) => x !== '');
  if (writes.length === 0) return `the replay seeded ${plural(s.seeded, 'object')}`;
  return `the engine held ${plural(heldOf(s), 'object')} there (${formatCount(s.seeded)} seeded, ${writes.join(' and ')} by the replayed log before it)`;
}

/** The count, read from a replayed import's run model. */
export function replayCountOf(model: RunModel): ReplayCount {
  const writes = model.writes ? model.writes.total - (model.writes.byVerb.seed ?? 0) : 0;
  const answers = [...model.lists, ...(model.watchRequests ?? [])];
  const compared = answers.filter((a) => a.logged !== undefined);
  const disagreeing = compared.filter((a) => (a.disagrees?.length ?? 0) > 0);
  const notModelled: Record<string, number> = {};
  for (const a of compared)
    if (a.logged?.notModelled && a.logged.status !== undefined)
      notModelled[a.logged.status] = (notModelled[a.logged.status] ?? 0) + 1;
  const notReproduced = compared.flatMap((a) =>
    a.logged?.notReproduced !== undefined ? [a.logged.notReproduced] : [],
  );
  const latencyNotReproduced = compared.flatMap((a) =>
    a.logged?.latencyNotReproduced !== undefined ? [a.logged.latencyNotReproduced.loggedMs] : [],
  );
  const whatIf = whatIfOf(model.header);
  return {
    reissued: answers.length + writes,
    compared: compared.length,
    disagreements: disagreeing.length,
    seedingShort: disagreeing.flatMap((a) => {
      const s = seedingShortOf(a.logged);
      return s ? [s] : [];
    }),
    ...(Object.keys(notModelled).length ? { notModelled } : {}),
    ...(notReproduced.length ? { notReproduced } : {}),
    ...(latencyNotReproduced.length ? { latencyNotReproduced } : {}),
    ...(whatIf ? { whatIf } : {}),
  };
}

/**
 * The what-if a replayed import's header names, in words: the params only a what-if sets
 * (replay-options.ts replayParams: `whatIf`, `watchCacheSize`, `watchList`), with the profile it
 * ran under. Undefined for a replay of the log as it was.
 */
export function whatIfOf(
  header: Pick<RunModel['header'], 'params' | 'profile'>,
): string | undefined {
  const p = header.params;
  if (p.whatIf !== true && p.watchCacheSize === undefined && p.watchList === undefined)
    return undefined;
  const parts = [
    ...(p.watchCacheSize !== undefined ? [`watchCacheSize=${String(p.watchCacheSize)}`] : []),
    ...(p.watchList !== undefined ? [`watchList=${String(p.watchList)}`] : []),
  ];
  return parts.length ? parts.join(', ') : `profile ${header.profile}`;
}

/** One answer's words: `the log's 504 (a fault or overload the replay does not model)`. */
export function notModelledAnswerText(status: number): string {
  return notModelledText({ [status]: 1 });
}

/** `the log's 504 (a fault or overload …)`, `the log's 3 429s and 2 504s (faults or overload …)`. */
function notModelledText(byStatus: Record<string, number>): string {
  const entries = Object.entries(byStatus).sort(([a], [b]) => Number(a) - Number(b));
  const total = entries.reduce((n, [, k]) => n + k, 0);
  const parts = entries.map(([status, n]) => (n === 1 ? status : `${formatCount(n)} ${status}s`));
  const list =
    parts.length === 1
      ? parts[0]
      : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `the log's ${list} (${total === 1 ? 'a fault or overload' : 'faults or overload'} the replay does not model)`;
}

/** The count in words, the same on every face. */
export function replayCountText(c: ReplayCount): string {
  const compared =
    c.compared === c.reissued
      ? ' and compared with the log'
      : `, ${formatCount(c.compared)} of them compared with the log`;
  const head = `${plural(c.reissued, 'request')} re-issued${compared}`;
  const faults = c.notModelled ? Object.values(c.notModelled).reduce((n, k) => n + k, 0) : 0;
  const unreproduced = c.notReproduced ?? [];
  // Never "agrees with every one" over an answer the replay did not reproduce.
  const unmodelled = c.notModelled && faults > 0 ? notModelledText(c.notModelled) : '';
  const missed = [
    ...(unmodelled ? [`it does not reproduce ${unmodelled}`] : []),
    ...(unreproduced.length
      ? [`it cannot reproduce ${[...new Set(unreproduced)].join('; ')}`]
      : []),
    ...(c.latencyNotReproduced?.length ? [latencyText(c.latencyNotReproduced)] : []),
  ].join('; ');
  if (c.disagreements === 0 && !missed) return `${head}: the engine agrees with every one`;
  if (c.disagreements === 0)
    return `${head}: the engine agrees with ${formatCount(c.compared - faults - unreproduced.length)}; ${missed}`;
  const tail = missed ? `. ${missed[0].toUpperCase()}${missed.slice(1)}` : '';
  return disagreementText(c, head) + tail;
}

/**
 * `it does not reproduce the log's latency of 1 LIST (3,007 ms)`, `… of 2 LISTs (up to 3,012 ms)`:
 * their answers agree (they are in the agreeing count), their time does not.
 */
function latencyText(loggedMs: number[]): string {
  const most = Math.max(...loggedMs);
  const ms = `${loggedMs.length === 1 ? '' : 'up to '}${formatCount(most)} ms`;
  return `it does not reproduce the log's latency of ${plural(loggedMs.length, 'LIST')} (${ms})`;
}

/** One answer's words when the replay could not re-create it: `cannot reproduce …`. */
export function notReproducedAnswerText(reason: string): string {
  return `cannot reproduce ${reason}`;
}

function disagreementText(c: ReplayCount, head: string): string {
  // A what-if's answers may differ from the log's: that is what it asks, not the apiserver's doing.
  const asWhatIf = c.whatIf
    ? `as a what-if's answers may: the replay ran with ${c.whatIf}, not as the log's cluster did`
    : undefined;
  const text = asWhatIf
    ? `${head}: ${formatCount(c.disagreements)} differ${c.disagreements === 1 ? 's' : ''} from it`
    : `${head}: ${formatCount(c.disagreements)} disagree${c.disagreements === 1 ? 's' : ''}`;
  const short = c.seedingShort.length;
  if (short === 0)
    return asWhatIf
      ? `${text}, ${asWhatIf}`
      : `${text}. A real apiserver disagreeing with the model is worth a look either way`;
  // One LIST's own pair of figures (the largest answer), never a minimum and a maximum of two.
  const worst = c.seedingShort.reduce((a, b) =>
    b.logged - heldOf(b) > a.logged - heldOf(a) ? b : a,
  );
  const why = `${heldText(worst)}; the log's answer ${worst.atLeast ? 'proves at least' : 'had'} ${formatCount(worst.logged)}${short === 1 ? '' : ' (the widest gap)'}: the replay cannot reproduce ${short === 1 ? 'it' : 'them'}`;
  if (short === c.disagreements)
    return `${text}, ${short === 1 ? 'because' : 'all because'} ${why}`;
  if (asWhatIf)
    return `${text}; ${formatCount(short)} of them because ${why}. The other ${formatCount(c.disagreements - short)}, ${asWhatIf}`;
  return `${text}; ${formatCount(short)} of them because ${why}. The other ${formatCount(c.disagreements - short)} ${c.disagreements - short === 1 ? 'is' : 'are'} worth a look: a real apiserver disagreeing with the model`;
}
