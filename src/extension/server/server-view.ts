// No upstream counterpart: the "Server" view in the List/Watch side bar: the local API server's
// state (URL, profile, uptime), its resources with their object counts, its user agents (named so:
// the inspector's Clients tab counts clients per connection, the status bar connections) and its
// watchers (id, client, cache_watcher.go state), refreshed when LocalApiServer reports a
// change; the uptime row ticks once a second while the view is visible, alone (a redraw of its
// section would close a hover on the rows beside it). Empty (the welcome view
// with its Start button) while no server runs. Context actions: Terminate on a watcher or a client
// (all its watchers), Expire history on a resource. A Faults section lists the faults in force
// while there are any (id, parameters, matchers, trigger, hits), each with Clear.
import * as vscode from 'vscode';
import { otherClients, type RequestCounts } from '../../server/debug-state';
import { humanDuration } from '../../server/duration';
import {
  etcdDescription,
  type LiveServerReader,
  type LiveServerState,
  type ResourceSummary,
  type WatcherSummary,
} from './live-server-state';
import { treeRows, type ViewRow } from '../shared/view-rows';
import { plural } from '../../format/count-text';
import type { ActiveFaultJSON } from '../../server/active-faults';

export type ServerViewNode =
  | { kind: 'section'; section: 'server' | 'resources' | 'clients' | 'watchers' | 'faults' }
  | { kind: 'detail'; id: string; label: string; description: string; tooltip?: string }
  | { kind: 'resource'; resource: ResourceSummary }
  | { kind: 'client'; client: LiveServerState['clients'][number] }
  | { kind: 'clientResource'; userAgent: string; resource: string; counts: RequestCounts }
  | { kind: 'watcher'; watcher: WatcherSummary }
  | { kind: 'fault'; fault: ActiveFaultJSON }
  | { kind: 'none'; id: string; label: string };

/** The context values the view's menus match. */
export const serverResourceContext = 'serverResource';
export const serverWatcherContext = 'serverWatcher';
export const serverClientContext = 'serverClient';
export const serverFaultContext = 'serverFault';

const uptimeTickMs = 1000;

/** A fault row's description: its phase, hits, parameters, matchers and trigger, briefly. */
export function faultRowText(f: ActiveFaultJSON): string {
  const parts = [f.phase, plural(f.hits, 'hit', { plain: true })];
  if (f.held !== undefined) parts.push(`${f.held} held`);
  if (f.refused !== undefined) parts.push(`${f.refused} refused`);
  for (const [k, v] of Object.entries(f.parameters)) parts.push(`${k}=${String(v)}`);
  for (const [k, v] of Object.entries(f.match)) parts.push(`${k}=${String(v)}`);
  for (const [k, v] of Object.entries(f.trigger)) parts.push(`${k}=${String(v)}`);
  return parts.join(' · ');
}

/** A User-Agent's first product (`kubectl/v1.33.1` of `kubectl/v1.33.1 (linux/amd64) …`): the
 * side bar is narrow, the rest is in the tooltip. */
export function clientName(userAgent: string | undefined): string {
  if (!userAgent) return '(no User-Agent)';
  return userAgent.split(' ')[0];
}

export class ServerViewProvider
  implements vscode.TreeDataProvider<ServerViewNode>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<ServerViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private state: LiveServerState | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private treeView: vscode.TreeView<ServerViewNode> | undefined;
  private readonly serverSection: ServerViewNode = { kind: 'section', section: 'server' };
  /** The Uptime row as last returned: VS Code redraws one row when given the element it holds. */
  private uptimeRow: ServerViewNode | undefined;
  private readonly faultsSection: ServerViewNode = { kind: 'section', section: 'faults' };
  private readonly sections: ServerViewNode[] = [
    this.serverSection,
    { kind: 'section', section: 'resources' },
    { kind: 'section', section: 'clients' },
    { kind: 'section', section: 'watchers' },
  ];

  constructor(server: LiveServerReader) {
    this.state = server.state();
    this.subscriptions.push(
      server.onDidChange((state) => {
        this.state = state;
        this.changed.fire(undefined);
        this.updateTicker();
      }),
    );
  }

  /** The tree view showing this provider: the uptime ticks only while it is visible. */
  attach(treeView: vscode.TreeView<ServerViewNode>): void {
    this.treeView = treeView;
    this.subscriptions.push(treeView.onDidChangeVisibility(() => this.updateTicker()));
    this.updateTicker();
  }

  private updateTicker(): void {
    const tick = !!this.state && !!this.treeView?.visible;
    if (tick && !this.ticker)
      this.ticker = setInterval(() => {
        if (this.uptimeRow) this.changed.fire(this.uptimeRow);
      }, uptimeTickMs);
    else if (!tick && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  getChildren(node?: ServerViewNode): ServerViewNode[] {
    const s = this.state;
    if (!s) return [];
    // The Faults section only while a fault is in force: most runs never inject one.
    if (!node) return s.faults.length ? [...this.sections, this.faultsSection] : this.sections;
    if (node.kind === 'client')
      return Object.entries(node.client.resources)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([resource, counts]) => ({
          kind: 'clientResource',
          userAgent: node.client.userAgent,
          resource,
          counts,
        }));
    if (node.kind !== 'section') return [];
    switch (node.section) {
      case 'server': {
        // Its description is read in getTreeItem, at the tick's time.
        this.uptimeRow = {
          kind: 'detail',
          id: 'uptime',
          label: 'Uptime',
          description: '',
          tooltip: `Started ${new Date(s.startedAt).toISOString()}`,
        };
        return [
          { kind: 'detail', id: 'url', label: 'URL', description: s.httpsUrl },
          {
            kind: 'detail',
            id: 'profile',
            label: 'Profile',
            description: `${s.profile} (${s.profileName})`,
          },
          this.uptimeRow,
          {
            kind: 'detail',
            id: 'etcd',
            label: 'etcd',
            description: etcdDescription(s.etcd),
            tooltip: [
              s.etcd.kind === 'memory'
                ? "The engine's in-memory etcd"
                : `${s.etcd.kind === 'spawn' ? "Debian's etcd-server, started with this server (its data directory goes when it stops)" : 'An existing etcd cluster'}: ${s.etcd.endpoints.join(', ')}`,
              s.etcd.featureLine,
            ]
              .filter((line) => line !== undefined)
              .join('\n'),
          },
          {
            kind: 'detail',
            id: 'etcdRevision',
            // A real etcd's revision is only known from its answers: other writers can be ahead.
            label: s.etcd.kind === 'memory' ? 'etcd revision' : 'etcd revision (last seen)',
            description: String(s.etcdRevision),
          },
          {
            kind: 'detail',
            id: 'kubeconfig',
            label: 'KUBECONFIG',
            description: s.kubeconfigPath,
          },
        ];
      }
      case 'resources': {
        // Of the 34 served built-ins most are empty: listing them all would push Clients and
        // Watchers out of view, so the empty ones are counted in one row (kubectl api-resources
        // names them). One without a watch cache (events) is listed: no count says it is empty.
        const busy = s.resources.filter(
          (r) => !r.watchCache || r.objects > 0 || r.watchers > 0 || !r.ready,
        );
        const rows: ServerViewNode[] = busy.map((resource) => ({ kind: 'resource', resource }));
        const idle = s.resources.length - busy.length;
        if (idle > 0)
          rows.push({
            kind: 'none',
            id: 'idle-resources',
            label: `${plural(idle, 'more resource', { plain: true })} with no objects and no watchers`,
          });
        return rows;
      }
      case 'clients':
        return s.clients.length
          ? s.clients.map((client) => ({ kind: 'client', client }))
          : [{ kind: 'none', id: 'clients', label: 'No request has come yet' }];
      case 'faults':
        return s.faults.map((fault) => ({ kind: 'fault', fault }));
      case 'watchers': {
        const rows: ServerViewNode[] = s.watchers.map((watcher) => ({ kind: 'watcher', watcher }));
        if (rows.length === 0) return [{ kind: 'none', id: 'watchers', label: 'No watch is open' }];
        if (s.watchersTotal > s.watchers.length)
          rows.push({
            kind: 'none',
            id: 'more-watchers',
            label: `${s.watchersTotal - s.watchers.length} more not listed`,
          });
        return rows;
      }
    }
  }

  getTreeItem(node: ServerViewNode): vscode.TreeItem {
    const s = this.state;
    switch (node.kind) {
      case 'section': {
        const titles = {
          server: 'Server',
          resources: 'Resources',
          // Per User-Agent, whatever it asked: not the Clients tab's clients (per connection,
          // those that listed or watched) nor the status bar's connections.
          clients: 'User agents',
          watchers: 'Watchers',
          faults: 'Faults',
        };
        const item = new vscode.TreeItem(
          titles[node.section],
          vscode.TreeItemCollapsibleState.Expanded,
        );
        item.id = `section:${node.section}`;
        if (node.section === 'clients')
          item.tooltip =
            "Every User-Agent that sent a request (discovery too), with its requests by kind. The inspector's Clients tab counts clients per connection (those that sent a LIST or WATCH); the status bar counts connections.";
        if (s)
          item.description =
            node.section === 'server'
              ? s.httpsUrl
              : node.section === 'resources'
                ? String(s.resources.length)
                : node.section === 'clients'
                  ? String(s.clients.length)
                  : node.section === 'faults'
                    ? String(s.faults.length)
                    : String(s.watchersTotal);
        item.iconPath = new vscode.ThemeIcon(
          {
            server: 'server-process',
            resources: 'database',
            clients: 'account',
            watchers: 'eye',
            faults: 'zap',
          }[node.section],
        );
        return item;
      }
      case 'detail': {
        const item = new vscode.TreeItem(node.label);
        item.id = `detail:${node.id}`;
        item.description =
          node.id === 'uptime' && s ? humanDuration(Date.now() - s.startedAt) : node.description;
        item.tooltip = node.tooltip ?? `${node.label}: ${node.description}`;
        return item;
      }
      case 'resource': {
        const r = node.resource;
        const item = new vscode.TreeItem(r.name);
        item.id = `resource:${r.name}`;
        if (!r.watchCache) {
          // Upstream's cache sizes turn events' watch cache off: no cache counts its objects.
          item.description = 'no watch cache, read from etcd';
          item.tooltip = `${r.name}: no watch cache (as in kube-apiserver); its lists, gets and watches go to etcd`;
        } else {
          item.description = [
            plural(r.objects, 'object', { plain: true }),
            plural(r.watchers, 'watcher', { plain: true }),
            `RV ${r.cacheResourceVersion}`,
            ...(r.ready ? [] : ['not ready']),
          ].join(' · ');
          item.tooltip = `${r.name}: ${item.description} (the watch cache's view)`;
        }
        item.contextValue = serverResourceContext;
        item.iconPath = new vscode.ThemeIcon('symbol-class');
        return item;
      }
      case 'client': {
        const c = node.client;
        // Its requests by resource under it: the side bar cuts a long description.
        const item = new vscode.TreeItem(
          clientName(c.userAgent),
          Object.keys(c.resources).length
            ? vscode.TreeItemCollapsibleState.Collapsed
            : vscode.TreeItemCollapsibleState.None,
        );
        item.id = `client:${c.userAgent}`;
        item.description = [
          plural(c.lists, 'list', { plain: true }),
          plural(c.watches, 'watch', { many: 'watches', plain: true }),
          ...(c.gets ? [plural(c.gets, 'get', { plain: true })] : []),
          ...(c.writes ? [plural(c.writes, 'write', { plain: true })] : []),
        ].join(' · ');
        item.tooltip = `${c.userAgent}\n${item.description}${c.other ? ` · ${c.other} other` : ''}`;
        item.iconPath = new vscode.ThemeIcon('account');
        // The clients past the debug state's cap share one row, which names no user agent.
        if (c.userAgent !== otherClients) item.contextValue = serverClientContext;
        return item;
      }
      case 'clientResource': {
        const item = new vscode.TreeItem(node.resource);
        item.id = `client:${node.userAgent}:${node.resource}`;
        item.description = (
          [
            ['lists', 'list'],
            ['watches', 'watch'],
            ['gets', 'get'],
            ['writes', 'write'],
            ['other', 'other'],
          ] as const
        )
          .filter(([kind]) => node.counts[kind] > 0)
          .map(([kind, one]) =>
            kind === 'other'
              ? `${node.counts.other} other`
              : plural(node.counts[kind], one, {
                  ...(kind === 'watches' ? { many: 'watches' } : {}),
                  plain: true,
                }),
          )
          .join(' · ');
        item.tooltip = `${node.userAgent}\n${node.resource}: ${item.description}`;
        item.iconPath = new vscode.ThemeIcon('symbol-class');
        return item;
      }
      case 'watcher': {
        const w = node.watcher;
        const item = new vscode.TreeItem(`#${w.id} ${w.resource}`);
        item.id = `watcher:${w.resource}:${w.id}`;
        item.description = `${w.state} · ${clientName(w.userAgent)}`;
        item.tooltip = `${w.requestLine ?? ''}\n${w.userAgent ?? ''}\nstate ${w.state}${w.allowWatchBookmarks ? ', bookmarks' : ''}`;
        item.contextValue = serverWatcherContext;
        item.iconPath = new vscode.ThemeIcon('eye');
        return item;
      }
      case 'fault': {
        const f = node.fault;
        const item = new vscode.TreeItem(`#${f.id} ${f.name}`);
        item.id = `fault:${f.id}`;
        item.description = faultRowText(f);
        item.tooltip = `${f.name} #${f.id}\nparameters ${JSON.stringify(f.parameters)}\nmatch ${JSON.stringify(f.match)}\ntrigger ${JSON.stringify(f.trigger)}\n${f.phase} (armed at ${f.armedAt}), ${plural(f.hits, 'hit', { plain: true })}${f.held !== undefined ? `, ${f.held} held` : ''}`;
        item.contextValue = serverFaultContext;
        item.iconPath = new vscode.ThemeIcon('zap');
        return item;
      }
      case 'none': {
        const item = new vscode.TreeItem(node.label);
        item.id = `none:${node.id}`;
        return item;
      }
    }
  }

  /** The view as shown, every row expanded (the extension-host tests read it). */
  rows(): ViewRow[] {
    return treeRows(this);
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
