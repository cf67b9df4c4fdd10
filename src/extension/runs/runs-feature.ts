// No upstream counterpart: the scenario runs' chunk (dist/extension-runs.js: the scenario runner,
// the engine, the trace reader), loaded on the first run command, the first look at the Scenarios
// view, or the first run opened from a trace (src/extension/lazy-feature.ts). The run store, the
// current run and the panel come from the entry.
import type { Confirmations } from '../shared/confirmations';
import { openTraceInInspectorCommandId } from '../ids';
import type { CommandHandlers } from '../lazy-feature';
import type { InspectorPanel } from '../panel/inspector-panel';
import type { ExtensionLog } from '../shared/output-log';
import type { CurrentRun } from './current-run';
import { openTraceInInspectorCommand } from './explorer-trace';
import { exportTraceCommand, runCommands } from './run-commands';
import { listScenarios } from './run-engine';
import type { RunStore } from './run-store';
import { WorkspaceRuns, describeRun } from './workspace-runs';

export interface RunsFeatureDeps {
  store: RunStore;
  current: CurrentRun;
  inspector: InspectorPanel;
  log: ExtensionLog;
  confirmations: Confirmations;
  /** The bundled worker scenario runs run on (dist/run-worker.js). */
  workerScript: string;
}

export function activateRuns(deps: RunsFeatureDeps) {
  const { store, current, inspector, log, confirmations } = deps;
  const runs = new WorkspaceRuns(store, current, inspector, log, deps.workerScript);
  const runDeps = { runs, store, current, inspector, log, confirmations };
  const commands: CommandHandlers = {
    ...runCommands(runDeps),
    [openTraceInInspectorCommandId]: (uri?: unknown) => openTraceInInspectorCommand(runDeps, uri),
  };
  return {
    runs,
    commands,
    listScenarios,
    describeRun,
    /** Export Trace… of the open run to `to` (Save Run as Trace of a live run). */
    exportTrace: (to?: unknown) => exportTraceCommand(runDeps, undefined, to),
  };
}

export type RunsFeature = ReturnType<typeof activateRuns>;
