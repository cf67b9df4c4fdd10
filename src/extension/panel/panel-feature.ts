// No upstream counterpart: the List/Watch Inspector panel's chunk (dist/extension-panel.js: the
// panel, its models of a run and the webview's HTML), loaded when the panel is first shown or
// revived, or with a feature that opens runs in it (src/extension/lazy-feature.ts). The current
// run, the host's callbacks and the traffic log come from the entry.
import type { CurrentRun } from '../runs/current-run';
import type * as vscode from 'vscode';
import { InspectorPanel, type InspectorHost, type InspectorTraffic } from './inspector-panel';

export function activatePanel(
  extensionUri: vscode.Uri,
  current: CurrentRun,
  host: InspectorHost,
  traffic: InspectorTraffic,
): InspectorPanel {
  return new InspectorPanel(extensionUri, current, host, traffic);
}
