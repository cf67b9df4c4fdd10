// No upstream counterpart: the List/Watch Inspector panel as the entry sees it before and after
// the panel chunk is loaded. Before, the panel is closed: nothing is posted (as to a closed panel)
// and the traffic log is empty; the first show, or the serializer reviving the panel after a
// reload, loads the chunk. Features that open runs in the panel load it with theirs, so that their
// commands show it at once, as before.
import * as vscode from 'vscode';
import type { ToWebview } from '../../protocol';
import { inspectorViewType } from '../ids';
import type { LazyFeature } from '../lazy-feature';
import type { InspectorPanel, InspectorTraffic } from './inspector-panel';

export class InspectorPanelSlot {
  constructor(
    private readonly panel: LazyFeature<InspectorPanel>,
    /** The traffic log, the same object the panel writes once loaded. */
    readonly traffic: InspectorTraffic,
  ) {}

  isOpen(): boolean {
    return this.panel.loaded?.isOpen() ?? false;
  }

  /** Opens the panel, or brings it forward (loading its chunk first the first time). */
  show(preserveFocus = false): void {
    const loaded = this.panel.loaded;
    if (loaded) loaded.show(preserveFocus);
    else void this.panel.get().then((p) => p.show(preserveFocus));
  }

  /** Resolves once the webview has said `ready`, or the panel closed. */
  async whenReady(): Promise<void> {
    return (await this.panel.get()).whenReady();
  }

  post(message: ToWebview): void {
    this.panel.loaded?.post(message);
  }

  /** Handles a message as if the webview had posted it. */
  receive(message: unknown): void {
    const loaded = this.panel.loaded;
    if (loaded) loaded.receive(message);
    else void this.panel.get().then((p) => p.receive(message));
  }

  /** The serializer that revives the panel after a reload (activation: onWebviewPanel:listwatch.inspector). */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(inspectorViewType, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) =>
        (await this.panel.get()).revive(panel, state),
    });
  }

  dispose(): void {
    this.panel.loaded?.dispose();
  }
}
