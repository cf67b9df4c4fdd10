// No upstream counterpart: the extension's local apiserver. It runs src/server's ApiServer inside
// the extension host rather than spawning `listwatch serve`: the engine is already bundled into
// the server chunk (dist/extension-server.js), so there is no second Node to ship or find, and faults and the live state are
// direct calls instead of HTTP round trips to an admin API. It tells its readers (status bar,
// Server view) when what they show changed: at once on start and stop, and at most once a second
// while clients work, only when the engine reported something and the summary differs.
import type { ActiveFaultJSON } from '../../server/active-faults';
import type { SeedCounts } from '../../server/seed-counts';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { ApiServer } from '../../server/api-server';
import { CrdError } from '../../server/crd';
import { resourceName, type FaultResponse } from '../../server/faults';
import { FaultScheduleError, parseFaultSchedule } from '../../server/fault-schedule';
import { EtcdOpenError, type EtcdChoice } from '../../server/etcd-choice';
import { KubeconfigError } from '../../server/kubeconfig';
import type { ProfileName } from '../../server/served-resources';
import type { ExtensionLog } from '../shared/output-log';
import type { LiveServerState } from './live-server-state';

/** What a start asks for (the Start command's answers, or the settings for auto-start). */
export interface LocalServerOptions {
  /** 0: a free port. */
  port: number;
  profile: ProfileName;
  seed: SeedCounts;
  crdFiles: readonly string[];
  /** Default: `kubeconfig` in the extension's storage folder. */
  kubeconfigPath?: string;
  /** Default: the in-memory etcd. */
  etcd?: EtcdChoice;
  /** Told after each seed object is created (ApiServerOptions.seedProgress). */
  seedProgress?: (created: number, total: number) => void;
  /** Cancels the start while it seeds (ApiServerOptions.signal). */
  signal?: AbortSignal;
  /** A fault schedule file (listwatch.server.faults, `listwatch serve --faults`), applied at start. */
  faultsFile?: string;
}

/** Why a start failed, in words that name the input (the port, the CRD file). */
export class LocalServerStartError extends Error {}

/** The readers' refresh pace while clients work: at most this often. */
const refreshIntervalMs = 1000;
/** Events within this long of the first are folded into one refresh. */
const batchMs = 100;

export class LocalApiServer implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<LiveServerState | undefined>();
  /** The new state after a start, a stop or a change the engine reported (undefined: stopped). */
  readonly onDidChange = this.changed.event;
  private running:
    { server: ApiServer; startedAt: number; unsubscribe: () => void; shown: string } | undefined;
  private starting: Promise<LiveServerState> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastRefresh = 0;
  private etcdChoice: EtcdChoice = { kind: 'memory' };

  constructor(
    /** Where the kubeconfig goes unless a start names a path. */
    private readonly storageDir: string,
    private readonly log: ExtensionLog,
  ) {}

  /** The running server (undefined when none runs). */
  get server(): ApiServer | undefined {
    return this.running?.server;
  }

  /** The kubeconfig path a start without kubeconfigPath writes. */
  get defaultKubeconfigPath(): string {
    return path.join(this.storageDir, 'kubeconfig');
  }

  /** Starts the server; rejects with a LocalServerStartError naming the input when it cannot. */
  start(o: LocalServerOptions): Promise<LiveServerState> {
    if (this.running) return Promise.resolve(this.state()!);
    this.starting ??= this.startServer(o).finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async startServer(o: LocalServerOptions): Promise<LiveServerState> {
    const kubeconfigPath = o.kubeconfigPath ?? this.defaultKubeconfigPath;
    fs.mkdirSync(path.dirname(kubeconfigPath), { recursive: true });
    let server: ApiServer;
    try {
      const faultSchedule =
        o.faultsFile === undefined
          ? undefined
          : parseFaultSchedule(fs.readFileSync(o.faultsFile, 'utf8'), o.faultsFile);
      server = await ApiServer.start({
        faultSchedule,
        port: o.port,
        profile: o.profile,
        seed: o.seed,
        crdFiles: o.crdFiles,
        kubeconfigPath,
        etcd: o.etcd,
        etcdLog: (line) => this.log.info(`etcd: ${line}`),
        seedProgress: o.seedProgress,
        signal: o.signal,
      });
    } catch (e) {
      throw new LocalServerStartError(startFailure(e, o));
    }
    this.etcdChoice = o.etcd ?? { kind: 'memory' };
    // A client that disconnects (kubectl get exits) causes no engine event: its socket tells.
    const unsubscribeEvents = server.eventSink.subscribe(() => this.changedSoon());
    const unsubscribeConnections = server.onConnectionsChanged(() => this.changedSoon());
    const unsubscribe = (): void => (unsubscribeEvents(), unsubscribeConnections());
    this.running = { server, startedAt: Date.now(), unsubscribe, shown: '' };
    const state = this.state()!;
    this.running.shown = shownKey(state);
    this.log.info(
      `local API server started: ${server.httpsUrl}, profile ${o.profile}, kubeconfig ${server.kubeconfigPath}, seed ${JSON.stringify(o.seed)}${o.crdFiles.length ? `, CRDs ${o.crdFiles.join(', ')}` : ''}, etcd ${server.etcdEndpoints?.join(',') ?? 'in memory'}`,
    );
    if (server.etcdFeatureLine) this.log.info(server.etcdFeatureLine);
    this.changed.fire(state);
    return state;
  }

  /**
   * Stops the server as `listwatch serve` does on SIGTERM (every watch ends, then the listener
   * and the connections close); false when none was running.
   */
  async stop(): Promise<boolean> {
    if (this.starting) await this.starting.catch(() => undefined);
    const running = this.running;
    if (!running) return false;
    this.running = undefined;
    running.unsubscribe();
    clearTimeout(this.timer);
    this.timer = undefined;
    await running.server.stop();
    // The token dies with the server: the kubeconfig written to our storage folder goes with it
    // (one a start named stays where it was asked for).
    if (running.server.kubeconfigPath === this.defaultKubeconfigPath)
      fs.rmSync(this.defaultKubeconfigPath, { force: true });
    this.log.info(`local API server stopped: ${running.server.httpsUrl}`);
    this.changed.fire(undefined);
    return true;
  }

  /**
   * Injects a fault in-process through the admin API's one entry (ApiServer.injectFault validates
   * the parameters with the same rules and messages as `POST /debug/listwatch/v1/faults/<name>`,
   * and a live run records the fault as a marker).
   */
  async injectFault(name: string, params: Record<string, unknown>): Promise<FaultResponse> {
    const server = this.server;
    if (!server) throw new Error('no local API server is running');
    const answer = await server.injectFault(name, params, (message) => this.log.info(message));
    // Some faults change nothing the engine reports as an event (expire-history).
    this.changedSoon();
    return answer;
  }

  /** What the readers show, read from the engine now (undefined when none runs). */
  state(): LiveServerState | undefined {
    const running = this.running;
    if (!running) return undefined;
    const { server } = running;
    const view = server.debugState.view();
    const resources = server.resources.all.map((r) => ({
      name: resourceName(r),
      objects: r.engine.watchCache.store.length,
      watchCache: r.engine.watchCacheEnabled,
      cacheResourceVersion: r.engine.watchCache.resourceVersion,
      watchers: r.engine.cacher.watcherCount(),
      ready: r.engine.cacher.ready.check().error === undefined,
    }));
    return {
      url: server.url,
      httpsUrl: server.httpsUrl,
      port: server.port,
      kubeconfigPath: server.kubeconfigPath,
      profile: server.resources.profile.kubernetesVersion,
      profileName: server.resources.profile.name,
      startedAt: running.startedAt,
      etcdRevision: server.resources.etcd.currentRevision(),
      etcd: {
        kind: this.etcdChoice.kind,
        endpoints: server.etcdEndpoints ?? [],
        ...(this.etcdChoice.kind === 'memory' && this.etcdChoice.version !== undefined
          ? { version: this.etcdChoice.version }
          : {}),
        ...(server.etcdFeatureLine !== undefined ? { featureLine: server.etcdFeatureLine } : {}),
      },
      resources,
      clients: view.clients,
      connectedClients: server.connectedClients(),
      clientsSeen: server.clientsSeen(),
      // Oldest first (ids grow per cacher), as a person reads the list.
      watchers: [...view.watchers].sort(byResourceAndId).map((w) => ({
        id: w.id,
        resource: w.resource,
        ...(w.userAgent !== undefined ? { userAgent: w.userAgent } : {}),
        ...(w.requestLine !== undefined ? { requestLine: w.requestLine } : {}),
        state: w.state,
        allowWatchBookmarks: w.allowWatchBookmarks,
      })),
      watchersTotal: view.watchersTotal,
      faults: server.activeFaults(),
    };
  }

  /** Clears a fault in force by id, or every one; undefined for an id that is not active. */
  clearFault(id: number | 'all'): ActiveFaultJSON[] | undefined {
    const server = this.server;
    if (!server) throw new Error('no local API server is running');
    const cleared = server.clearFault(id);
    this.changedSoon();
    return cleared;
  }

  /** An engine event arrived: refresh the readers once the batch is in, at most once a second. */
  private changedSoon(): void {
    if (this.timer || !this.running) return;
    const wait = Math.max(batchMs, this.lastRefresh + refreshIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastRefresh = Date.now();
      const running = this.running;
      const state = this.state();
      if (!running || !state) return;
      const key = shownKey(state);
      if (key === running.shown) return;
      running.shown = key;
      this.changed.fire(state);
    }, wait);
  }

  dispose(): void {
    void this.stop();
    this.changed.dispose();
  }
}

function byResourceAndId(
  a: { resource: string; id: number | string },
  b: { resource: string; id: number | string },
): number {
  if (a.resource !== b.resource) return a.resource < b.resource ? -1 : 1;
  if (typeof a.id === 'number' && typeof b.id === 'number') return a.id - b.id;
  return String(a.id).localeCompare(String(b.id));
}

/** What the readers show, as one string: a refresh that would show the same is skipped. */
function shownKey(s: LiveServerState): string {
  return JSON.stringify([
    s.etcdRevision,
    s.resources,
    s.clients,
    s.connectedClients,
    s.clientsSeen,
    s.watchers,
    s.watchersTotal,
    s.faults.map((f) => [f.id, f.phase, f.hits, f.held]),
  ]);
}

/** A start failure in words that name the input that caused it. */
function startFailure(e: unknown, o: LocalServerOptions): string {
  const err = e as NodeJS.ErrnoException;
  if (e instanceof CrdError) return `CRD file ${err.message}`;
  if (e instanceof EtcdOpenError || e instanceof KubeconfigError) return err.message;
  if (e instanceof FaultScheduleError)
    return `fault schedule (listwatch.server.faults) ${err.message}`;
  if (err.code === 'EADDRINUSE')
    return `port ${o.port} is in use (listwatch.server.port); set another port, or 0 for a free one`;
  if (err.code === 'EACCES' && err.syscall === 'listen')
    return `port ${o.port} may not be used (listwatch.server.port); set one above 1023, or 0 for a free one`;
  if ((err.code === 'ENOENT' || err.code === 'EACCES' || err.code === 'EISDIR') && err.path)
    return o.crdFiles.includes(err.path)
      ? `CRD file ${err.message}`
      : err.path === o.faultsFile
        ? `fault schedule (listwatch.server.faults) ${err.message}`
        : err.message;
  return err.message ?? String(e);
}
