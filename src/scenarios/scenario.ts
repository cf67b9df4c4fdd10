// No upstream counterpart: what a built-in scenario is (its parameters, how it runs, how its run
// is summarised) and the summary every face shows. The numbers in a summary are read from the
// RunModel, i.e. from what the engine reported, never computed by the scenario beside it (the one
// exception, a counterfactual such as "fixed pages would have cost", is labelled as computed).
import type { ScenarioSummary } from '../run/run-summary';
import type { RunModel } from '../run/run-model';
import type { RunWorkload } from './run-estimate';
import type { ScenarioRun } from '../sim/scenario-run';

export interface ScenarioParamSpec {
  name: string;
  type: 'number' | 'string' | 'boolean';
  default: number | string | boolean;
  description: string;
  min?: number;
  max?: number;
  choices?: string[];
  /** Numbers must be whole (counts, seconds). */
  integer?: boolean;
}

export interface ScenarioDefinition {
  name: string;
  title: string;
  /** A short name that fits the side bar; `title` says what the scenario shows. */
  label: string;
  description: string;
  params: ScenarioParamSpec[];
  /** The inspector tab that tells this scenario's story: a new run of it opens there. */
  storyView: 'watchers' | 'watchCache' | 'serialization' | 'lists' | 'metrics';
}

export type ScenarioParams = Record<string, number | string | boolean>;

/** The RunModel sections `--json` carries for a scenario besides metrics and the summary. */
export type JsonSection =
  'lists' | 'watchers' | 'serialization' | 'capacity' | 'waits' | 'watchRequests';

/** One built-in scenario. */
export interface ScenarioModule {
  definition: ScenarioDefinition;
  /** The profile the run uses, from the resolved parameters ('1.36' unless a `profile` parameter says otherwise). */
  profile(params: ScenarioParams): string;
  /** Runs the scenario on the engine in virtual time; everything it observes goes through `run`. */
  run(run: ScenarioRun, params: ScenarioParams): Promise<void>;
  /** What the run will do, from the resolved parameters by the formulas `run` follows (run-estimate.ts prices it). */
  estimate(params: ScenarioParams): RunWorkload;
  /** Reads the run back out of the model. */
  summarize(model: RunModel): ScenarioSummary;
  /** Sections for --json. */
  sections: JsonSection[];
  /** Checks what single parameters cannot (e.g. a list of content types); returns the problem, naming the parameter. */
  check?(params: ScenarioParams): string | undefined;
}
