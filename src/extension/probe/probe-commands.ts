// "List/Watch: Probe Cluster…" and "List/Watch: Scrape Cluster Metrics…": a real paged LIST (and a
// watch) or a /metrics scrape against a kubeconfig's cluster (src/probe), read-only. The user picks
// the cluster (the running local server's kubeconfig, a context of $KUBECONFIG or ~/.kube/config,
// or a file; the last one used first) and enters the URL (checked as typed); a modal says exactly what
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
import { probeClusterCommandId, probeTargetStateKey, scrapeClusterMetricsCommandId } from '../ids';
import type { ServerPrompts } from '../server/server-prompts';

/**
 * What the probe needs: the run faces' shared pieces, and the runs feature's describeRun (passed
 * in, so that this chunk does not carry the scenario runner too).
 */
export type ProbeDeps = Omit<RunCommandDeps, 'runs'> & {
  describeRun: typeof describeRun;
  /** The quick picks and the open dialog (the server commands' injectable prompts). */
  prompts: ServerPrompts;
  /** The workspace state: the last target used. */
  memory: vscode.Memento;
  /** The running local API server's kubeconfig, if one runs in this window. */
  localServerKubeconfig: () => string | undefined;
};

/** The action of the confirmation modal. */
export const sendAction = 'Send';

/** The URL the input box offers first. */
const exampleUrl = '/api/v1/pods?limit=500';

/** Seconds the watch lasts when picked (the command's argument may say otherwise). */
const pickedWatchSeconds = 10;

function text(arg: unknown): string | undefined {
  return typeof arg === 'string' && arg !== '' ? arg : undefined;
}

/** What Probe and Scrape remember as the last target (the workspace state). */
type RememberedTarget = { kind: 'local' } | { kind: 'file'; kubeconfig: string; context: string };

/** A row of the target pick: a kubeconfig, and its context when the row names one. */
interface TargetItem extends vscode.QuickPickItem {
  target?: { remembered: RememberedTarget; kubeconfig: string; context?: string };
}

const sameTarget = (a: RememberedTarget, b: RememberedTarget | undefined): boolean =>
  a.kind === b?.kind &&
  (a.kind === 'local' ||
    (b.kind === 'file' && a.kubeconfig === b.kubeconfig && a.context === b.context));

/**
 * The kubeconfig and context to probe: the running local server's, each context of the default
 * kubeconfig ($KUBECONFIG, else ~/.kube/config; its current-context first), or a file to browse
 * for; the last one used comes first. Undefined when dismissed.
 */
export async function pickTarget(
  deps: ProbeDeps,
  title: string,
): Promise<{ kubeconfig: string; context?: string } | undefined> {
  const last = deps.memory.get<RememberedTarget>(probeTargetStateKey);
  const items: TargetItem[] = [];
  const local = deps.localServerKubeconfig();
  if (local)
    items.push({
      label: 'Local API server',
      description: 'running in this window',
      detail: local,
      target: { remembered: { kind: 'local' }, kubeconfig: local },
    });
  const fallback = defaultKubeconfigPath();
  if (fs.existsSync(fallback)) {
    const where = process.env.KUBECONFIG ? '$KUBECONFIG' : 'default kubeconfig';
    try {
      const { contexts, current } = await kubeconfigContexts(fallback);
      const ordered = [current, ...contexts.filter((c) => c !== current)].filter((c) =>
        contexts.includes(c),
      );
      for (const context of ordered)
        items.push({
          label: context,
          description: context === current ? `current-context of ${where}` : `context of ${where}`,
          detail: fallback,
          target: {
            remembered: { kind: 'file', kubeconfig: fallback, context },
            kubeconfig: fallback,
          },
        });
    } catch (e) {
      // Offered still: choosing it says what is wrong with it.
      items.push({
        label: fallback,
        description: `${where}: ${(e as Error).message}`,
        target: {
          remembered: { kind: 'file', kubeconfig: fallback, context: '' },
          kubeconfig: fallback,
        },
      });
    }
  }
  if (last?.kind === 'file' && last.kubeconfig !== fallback && fs.existsSync(last.kubeconfig))
    items.push({
      label: last.context,
      description: 'context',
      detail: last.kubeconfig,
      target: { remembered: last, kubeconfig: last.kubeconfig },
    });
  // The last one used first, saying so.
  const at = items.findIndex((i) => i.target && sameTarget(i.target.remembered, last));
  if (at > 0) items.unshift(...items.splice(at, 1));
  if (at >= 0) items[0] = { ...items[0], description: `${items[0].description} · last used` };
  const browse: TargetItem = { label: 'Browse…', description: 'pick a kubeconfig file' };
  items.push(browse);
  for (const item of items)
    if (item.target?.remembered.kind === 'file' && item.target.remembered.context)
      item.target.context = item.target.remembered.context;
  const picked = await deps.prompts.pick(items, {
    title,
    placeHolder:
      'A cluster: its kubeconfig and context (the credentials are used as kubectl would)',
  });
  if (!picked) return undefined;
  if (picked.target)
    return { kubeconfig: picked.target.kubeconfig, context: picked.target.context };
  const files = await deps.prompts.openFiles({
    canSelectMany: false,
    openLabel: 'Use this kubeconfig',
    title: 'List/Watch: a kubeconfig',
  });
  const file = files?.[0]?.fsPath;
  return file ? { kubeconfig: file } : undefined;
}

/** Remembers the target used, to offer it first next time (a file's kubeconfig and context). */
async function rememberTarget(deps: ProbeDeps, kubeconfig: string, context: string): Promise<void> {
  const remembered: RememberedTarget =
    kubeconfig === deps.localServerKubeconfig()
      ? { kind: 'local' }
      : { kind: 'file', kubeconfig, context };
  await deps.memory.update(probeTargetStateKey, remembered);
}

async function pickContext(deps: ProbeDeps, kubeconfig: string): Promise<string | undefined> {
  const { contexts, current } = await kubeconfigContexts(kubeconfig);
  if (contexts.length === 0) throw new ProbeError(`kubeconfig ${kubeconfig} has no contexts`);
  if (contexts.length === 1) return contexts[0];
  const ordered = [current, ...contexts.filter((c) => c !== current)].filter((c) =>
    contexts.includes(c),
  );
  const picked = await deps.prompts.pick(
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
  // The choice is remembered once it proved a target, whether or not it is sent.
  await rememberTarget(deps, kubeconfig, target.context);

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

/** The kubeconfig (and context) the arguments name, else the one picked. */
async function targetOf(
  deps: ProbeDeps,
  kubeconfigArg: unknown,
  contextArg: unknown,
  what: string,
): Promise<{ kubeconfig: string; context?: string } | undefined> {
  const kubeconfig = text(kubeconfigArg);
  if (kubeconfig) return { kubeconfig, context: text(contextArg) };
  const picked = await pickTarget(deps, `List/Watch: ${what}`);
  return picked && { ...picked, context: text(contextArg) ?? picked.context };
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
  const target = await targetOf(deps, kubeconfigArg, contextArg, 'the cluster to probe');
  if (!target) return undefined;
  const { kubeconfig } = target;
  try {
    const context = target.context ?? (await pickContext(deps, kubeconfig));
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
  const target = await targetOf(deps, kubeconfigArg, contextArg, 'the cluster to scrape');
  if (!target) return undefined;
  const { kubeconfig } = target;
  try {
    const context = target.context ?? (await pickContext(deps, kubeconfig));
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
