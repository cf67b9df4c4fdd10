// No upstream counterpart: the status bar item of the local API server: its address, how many
// clients (User-Agent + connection, the Clients tab's unit) are connected now and how many it has
// seen, and how many watchers it has, refreshed when LocalApiServer reports a change (at most once
// a second); a click opens the server menu. Hidden while no server runs.
import * as vscode from 'vscode';
import { serverMenuCommandId, serverStatusBarItemId } from '../ids';
import type { LiveServerReader, LiveServerState } from './live-server-state';
import { statusBarText, statusBarTooltip } from './server-status-text';

export class ServerStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem(
    serverStatusBarItemId,
    vscode.StatusBarAlignment.Left,
    10,
  );
  private readonly subscription: vscode.Disposable;
  /** The text shown now; undefined while hidden. */
  shownText: string | undefined;

  constructor(server: LiveServerReader) {
    this.item.name = 'List/Watch Local API Server';
    this.item.command = serverMenuCommandId;
    this.subscription = server.onDidChange((state) => this.show(state));
    this.show(server.state());
  }

  private show(state: LiveServerState | undefined): void {
    if (!state) {
      this.item.hide();
      this.shownText = undefined;
      return;
    }
    this.item.text = statusBarText(state);
    this.item.tooltip = statusBarTooltip(state);
    this.item.show();
    this.shownText = this.item.text;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
