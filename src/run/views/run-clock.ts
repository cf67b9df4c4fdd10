// Which clock a run's times are on, and how its length reads: a live server's run and a probe ran
// on the real clock; a scenario on virtual time with a seed; an import's replay on virtual time
// at the log's times (no seed: the log decided what happened). No upstream counterpart. Every face
// that says how long a run is reads it here.

/** The header scenario of a live server's run (src/server/live-recorder.ts). */
export const liveScenario = 'live';
/** The header scenario of a probe run (src/probe/probe-run.ts). */
export const probeScenario = 'probe';
/** The header scenario of every replayed import's trace (src/replay/replay-import.ts). */
export const importScenario = 'import';

/** The run's times are real time (a live server's or a probe's): it has no seed. */
export function isRealTimeRun(scenario: string): boolean {
  return scenario === liveScenario || scenario === probeScenario;
}

/**
 * A seed decided the run (a scenario's): a live run and a probe ran on the real clock, and an
 * import's replay re-issues the log's requests at the log's times (its `--seed` only jitters the
 * engine's own timers), so their faces name no seed.
 */
export function showsSeed(scenario: string): boolean {
  return !isRealTimeRun(scenario) && scenario !== importScenario;
}

/** What the run's clock was, after a length: "of the server's real time", "of virtual time". */
export function runClockText(scenario: string): string {
  if (scenario === liveScenario) return "of the server's real time";
  if (scenario === probeScenario) return 'of real time';
  return 'of virtual time';
}

/** The span of an import's logs (ImportReport.span, epoch ms; null: the log has no time). */
export interface LogSpan {
  from: number | null;
  to: number | null;
}

/** `2026-12-07 09:30:00.012` (UTC, as the import reads times without a zone). */
function utcText(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** An import's span: `2026-12-07 09:30:00.012 – 09:31:41.424 UTC` (the date once when one day). */
function spanText(span: LogSpan): string | undefined {
  if (span.from === null || span.to === null) return undefined;
  const from = utcText(span.from);
  const to = utcText(span.to);
  return `${from} – ${to.slice(0, 10) === from.slice(0, 10) ? to.slice(11) : to} UTC`;
}

/**
 * The facts that say which run it is and how long: a scenario's name, profile, seed and virtual
 * length; a live run's profile and real time (no seed: nothing random decided it); an import's
 * files, the span of their times (`span`: the import report's, when the run has it) and the
 * virtual time its replay took (no seed: the log's requests decided it).
 */
export function runClockFacts(
  header: {
    scenario: string;
    profile: string;
    seed: number;
    params?: Record<string, number | string | boolean>;
  },
  length: string,
  span?: LogSpan,
): string[] {
  if (header.scenario === liveScenario)
    return ['live', `profile ${header.profile}`, `${length} ${runClockText(header.scenario)}`];
  if (isRealTimeRun(header.scenario)) return [`${length} ${runClockText(header.scenario)}`];
  if (header.scenario === importScenario) {
    const files = String(header.params?.files ?? '');
    const logs = files.includes(', ') ? "logs'" : "log's";
    const when = span ? spanText(span) : undefined;
    return [
      `import of ${files || 'logs'}`,
      ...(when ? [`the ${logs} ${when}`] : []),
      `profile ${header.profile}`,
      `${length} ${runClockText(header.scenario)} (the ${logs} times, replayed)`,
    ];
  }
  return [
    `scenario ${header.scenario}`,
    `profile ${header.profile}`,
    `seed ${header.seed}`,
    `${length} ${runClockText(header.scenario)}`,
  ];
}
