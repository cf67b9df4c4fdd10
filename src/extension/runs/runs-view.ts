// The "Runs" view in the List/Watch side bar: the live run of the local API server (marked live,
// with its uptime) above this workspace's past runs, newest first; open one in the inspector,
// export its trace, delete it. The open run is marked. While the view is visible, a once-a-second
// tick redraws each row whose text changed (the uptime, a live run's counts, "2 min ago"), that row
// alone: a whole-tree redraw would close a hover. No upstream counterpart.
import * as vscode from 'vscode';
import { formatVirtualTime } from '../../run/views/watcher-states';
import { isRealTimeRun, showsSeed } from '../../run/views/run-clock';
import { humanDuration } from '../../server/duration';
import type { CurrentRun } from './current-run';
import { type LiveRuns } from '../server/live-runs';
import type { RunStore, StoredRun } from './run-store';
import { treeRows, type ViewRow } from '../shared/view-rows';
import { openLiveRunCommandId, openRunCommandId } from '../ids';
import { plural } from '../../format/count-text';

export interface RunsViewNode {
  /** 'live': the local API server's run (LiveRuns), not in the store. */
  kind: 'run' | 'live';
  run: StoredRun;
}

function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(s)) return '';
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

const tickMs = 1000;

export class RunsViewProvider implements vscode.TreeDataProvider<RunsViewNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunsViewNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly store: RunStore;
  private readonly current: CurrentRun;
  private readonly subscriptions: vscode.Disposable[];
  /** The rows as last returned (VS Code redraws one when given the element it holds) … */
  private shownRows: RunsViewNode[] = [];
  /** … and the text each was last drawn with. */
  private readonly drawn = new WeakMap<RunsViewNode, string>();
  private ticker: ReturnType<typeof setInterval> | undefined;
  private treeView: vscode.TreeView<RunsViewNode> | undefined;

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

  /** The tree view showing this provider: the rows tick only while it is visible. */
  attach(treeView: vscode.TreeView<RunsViewNode>): void {
    this.treeView = treeView;
    this.subscriptions.push(
      treeView.onDidChangeVisibility(() => {
        this.updateTicker();
        // What changed while it was hidden.
        if (treeView.visible) this.changed.fire(undefined);
      }),
    );
    this.updateTicker();
  }

  private updateTicker(): void {
    const tick = !!this.treeView?.visible;
    if (tick && !this.ticker) this.ticker = setInterval(() => this.tick(), tickMs);
    else if (!tick && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** Redraws the rows whose text is not what they show. */
  private tick(): void {
    const stale = this.shownRows.filter(
      (node) => this.drawn.get(node) !== drawnText(this.itemOf(node)),
    );
    if (stale.length) this.changed.fire(stale);
  }

  getChildren(node?: RunsViewNode): RunsViewNode[] {
    if (node) return [];
    this.shownRows = [
      ...(this.live?.list() ?? []).map((run): RunsViewNode => ({ kind: 'live', run })),
      ...this.store.list().map((run): RunsViewNode => ({ kind: 'run', run })),
    ];
    return this.shownRows;
  }

  getTreeItem(node: RunsViewNode): vscode.TreeItem {
    const item = this.itemOf(node);
    this.drawn.set(node, drawnText(item));
    return item;
  }

  private itemOf(node: RunsViewNode): vscode.TreeItem {
    if (node.kind === 'live') return this.liveItem(node);
    const run = node.run;
    const open = this.current.get()?.run.id === run.id;
    const label = run.label ?? run.title;
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `run:${run.id}`;
    const facts = [
      `${formatVirtualTime(run.durationMs)}`,
      plural(run.watchers, 'watcher'),
      plural(run.lists, 'list'),
    ];
    if (run.rejected) facts.push(`${run.rejected} lines rejected`);
    if (run.truncated) facts.push('truncated');
    item.description = `${open ? 'open · ' : ''}${facts.join(' · ')} · ${age(run.createdAt)}`;
    item.accessibilityInformation = {
      label: `${run.source === 'scenario' ? 'Scenario run' : run.source === 'import' ? 'Imported logs' : 'Trace'} ${label}${open ? ', open in the inspector' : ''}: ${facts.join(', ')}, ${age(run.createdAt)}`,
    };
    item.tooltip = [
      run.title,
      `${run.source === 'scenario' ? 'scenario run' : run.source === 'import' ? 'imported logs replayed' : 'trace'} ${run.scenario}, profile ${run.profile}${isRealTimeRun(run.scenario) ? ', real time' : showsSeed(run.scenario) ? `, seed ${run.seed}` : ''}`,
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
    // The live run's counts move on: read them now, not from the row's element.
    const run = this.live?.list().find((r) => r.id === node.run.id) ?? node.run;
    const open = this.current.get()?.run.id === run.id;
    const running = this.live?.isRunning(run.id) ?? false;
    const item = new vscode.TreeItem(run.label ?? run.title, vscode.TreeItemCollapsibleState.None);
    item.id = `live:${run.id}`;
    // kubectl's AGE text, as the Server view's Uptime row.
    const uptime = humanDuration(this.live?.uptimeMs(run.id) ?? 0);
    const facts = [
      running ? `live, up ${uptime}` : `stopped after ${uptime}`,
      plural(run.watchers, 'watcher'),
      plural(run.lists, 'list'),
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
    if (this.ticker) clearInterval(this.ticker);
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

/** What a row shows and says, to tell whether it needs redrawing. */
function drawnText(item: vscode.TreeItem): string {
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  const tooltip = typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '');
  const icon =
    item.iconPath instanceof vscode.ThemeIcon
      ? `${item.iconPath.id} ${item.iconPath.color?.id ?? ''}`
      : '';
  return [label, item.description ?? '', tooltip, icon].join('\n');
}
