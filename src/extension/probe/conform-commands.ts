// "List/Watch: Check List/Watch Conformance…": the `listwatch conform` battery (src/conform)
// against a kubeconfig's cluster, picked as Probe Cluster picks it, after a modal that says what
// it will write; the result opens as a markdown document with a row per check. No upstream
// counterpart.
import * as vscode from 'vscode';
import { connect } from '../../probe/cluster-connection';
import { loadClusterTarget } from '../../probe/kubeconfig-target';
import { ProbeError } from '../../probe/probe-error';
import { ConformUnreachable, runConform } from '../../conform/conform-run';
import { conformReportMarkdown } from '../../conform/conform-report-markdown';
import { withCancellableProgress } from '../shared/cancellable-progress';
import { checkConformanceCommandId } from '../ids';
import type { CommandHandlers } from '../lazy-feature';
import { pickTarget, type ProbeDeps } from './probe-commands';

/** The action of the confirmation modal. */
export const checkAction = 'Check';

function text(arg: unknown): string | undefined {
  return typeof arg === 'string' && arg !== '' ? arg : undefined;
}

/**
 * Runs the battery and opens its report; the arguments (kubeconfig, context, read-only) skip the
 * pick. Undefined when dismissed, declined, cancelled or failed (the failure is shown).
 */
export async function checkConformanceCommand(
  deps: ProbeDeps,
  kubeconfigArg?: unknown,
  contextArg?: unknown,
  readOnlyArg?: unknown,
): Promise<vscode.TextDocument | undefined> {
  const kubeconfig = text(kubeconfigArg);
  const picked = kubeconfig
    ? { kubeconfig, context: text(contextArg) }
    : await pickTarget(deps, 'List/Watch: Check List/Watch Conformance of…');
  if (!picked) return undefined;
  const readOnly = readOnlyArg === true;
  try {
    const target = await loadClusterTarget(picked.kubeconfig, picked.context);
    const ok = await deps.confirmations.confirm(
      `Check the list/watch conformance of cluster "${target.cluster}" (context "${target.context}")?${target.credential.exec ? ' This runs its exec plugin.' : ''}`,
      [
        `server: ${target.server}`,
        ...target.credential.lines,
        readOnly
          ? 'Read-only: GETs only; the checks that need writes are skipped.'
          : 'It creates a namespace listwatch-conform-<random>, writes ConfigMaps in it, compacts history only on a listwatch serve, and deletes the namespace afterwards.',
      ].join('\n'),
      checkAction,
    );
    if (!ok) return undefined;
    const run = await withCancellableProgress(
      `List/Watch: checking the conformance of ${target.server}`,
      async (signal, report) => {
        const c = await connect(target, 'application/json');
        const credential = Object.fromEntries(
          Object.entries(c.headers).filter(([k]) => k !== 'Accept' && k !== 'User-Agent'),
        );
        let n = 0;
        return runConform({
          endpoint: { server: target.server, headers: credential, agent: c.agent },
          readOnly,
          signal,
          onCheck: (r) => report(Math.min(0.95, ++n / 17), `${r.status} ${r.id}`),
          log: (line) => deps.log.info(`conform: ${line}`),
        });
      },
    );
    if (!run) {
      void vscode.window.showInformationMessage('List/Watch: the conformance check was cancelled.');
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: conformReportMarkdown(run.report),
    });
    await vscode.window.showTextDocument(doc);
    return doc;
  } catch (e) {
    if (!(e instanceof ProbeError || e instanceof ConformUnreachable)) throw e;
    deps.log.error(`conform failed: ${e.message}`);
    void vscode.window.showErrorMessage(`List/Watch: ${e.message}`);
    return undefined;
  }
}

export function conformCommands(deps: ProbeDeps): CommandHandlers {
  return {
    [checkConformanceCommandId]: (k?: unknown, c?: unknown, r?: unknown) =>
      checkConformanceCommand(deps, k, c, r),
  };
}
