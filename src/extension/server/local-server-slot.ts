// No upstream counterpart: the local API server as the entry's readers see it (the status bar, the
// Server view, the live runs, deactivate) before and after the server chunk is loaded: empty until
// then, and afterwards the chunk's one LocalApiServer, whose changes it passes on.
import * as vscode from 'vscode';
import type { RecordedServer } from '../../server/live-recorder';
import type { LocalApiServer } from './live-server';
import type { LiveServerReader, LiveServerState } from './live-server-state';
import type { LocalServerSource } from './live-runs';

export class LocalServerSlot implements LiveServerReader, LocalServerSource, vscode.Disposable {
  private local: LocalApiServer | undefined;
  private subscription: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<LiveServerState | undefined>();
  /** The new state after a start, a stop or a change the engine reported (undefined: stopped). */
  readonly onDidChange = this.changed.event;

  /** The server chunk's server, once it is loaded. */
  fill(local: LocalApiServer): void {
    this.local = local;
    this.subscription = local.onDidChange((state) => this.changed.fire(state));
  }

  state(): LiveServerState | undefined {
    return this.local?.state();
  }

  /** The running ApiServer, for the live runs (undefined when none runs). */
  get server(): RecordedServer | undefined {
    return this.local?.server;
  }

  /** Stops the server if one runs (deactivate awaits it). */
  async stop(): Promise<boolean> {
    return (await this.local?.stop()) ?? false;
  }

  dispose(): void {
    this.subscription?.dispose();
    this.local?.dispose();
    this.changed.dispose();
  }
}
