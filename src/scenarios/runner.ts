// No upstream counterpart: runs a built-in scenario by name with checked parameters, on a fresh
// virtual clock and the given seed, folding everything the engine reports into a RunModel (and,
// when asked, streaming it to a trace). The API the CLI and the extension call.
import type { ScenarioSummary } from '../run/run-summary';
export type { ScenarioSummary } from '../run/run-summary';
import { RunModelBuilder } from '../run/build-run-model';
import { isRecordedRun, summarizeRecordedRun } from '../run/recorded-run-summary';
import type { RunHeader, RunModel } from '../run/run-model';
import { traceFormat, traceVersion, type TraceRecord } from '../run/trace/trace-format';
import type { TraceWriter } from '../run/trace/trace-writer';
import { findScenario, scenarioCatalogue } from './catalogue';
import { etcdLatencyOf, withEtcdLatencyNote } from './etcd-latency';
import { estimateWorkload, type RunEstimate } from './run-estimate';
import type {
  ScenarioDefinition,
  ScenarioModule,
  ScenarioParamSpec,
  ScenarioParams,
} from './scenario';
import { ScenarioRun, ScenarioStoppedError } from '../sim/scenario-run';
import { vtime } from './summary-format';
import { formatBytesRoughly } from '../format/byte-size-text';

export type { ScenarioDefinition, ScenarioParamSpec } from './scenario';

/** The seed a run uses unless told otherwise. */
export const defaultSeed = 1;

export interface RunScenarioOptions {
  seed?: number;
  onProgress?: (fraction: number, message: string) => void;
  signal?: AbortSignal;
  trace?: TraceWriter;
  /**
   * Awaited between steps of virtual time, so a host (the extension) can hand its event loop back
   * (e.g. `() => new Promise(r => setImmediate(r))`) to draw progress and deliver a Cancel. Never
   * changes the run: the engine's timers are all virtual.
   */
  yieldToHost?: () => Promise<void>;
  /**
   * The cacher's fast paths (in-place delivery, watcher runs); default true. Not part of the run:
   * the trace is the same byte for byte either way, so it is not recorded.
   */
  fastPaths?: boolean;
  /**
   * The trace's cap (characters, see TraceWriter.chars): once the trace holds this much the run
   * stops at its next step, ends with a `truncated` phase and its final metrics (a few kB, and a
   * line per watcher), and is returned as it stands. Without a trace, nothing is capped.
   */
  maxTraceBytes?: number;
}

/** The phase a run stopped at its trace cap ends with; faces read it to mark the run truncated. */
export const truncatedPhase = 'truncated';

/** How a run stopped at its trace cap. */
export interface RunTruncation {
  capBytes: number;
  /** The trace's size when the run stopped (the final metrics come after). */
  writtenBytes: number;
  /** Virtual time of the stop. */
  atMs: number;
  /** The `truncated` phase's text. */
  message: string;
}

/** The truncation phase's text, or undefined for a run that ran to its end. */
export function truncationOf(model: RunModel): string | undefined {
  return model.phases?.find((p) => p.name === truncatedPhase)?.text;
}

/** Every built-in scenario with its parameters (in catalogue order). */
export function listScenarios(): ScenarioDefinition[] {
  return scenarioCatalogue.map((m) => structuredClone(m.definition));
}

function moduleOf(name: string): ScenarioModule {
  const m = findScenario(name);
  if (!m) {
    throw new Error(
      `unknown scenario ${JSON.stringify(name)}; expected one of: ${scenarioCatalogue.map((s) => s.definition.name).join(', ')}`,
    );
  }
  return m;
}

function expected(p: ScenarioParamSpec): string {
  if (p.type === 'boolean') return 'true or false';
  if (p.type === 'string')
    return p.choices ? `one of ${p.choices.map((c) => JSON.stringify(c)).join(', ')}` : 'a string';
  const kind = p.integer ? 'a whole number' : 'a number';
  if (p.min !== undefined && p.max !== undefined) return `${kind} from ${p.min} to ${p.max}`;
  if (p.min !== undefined) return `${kind} >= ${p.min}`;
  if (p.max !== undefined) return `${kind} <= ${p.max}`;
  return kind;
}

function convert(
  scenario: string,
  p: ScenarioParamSpec,
  raw: string | number | boolean,
): number | string | boolean {
  const bad = (): Error =>
    new Error(
      `scenario ${scenario}: parameter ${JSON.stringify(p.name)} expects ${expected(p)}, got ${JSON.stringify(raw)}`,
    );
  switch (p.type) {
    case 'number': {
      let n: number;
      if (typeof raw === 'number') n = raw;
      else if (
        typeof raw === 'string' &&
        raw.trim() !== '' &&
        /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(raw.trim())
      )
        n = Number(raw);
      else throw bad();
      if (!Number.isFinite(n)) throw bad();
      if (p.integer && !Number.isInteger(n)) throw bad();
      if (p.min !== undefined && n < p.min) throw bad();
      if (p.max !== undefined && n > p.max) throw bad();
      return n;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      if (typeof raw === 'string') {
        const v = raw.trim().toLowerCase();
        if (v === 'true') return true;
        if (v === 'false') return false;
      }
      throw bad();
    }
    case 'string': {
      if (typeof raw !== 'string' && typeof raw !== 'number') throw bad();
      const v = String(raw);
      if (p.choices && !p.choices.includes(v)) throw bad();
      return v;
    }
  }
}

/**
 * The full parameter set of a scenario: its defaults overridden by `set`. Throws an Error naming
 * the scenario or parameter and what was expected for an unknown name, a wrong type or a value
 * out of range.
 */
export function resolveParams(
  name: string,
  set: Record<string, string | number | boolean>,
): Record<string, number | string | boolean> {
  const m = moduleOf(name);
  const specs = m.definition.params;
  const out: ScenarioParams = {};
  for (const p of specs) out[p.name] = p.default;
  for (const [k, v] of Object.entries(set ?? {})) {
    const p = specs.find((s) => s.name === k);
    if (!p) {
      throw new Error(
        `scenario ${name}: unknown parameter ${JSON.stringify(k)}; expected one of: ${specs.map((s) => s.name).join(', ')}`,
      );
    }
    out[k] = convert(name, p, v);
  }
  const problem = m.check?.(out);
  if (problem) throw new Error(`scenario ${name}: ${problem}`);
  return out;
}

/**
 * What a run of `name` with these parameters will cost (checked as runScenario checks them), from
 * the scenario's own formulas: shown before a run, and what the faces ask about.
 */
export function estimateRun(
  name: string,
  set: Record<string, string | number | boolean>,
): RunEstimate {
  const m = moduleOf(name);
  return estimateWorkload(m.definition.name, m.estimate(resolveParams(name, set)));
}

/** Checks a seed: a whole number in [0, 2^32). */
export function checkSeed(seed: number): number {
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new Error(
      `seed must be a whole number from 0 to 4294967295, got ${JSON.stringify(seed)}`,
    );
  }
  return seed;
}

/** The header a run of `name` with these resolved parameters and seed gets. */
export function runHeader(name: string, params: ScenarioParams, seed: number): RunHeader {
  const m = moduleOf(name);
  return {
    format: traceFormat,
    version: traceVersion,
    scenario: m.definition.name,
    profile: m.profile(params),
    seed,
    params,
  };
}

/**
 * Runs a scenario in virtual time. Deterministic for a seed: the same name, parameters and seed
 * give the same model and trace, byte for byte. Rejects with an AbortError when `signal` aborts.
 */
export async function runScenario(
  name: string,
  set: Record<string, string | number | boolean>,
  opts: RunScenarioOptions = {},
): Promise<{ model: RunModel; summary: ScenarioSummary; truncated?: RunTruncation }> {
  const m = moduleOf(name);
  const params = resolveParams(name, set);
  const seed = checkSeed(opts.seed ?? defaultSeed);
  const header = runHeader(name, params, seed);
  const builder = new RunModelBuilder(header);
  const trace = opts.trace;
  trace?.header(header);
  const cap = trace ? opts.maxTraceBytes : undefined;
  let recording = true;
  let capReached = false;
  const onRecord = (r: TraceRecord): void => {
    if (!recording) return;
    builder.add(r);
    if (!trace) return;
    trace.record(r);
    if (cap !== undefined && trace.chars >= cap) capReached = true;
  };
  const run = new ScenarioRun({
    scenario: m.definition.name,
    seed,
    profile: header.profile,
    onRecord,
    onProgress: opts.onProgress,
    signal: opts.signal,
    yieldToHost: opts.yieldToHost,
    fastPaths: opts.fastPaths,
    etcdLatency: etcdLatencyOf(params),
    stopReason: () => (capReached ? 'the trace reached its cap' : undefined),
  });
  let truncated: RunTruncation | undefined;
  try {
    run.checkAborted();
    try {
      await m.run(run, params);
    } catch (e) {
      if (!(e instanceof ScenarioStoppedError) || cap === undefined) throw e;
      const writtenBytes = trace?.chars ?? 0;
      const message = `the trace reached its cap of ${formatBytesRoughly(cap)} (${formatBytesRoughly(writtenBytes)} written) at virtual ${vtime(e.atMs)}: the run stopped there, and is kept as far as it went`;
      truncated = { capBytes: cap, writtenBytes, atMs: e.atMs, message };
      run.phase(truncatedPhase, message);
    }
    run.finish();
    opts.onProgress?.(1, 'done');
  } finally {
    // What stopping the resources emits is not part of the run.
    recording = false;
    run.stop();
  }
  const model = builder.finish();
  return { model, summary: summarizeModel(model), ...(truncated ? { truncated } : {}) };
}

/** The summary of a model (e.g. read back from a trace) by its scenario's own reading. */
export function summarizeModel(model: RunModel): ScenarioSummary {
  // A live, import or probe trace: no scenario module made it, its model tells its story.
  if (isRecordedRun(model.header.scenario)) return summarizeRecordedRun(model);
  const m = moduleOf(model.header.scenario);
  return withEtcdLatencyNote(m.summarize(model), model);
}

/** The --json sections of a scenario (of a live, import or probe run: every request's). */
export function jsonSections(name: string): ScenarioModule['sections'] {
  if (isRecordedRun(name)) return ['lists', 'watchRequests', 'watchers', 'waits'];
  return moduleOf(name).sections;
}
