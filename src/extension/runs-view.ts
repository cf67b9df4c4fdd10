// The "Runs" view in the List/Watch side bar: the live run of the local API server (marked live,
// with its uptime) above this workspace's past runs, newest first; open one in the inspector,
// export its trace, delete it. The open run is marked. No upstream counterpart.
import * as vscode from 'vscode';
import { formatVirtualTime } from '../inspector/watcher-states';
import type { CurrentRun } from './current-run';
import { openLiveRunCommandId, type LiveRuns } from './live-runs';
import type { RunStore, StoredRun } from './run-store';
import { treeRows, type ViewRow } from './view-rows';

export const runsViewId = 'listwatch.runs';
export const openRunCommandId = 'listwatch.openRun';

export interface RunsViewNode {
  /** 'live': the local API server's run (LiveRuns), not in the store. */
  kind: 'run' | 'live';
  run: StoredRun;
}

/** `12 s`, `4 min`, `2 h 5 min`: how long a live run has been up. */
export function uptimeText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${min % 60} min`;
}

function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return '';
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export class RunsViewProvider implements vscode.TreeDataProvider<RunsViewNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunsViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly store: RunStore;
  private readonly current: CurrentRun;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    store: RunStore,
    current: CurrentRun,
    private readonly live?: LiveRuns,
  ) {
    this.store = store;
    this.current = current;
    this.subscriptions = [
      store.onDidChange(() => this.changed.fire(undefined)),
      current.onDidChange(() => this.changed.fire(undefined)),
    ];
    if (live) this.subscriptions.push(live.onDidChange(() => this.changed.fire(undefined)));
  }

  getChildren(node?: RunsViewNode): RunsViewNode[] {
    if (node) return [];
    return [
      ...(this.live?.list() ?? []).map((run): RunsViewNode => ({ kind: 'live', run })),
      ...this.store.list().map((run): RunsViewNode => ({ kind: 'run', run })),
    ];
  }

  getTreeItem(node: RunsViewNode): vscode.TreeItem {
    if (node.kind === 'live') return this.liveItem(node);
    const run = node.run;
    const open = this.current.get()?.run.id === run.id;
    const label = run.label ?? run.title;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `run:${run.id}`;
    const facts = [
      `${formatVirtualTime(run.durationMs)}`,
      `${run.watchers.toLocaleString('en-US')} watchers`,
      `${run.lists.toLocaleString('en-US')} lists`,
    ];
    if (run.rejected) facts.push(`${run.rejected} lines rejected`);
    if (run.truncated) facts.push('truncated');
    item.description = `${open ? 'open · ' : ''}${facts.join(' · ')} · ${age(run.createdAt)}`;
    item.accessibilityInformation = {
      label: `${run.source === 'scenario' ? 'Scenario run' : run.source === 'import' ? 'Imported logs' : 'Trace'} ${label}${open ? ', open in the inspector' : ''}: ${facts.join(', ')}, ${age(run.createdAt)}`,
    };
    item.tooltip = [
      run.title,
      `${run.source === 'scenario' ? 'scenario run' : run.source === 'import' ? 'imported logs replayed' : 'trace'} ${run.scenario}, profile ${run.profile}, seed ${run.seed}`,
      Object.entries(run.params)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(' '),
      run.truncated ? `truncated: ${run.truncated}` : '',
      `trace: ${run.traceFile}`,
      `made ${new Date(run.createdAt).toLocaleString()}`,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = open
      ? new vscode.ThemeIcon('eye', new vscode.ThemeColor('charts.blue'))
      : new vscode.ThemeIcon(
          run.source === 'scenario' ? 'beaker' : run.source === 'import' ? 'history' : 'file',
          run.rejected || run.truncated
            ? new vscode.ThemeColor('problemsWarningIcon.foreground')
            : undefined,
        );
    item.contextValue =
      run.source === 'scenario'
        ? 'run.scenario'
        : run.source === 'import'
          ? 'run.import'
          : 'run.trace';
    item.command = { command: openRunCommandId, title: 'Open in Inspector', arguments: [node] };
    return item;
  }

  private liveItem(node: RunsViewNode): vscode.TreeItem {
    const run = node.run;
    const open = this.current.get()?.run.id === run.id;
    const running = this.live?.isRunning(run.id) ?? false;
    const item = new vscode.TreeItem(run.label ?? run.title, vscode.TreeItemCollapsibleState.None);
    item.id = `live:${run.id}`;
    const uptime = uptimeText(this.live?.uptimeMs(run.id) ?? 0);
    const facts = [
      running ? `live, up ${uptime}` : `stopped after ${uptime}`,
      `${run.watchers.toLocaleString('en-US')} watchers`,
      `${run.lists.toLocaleString('en-US')} lists`,
    ];
    item.description = `${open ? 'open · ' : ''}${facts.join(' · ')}`;
    item.accessibilityInformation = {
      label: `Live run ${item.label as string}${open ? ', open in the inspector' : ''}: ${facts.join(', ')}`,
    };
    item.tooltip = [
      run.title,
      `live run, profile ${run.profile}, started ${new Date(run.createdAt).toLocaleString()}`,
      running
        ? 'recording: the inspector follows it as it runs'
        : 'the server stopped: save it as a trace to keep it',
    ].join('\n');
    item.iconPath = new vscode.ThemeIcon(
      open ? 'eye' : 'broadcast',
      running ? new vscode.ThemeColor('charts.green') : undefined,
    );
    item.contextValue = 'run.live';
    item.command = { command: openLiveRunCommandId, title: 'Open Live Run', arguments: [node] };
    return item;
  }

  rows(): ViewRow[] {
    return treeRows(this, false);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
