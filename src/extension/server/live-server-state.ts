// No upstream counterpart: what the status bar and the Server view show of the local API server
// (live-server.ts makes it in the server chunk), and the one reader interface they take, so that
// the entry shows them without loading the server.
import type * as vscode from 'vscode';
import type { ClientCounts } from '../../server/debug-state';
import type { EtcdChoice } from '../../server/etcd-choice';
import type { ProfileName } from '../../server/served-resources';

/** One served resource as the Server view lists it. */
export interface ResourceSummary {
  /** `pods`, `widgets.example.com`: the fault parameter's spelling. */
  name: string;
  /** Objects in the watch cache (it lags etcd during cache-lag); 0 without one. */
  objects: number;
  /** Whether it has a watch cache (events have none: their reads go to etcd). */
  watchCache: boolean;
  cacheResourceVersion: number;
  watchers: number;
  ready: boolean;
}

/** A client's requests by kind, as the server's debug state counts them. */
export type ClientSummary = ClientCounts;

export interface WatcherSummary {
  id: number | string;
  resource: string;
  userAgent?: string;
  requestLine?: string;
  /** cache_watcher.go's state name. */
  state: string;
  allowWatchBookmarks: boolean;
}

/** What the status bar and the Server view show of the running server. */
export interface LiveServerState {
  url: string;
  httpsUrl: string;
  port: number;
  kubeconfigPath: string;
  profile: ProfileName;
  /** `release-1.36`, `master-1.37-preview`. */
  profileName: string;
  /** Date.now() when it started listening. */
  startedAt: number;
  /** The in-memory etcd's revision, or the highest a real etcd's answers carried so far. */
  etcdRevision: number;
  /** Where the objects live: in memory, an etcd-server started with the server, or a cluster. */
  etcd: {
    kind: EtcdChoice['kind'];
    endpoints: readonly string[];
    /** The version the in-memory etcd reports (listwatch.server.etcdVersion), if any. */
    version?: string;
    /** What the storage feature check decided from the versions, when there were any. */
    featureLine?: string;
  };
  resources: ResourceSummary[];
  /** Every client (user agent) seen since the start. */
  clients: ClientSummary[];
  /**
   * The clients connected now, as the Clients tab counts them (User-Agent + connection): one
   * User-Agent per open connection (a watch, a request, a keep-alive connection).
   */
  connectedClients: string[];
  /** The clients (User-Agent + connection) seen since the start: the Clients tab's count. */
  clientsSeen: number;
  /** Up to the debug state's cap; watchersTotal counts all. */
  watchers: WatcherSummary[];
  watchersTotal: number;
}

/** The etcd as the Server view and the start message name it. */
export function etcdDescription(e: LiveServerState['etcd']): string {
  if (e.kind === 'memory')
    return e.version === undefined ? 'in memory' : `in memory, reports etcd ${e.version}`;
  return `${e.endpoints.join(', ')}${e.kind === 'spawn' ? ' (started here)' : ''}`;
}

/** What the status bar and the Server view read: the state now, and an event when it changed. */
export interface LiveServerReader {
  state(): LiveServerState | undefined;
  readonly onDidChange: vscode.Event<LiveServerState | undefined>;
}
