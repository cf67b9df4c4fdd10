// "List/Watch: Probe Cluster…" and "List/Watch: Scrape Cluster Metrics…": a real paged LIST (and a
// watch) or a /metrics scrape against a kubeconfig's cluster (src/probe), read-only. The user picks
// the kubeconfig and its context and enters the URL (checked as typed); a modal says exactly what
// will be sent (the credential redacted, the exec plugin that will run) before anything is; the
// probe runs behind a cancellable progress and opens as a run in the inspector and the Runs view.
// No upstream counterpart.
import * as fs from 'fs';
import * as vscode from 'vscode';
import { defaultKubeconfigPath } from '../../probe/default-kubeconfig';
import { kubeconfigContexts, loadClusterTarget } from '../../probe/kubeconfig-target';
import { ProbeError } from '../../probe/probe-error';
import { describeProbe, runProbe, type ProbeOptions } from '../../probe/probe-run';
import { parseProbeUrl } from '../../probe/probe-url';
import { loadRun } from '../../run/load-run';
import { withCancellableProgress } from '../shared/cancellable-progress';
import type { RunCommandDeps } from '../runs/run-commands';
import type { StoredRun } from '../runs/run-store';
import type { describeRun } from '../runs/workspace-runs';
import type { CommandHandlers } from '../lazy-feature';
import { probeClusterCommandId, scrapeClusterMetricsCommandId } from '../ids';

/**
 * What the probe needs: the run faces' shared pieces, and the runs feature's describeRun (passed
 * in, so that this chunk does not carry the scenario runner too).
 */
export type ProbeDeps = Omit<RunCommandDeps, 'runs'> & { describeRun: typeof describeRun };

/** The action of the confirmation modal. */
export const sendAction = 'Send';

/** The URL the input box offers first. */
const exampleUrl = '/api/v1/pods?limit=500';

/** Seconds the watch lasts when picked (the command's argument may say otherwise). */
const pickedWatchSeconds = 10;

function text(arg: unknown): string | undefined {
  return typeof arg === 'string' && arg !== '' ? arg : undefined;
}

async function pickKubeconfig(): Promise<string | undefined> {
  const fallback = defaultKubeconfigPath();
  const browse = 'Browse…';
  const items: vscode.QuickPickItem[] = [
    ...(fs.existsSync(fallback)
      ? [{ label: fallback, description: process.env.KUBECONFIG ? '$KUBECONFIG' : 'default' }]
      : []),
    { label: browse, description: 'pick a kubeconfig file' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: 'List/Watch: the kubeconfig whose cluster to probe',
    placeHolder: 'A kubeconfig (its credentials are used as kubectl would)',
  });
  if (!picked) return undefined;
  if (picked.label !== browse) return picked.label;
  const files = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Use this kubeconfig',
    title: 'List/Watch: a kubeconfig',
  });
  return files?.[0]?.fsPath;
}

async function pickContext(kubeconfig: string): Promise<string | undefined> {
  const { contexts, current } = await kubeconfigContexts(kubeconfig);
  if (contexts.length === 0) throw new ProbeError(`kubeconfig ${kubeconfig} has no contexts`);
  if (contexts.length === 1) return contexts[0];
  const ordered = [current, ...contexts.filter((c) => c !== current)].filter((c) =>
    contexts.includes(c),
  );
  const picked = await vscode.window.showQuickPick(
    ordered.map((c) => ({ label: c, description: c === current ? 'current-context' : '' })),
    { title: `List/Watch: a context of ${kubeconfig}` },
  );
  return picked?.label;
}

async function enterUrl(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'List/Watch: the LIST to probe (a path and query; the server is the kubeconfig’s)',
    value: exampleUrl,
    prompt: 'e.g. /api/v1/namespaces/default/pods?limit=2&labelSelector=app%3Dweb',
    validateInput: (value) => {
      try {
        parseProbeUrl(value);
        return undefined;
      } catch (e) {
        return (e as Error).message;
      }
    },
  });
}

async function pickWatch(): Promise<
  Pick<ProbeOptions, 'watchSeconds' | 'sendInitialEvents'> | undefined
> {
  const choices = [
    { label: 'LIST only', o: {} },
    {
      label: `LIST, then watch for ${pickedWatchSeconds} s`,
      description: "allowWatchBookmarks=true from the LIST's resourceVersion",
      o: { watchSeconds: pickedWatchSeconds },
    },
    {
      label: `LIST, then a watch-list for ${pickedWatchSeconds} s`,
      description: 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
      o: { watchSeconds: pickedWatchSeconds, sendInitialEvents: true },
    },
  ];
  const picked = await vscode.window.showQuickPick(choices, { title: 'List/Watch: and a watch?' });
  return picked?.o;
}

/** A ProbeError (a bad kubeconfig, URL or answer) is logged and shown; anything else is a bug: thrown. */
function showProbeError(deps: ProbeDeps, e: unknown): undefined {
  if (!(e instanceof ProbeError)) throw e;
  deps.log.error(`probe failed: ${e.message}`);
  void vscode.window.showErrorMessage(`List/Watch: ${e.message}`);
  return undefined;
}

/**
 * Asks (modal) with the plan, runs the probe behind a cancellable progress, stores the run and
 * opens it. Undefined when declined, cancelled or failed (the failure is shown).
 */
async function probeAndOpen(
  deps: ProbeDeps,
  kubeconfig: string,
  context: string | undefined,
  o: ProbeOptions,
): Promise<StoredRun | undefined> {
  const what = o.url ? 'Probe' : 'Scrape the metrics of';
  const target = await loadClusterTarget(kubeconfig, context);
  const plan = describeProbe(target, o);
  const ok = await deps.confirmations.confirm(
    `${what} cluster "${target.cluster}" (context "${target.context}")?${target.credential.exec ? ' This runs its exec plugin.' : ''}`,
    plan.join('\n'),
    sendAction,
  );
  if (!ok) {
    deps.log.info(`probe declined: ${target.server}`);
    return undefined;
  }
  deps.log.info(`probe of ${target.server} (context ${target.context}):\n${plan.join('\n')}`);
  const steps = (o.url ? 1 : 0) + (o.watchSeconds ? 1 : 0) + (o.metrics ? 1 : 0);
  let done = 0;
  const result = await withCancellableProgress(
    `List/Watch: ${o.url ? 'probing' : 'scraping'} ${target.server}`,
    (signal, report) =>
      runProbe(
        target,
        o,
        (line) => {
          if (/^(page \d+: .*last page|GET \/metrics)/.test(line)) done++;
          deps.log.info(`probe: ${line}`);
          report(Math.min(0.95, done / Math.max(1, steps)), line);
        },
        signal,
      ),
  );
  if (!result) {
    void vscode.window.showInformationMessage('List/Watch: the probe was cancelled.');
    return undefined;
  }
  const { id, traceFile } = await deps.store.allocate();
  await fs.promises.writeFile(traceFile, result.traceLines.join('\n') + '\n');
  const { model } = await loadRun(result.traceLines);
  const title = o.url
    ? `Probe ${target.context}: ${o.url.path}`
    : `Metrics of ${target.context} at ${result.report.metrics?.scrapedAt ?? ''}`;
  const run = deps.describeRun(
    {
      id,
      title,
      label: title,
      source: 'trace',
      createdAt: new Date().toISOString(),
      traceFile,
      ownsTrace: true,
    },
    model,
  );
  await deps.store.add(run, model);
  deps.current.set({ run, model });
  deps.inspector.show(true);
  return run;
}

/**
 * Probe Cluster…(kubeconfig?, context?, url?, options?): what is not given is asked for. `options`
 * may set watchSeconds and sendInitialEvents (then no watch is asked for).
 */
export async function probeClusterCommand(
  deps: ProbeDeps,
  kubeconfigArg?: unknown,
  contextArg?: unknown,
  urlArg?: unknown,
  optionsArg?: unknown,
): Promise<StoredRun | undefined> {
  const kubeconfig = text(kubeconfigArg) ?? (await pickKubeconfig());
  if (!kubeconfig) return undefined;
  try {
    const context = text(contextArg) ?? (await pickContext(kubeconfig));
    if (!context) return undefined;
    const urlText = text(urlArg) ?? (await enterUrl());
    if (!urlText) return undefined;
    const url = parseProbeUrl(urlText);
    const given = optionsArg as
      Pick<ProbeOptions, 'watchSeconds' | 'sendInitialEvents'> | undefined;
    const watch = given && typeof given === 'object' ? given : await pickWatch();
    if (!watch) return undefined;
    return await probeAndOpen(deps, kubeconfig, context, {
      url,
      watchSeconds: typeof watch.watchSeconds === 'number' ? watch.watchSeconds : undefined,
      sendInitialEvents: watch.sendInitialEvents === true,
    });
  } catch (e) {
    return showProbeError(deps, e);
  }
}

/** Scrape Cluster Metrics…(kubeconfig?, context?). */
export async function scrapeClusterMetricsCommand(
  deps: ProbeDeps,
  kubeconfigArg?: unknown,
  contextArg?: unknown,
): Promise<StoredRun | undefined> {
  const kubeconfig = text(kubeconfigArg) ?? (await pickKubeconfig());
  if (!kubeconfig) return undefined;
  try {
    const context = text(contextArg) ?? (await pickContext(kubeconfig));
    if (!context) return undefined;
    return await probeAndOpen(deps, kubeconfig, context, { metrics: true });
  } catch (e) {
    return showProbeError(deps, e);
  }
}

/** The two commands' handlers (the entry registers the ids, every call logged). */
export function probeCommands(deps: ProbeDeps): CommandHandlers {
  return {
    [probeClusterCommandId]: (k?: unknown, c?: unknown, u?: unknown, o?: unknown) =>
      probeClusterCommand(deps, k, c, u, o),
    [scrapeClusterMetricsCommandId]: (k?: unknown, c?: unknown) =>
      scrapeClusterMetricsCommand(deps, k, c),
  };
}
