// Which clock a run's times are on, and how its length reads: a live server's run and a probe ran
// on the real clock; a scenario (and a replay) on virtual time with a seed. No upstream
// counterpart. Every face that says how long a run is reads it here.

/** The header scenario of a live server's run (src/server/live-recorder.ts). */
export const liveScenario = 'live';
/** The header scenario of a probe run (src/probe/probe-run.ts). */
export const probeScenario = 'probe';

/** The run's times are real time (a live server's or a probe's): it has no seed. */
export function isRealTimeRun(scenario: string): boolean {
  return scenario === liveScenario || scenario === probeScenario;
}

/** What the run's clock was, after a length: "of the server's real time", "of virtual time". */
export function runClockText(scenario: string): string {
  if (scenario === liveScenario) return "of the server's real time";
  if (scenario === probeScenario) return 'of real time';
  return 'of virtual time';
}

/**
 * The facts that say which run it is and how long: a scenario's name, profile, seed and virtual
 * length; a live run's profile and real time (no seed: nothing random decided it).
 */
export function runClockFacts(
  header: { scenario: string; profile: string; seed: number },
  length: string,
): string[] {
  if (header.scenario === liveScenario)
    return ['live', `profile ${header.profile}`, `${length} ${runClockText(header.scenario)}`];
  if (isRealTimeRun(header.scenario)) return [`${length} ${runClockText(header.scenario)}`];
  return [
    `scenario ${header.scenario}`,
    `profile ${header.profile}`,
    `seed ${header.seed}`,
    `${length} ${runClockText(header.scenario)}`,
  ];
}
