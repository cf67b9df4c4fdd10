// Guarded scenario runs in the extension: the settings that say when to ask first
// (listwatch.run.confirmAbove*) and how big a trace may grow (listwatch.run.maxTraceMiB), and the
// modal that shows a big run's estimate with "Run" and "Cancel". The limits and the estimate are
// the CLI's (src/scenarios/run-estimate.ts). No upstream counterpart.
import * as vscode from 'vscode';
import {
  defaultGuardLimits,
  defaultMaxTraceMiB,
  estimateLines,
  guardReasons,
  traceCapPercent,
  type RunEstimate,
  type RunGuardLimits,
} from '../../scenarios/run-estimate';
import { runGuardSettingIds } from '../ids';
import { formatBytesRoughly } from '../../format/byte-size-text';

/** The settings, under `listwatch.` (package.json contributes them with their descriptions). */

export interface RunGuard {
  limits: RunGuardLimits;
  /** The trace cap in bytes; undefined: none (the setting is 0). */
  maxTraceBytes: number | undefined;
}

/** A setting's number, or its default when it is not a number >= 0. */
function readNumber(config: vscode.WorkspaceConfiguration, key: string, fallback: number): number {
  const v = config.get<unknown>(key);
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

export function readRunGuard(): RunGuard {
  const config = vscode.workspace.getConfiguration();
  const s = runGuardSettingIds;
  const maxTraceMiB = readNumber(config, s.maxTraceMiB, defaultMaxTraceMiB);
  return {
    limits: {
      wallSeconds: readNumber(config, s.confirmAboveSeconds, defaultGuardLimits.wallSeconds),
      traceMiB: readNumber(config, s.confirmAboveTraceMiB, defaultGuardLimits.traceMiB),
      memoryMiB: readNumber(config, s.confirmAboveMemoryMiB, defaultGuardLimits.memoryMiB),
    },
    maxTraceBytes: maxTraceMiB > 0 ? maxTraceMiB * 1024 * 1024 : undefined,
  };
}

/** The modal's text: why it asks, then the estimate and what the trace cap will do. */
export function confirmationText(
  title: string,
  estimate: RunEstimate,
  reasons: string[],
  maxTraceBytes: number | undefined,
): { message: string; detail: string } {
  const capped =
    maxTraceBytes !== undefined && estimate.traceBytes > maxTraceBytes
      ? [
          '',
          `The trace would reach its cap of ${formatBytesRoughly(maxTraceBytes)} (listwatch.run.maxTraceMiB) about ${traceCapPercent(estimate, maxTraceBytes)}% of the way through: the run would stop there and be kept, marked truncated.`,
        ]
      : [];
  return {
    message: `Run ${title}? It is a big run: ${reasons.join('; ')}.`,
    detail: [
      'Estimated from its parameters:',
      ...estimateLines(estimate),
      ...capped,
      '',
      'The limits are the listwatch.run.confirmAbove… settings.',
    ].join('\n'),
  };
}

export const runButton = 'Run';

/**
 * True when the run may start: it is within the limits, or the person chose "Run" in the modal
 * that shows its estimate (Cancel, Escape or closing it: false).
 */
export async function confirmRun(
  title: string,
  estimate: RunEstimate,
  guard: RunGuard,
): Promise<boolean> {
  const reasons = guardReasons(estimate, guard.limits, true);
  if (reasons.length === 0) return true;
  const { message, detail } = confirmationText(title, estimate, reasons, guard.maxTraceBytes);
  const answer = await vscode.window.showWarningMessage(
    message,
    { modal: true, detail },
    runButton,
  );
  return answer === runButton;
}
