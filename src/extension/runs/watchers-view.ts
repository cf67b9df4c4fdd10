// The "Watchers" view in the List/Watch side bar: the open run's cache watchers with their state
// (cache_watcher.go's three states, or not opened / closed) at the inspector's scrubber time, as
// an icon and a description, the most interesting first (ended with an error, then most events;
// the view's description says so). Clicking one selects it in the inspector. No upstream
// counterpart.
import * as vscode from 'vscode';
import {
  formatVirtualTime,
  watcherPhaseAt,
  watcherPhaseText,
  type WatcherPhase,
} from '../../run/views/watcher-states';
import { shortClientName } from '../../run/views/client-name';
import { byInterest, watcherInterestOrder } from '../../run/views/watcher-interest';
import type { WatcherTrack } from '../../run/run-model';
import type { CurrentRun } from './current-run';
import { treeRows, type ViewRow } from '../shared/view-rows';
import { selectWatcherCommandId, runCommandIds } from '../ids';
import { formatCount } from '../../format/count-text';

// A tree of 100,000 items helps nobody: the first ones are listed, the inspector's table has all.
export const watchersViewLimit = 1000;
// The scrubber moves many times a second while playing; the view follows at this pace.
const refreshDelayMs = 300;

export type WatchersViewNode =
  { kind: 'watcher'; watcher: WatcherTrack } | { kind: 'more'; hidden: number } | { kind: 'none' };

const phaseIcons: Record<WatcherPhase, [string, string | undefined]> = {
  notStarted: ['circle-large-outline', 'disabledForeground'],
  WaitingForBookmark: ['watch', 'charts.yellow'],
  BookmarkReceived: ['bookmark', 'charts.blue'],
  BookmarkSent: ['pass', 'charts.green'],
  closed: ['circle-slash', 'charts.red'],
};

export class WatchersViewProvider
  implements vscode.TreeDataProvider<WatchersViewNode>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<WatchersViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly current: CurrentRun;
  private readonly subscriptions: vscode.Disposable[];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shownAt = -1;
  private treeView: vscode.TreeView<WatchersViewNode> | undefined;
  // Sorted once per run: the scrubber refreshes the view often, the order does not change.
  private sorted: { of: readonly WatcherTrack[]; watchers: WatcherTrack[] } | undefined;

  constructor(current: CurrentRun) {
    this.current = current;
    this.subscriptions = [
      current.onDidChange(() => {
        this.shownAt = -1;
        this.refresh();
      }),
      current.onDidChangeViewState((state) => {
        if (state.at !== this.shownAt) this.refreshSoon();
      }),
      // A live run grew: new watchers and states, at most one refresh per refreshDelayMs.
      current.onDidUpdate(() => this.refreshSoon()),
    ];
  }

  /** The tree view showing this provider (its description names the time). */
  attach(treeView: vscode.TreeView<WatchersViewNode>): void {
    this.treeView = treeView;
    this.updateDescription();
  }

  /** The scrubber's time (the end of the run when the inspector has not said). */
  at(): number {
    const open = this.current.get();
    if (!open) return 0;
    const state = this.current.viewState();
    return state.runId === open.run.id
      ? Math.min(state.at, open.model.durationMs)
      : open.model.durationMs;
  }

  private refreshSoon(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, refreshDelayMs);
  }

  private refresh(): void {
    this.shownAt = this.at();
    this.updateDescription();
    this.changed.fire(undefined);
  }

  private updateDescription(): void {
    if (!this.treeView) return;
    const open = this.current.get();
    // The Runs view marks which run is open; the side bar is narrow, so the order comes first.
    this.treeView.description = open
      ? `${watcherInterestOrder} · at ${formatVirtualTime(this.at())}`
      : '';
  }

  getChildren(node?: WatchersViewNode): WatchersViewNode[] {
    const open = this.current.get();
    if (node || !open) return [];
    // An open run without watchers says so (an empty tree would show the "no run is open" welcome).
    if (open.model.watchers.length === 0) return [{ kind: 'none' }];
    if (this.sorted?.of !== open.model.watchers)
      this.sorted = { of: open.model.watchers, watchers: byInterest(open.model.watchers) };
    const watchers = this.sorted.watchers;
    const nodes: WatchersViewNode[] = watchers
      .slice(0, watchersViewLimit)
      .map((watcher) => ({ kind: 'watcher', watcher }));
    if (watchers.length > watchersViewLimit)
      nodes.push({ kind: 'more', hidden: watchers.length - watchersViewLimit });
    return nodes;
  }

  getTreeItem(node: WatchersViewNode): vscode.TreeItem {
    if (node.kind === 'none') {
      const item = new vscode.TreeItem(
        'This run has no watchers',
        vscode.TreeItemCollapsibleState.None,
      );
      item.description = 'its LISTs are in the inspector';
      item.accessibilityInformation = {
        label: 'This run has no watchers; its LISTs are in the inspector',
      };
      item.iconPath = new vscode.ThemeIcon('info');
      return item;
    }
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(
        `… ${formatCount(node.hidden)} more`,
        vscode.TreeItemCollapsibleState.None,
      );
      item.description = 'search them in the inspector';
      item.accessibilityInformation = {
        label: `${formatCount(node.hidden)} more watchers: open the inspector to search them`,
      };
      item.command = { command: runCommandIds.openInspector, title: 'Open Inspector' };
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      return item;
    }
    const open = this.current.get();
    const w = node.watcher;
    const phase = watcherPhaseAt(w, this.at(), open?.model.durationMs ?? 0);
    const item = new vscode.TreeItem(`watcher ${w.id}`, vscode.TreeItemCollapsibleState.None);
    item.id = `watcher:${open?.run.id}:${w.id}`;
    const ended = phase === 'closed' && w.closeReason ? `: ${w.closeReason}` : '';
    // The client's product/version: the whole User-Agent is in the tooltip.
    const client = w.client ? ` · ${shortClientName(w.client)}` : '';
    item.description = `${watcherPhaseText(phase, w)}${ended} · ${w.selector || '(everything)'}${client}`;
    item.tooltip = [
      `watcher ${w.id}: ${watcherPhaseText(phase, w)} at ${formatVirtualTime(this.at())}`,
      ...(w.client ? [`client: ${w.client}`] : []),
      `selector: ${w.selector || '(everything)'}`,
      `content type: ${w.contentType}`,
      `at the end of the run: ${formatCount(w.eventsReceived)} events received, bookmark floor RV ${w.bookmarkFloorRv || '—'}, last RV sent ${w.lastRvSent || '—'}, buffer ${w.bufferFill} of ${w.bufferCapacity}`,
      w.closeReason ? `ended: ${w.closeReason}` : 'open at the end of the run',
    ].join('\n');
    item.accessibilityInformation = {
      label: `Watcher ${w.id}${w.client ? ` of ${shortClientName(w.client)}` : ''}, ${watcherPhaseText(phase, w)}${ended} at ${formatVirtualTime(this.at())}, selector ${w.selector || 'everything'}, ${w.eventsReceived} events received by the end of the run`,
    };
    const [icon, color] = phaseIcons[phase];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = `watcher.${phase}`;
    item.command = {
      command: selectWatcherCommandId,
      title: 'Show in Inspector',
      arguments: [w.id],
    };
    return item;
  }

  rows(): ViewRow[] {
    return treeRows(this, false);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
