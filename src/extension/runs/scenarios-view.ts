// The "Scenarios" view in the List/Watch side bar: every built-in scenario by its short label (the
// title beside it), expandable into its parameters and their defaults; run one with its defaults
// or with parameters asked one by one. No upstream counterpart.
import * as vscode from 'vscode';
import type { ScenarioDefinition, ScenarioParamSpec } from '../../scenarios/runner';
import { treeRows, type ViewRow } from '../shared/view-rows';

export type ScenariosViewNode =
  | { kind: 'scenario'; scenario: ScenarioDefinition }
  | { kind: 'parameter'; scenario: ScenarioDefinition; param: ScenarioParamSpec };

function rangeText(p: ScenarioParamSpec): string {
  if (p.choices) return ` (${p.choices.join(' | ')})`;
  if (p.min !== undefined && p.max !== undefined) return ` (${p.min}…${p.max})`;
  return '';
}

export class ScenariosViewProvider implements vscode.TreeDataProvider<ScenariosViewNode> {
  private readonly scenarios: () => ScenarioDefinition[];

  constructor(scenarios: () => ScenarioDefinition[]) {
    this.scenarios = scenarios;
  }

  getChildren(node?: ScenariosViewNode): ScenariosViewNode[] {
    if (!node) return this.scenarios().map((scenario) => ({ kind: 'scenario', scenario }));
    if (node.kind === 'scenario')
      return node.scenario.params.map((param) => ({
        kind: 'parameter',
        scenario: node.scenario,
        param,
      }));
    return [];
  }

  getTreeItem(node: ScenariosViewNode): vscode.TreeItem {
    if (node.kind === 'scenario') {
      const { label, title, name, description } = node.scenario;
      // The short label fits the side bar; the title says what the scenario shows.
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `scenario:${name}`;
      item.description = title;
      item.tooltip = new vscode.MarkdownString().appendText(`${title} (${name})\n\n${description}`);
      item.accessibilityInformation = { label: `Scenario ${label}: ${title}` };
      item.iconPath = new vscode.ThemeIcon('beaker');
      item.contextValue = 'scenario';
      return item;
    }
    const p = node.param;
    const item = new vscode.TreeItem(p.name, vscode.TreeItemCollapsibleState.None);
    item.id = `scenario:${node.scenario.name}:${p.name}`;
    item.description = `${String(p.default)}${rangeText(p)}`;
    item.tooltip = `${p.name} = ${String(p.default)} (default)\n${p.description}`;
    item.accessibilityInformation = {
      label: `Parameter ${p.name}, default ${String(p.default)}${rangeText(p)}`,
    };
    item.iconPath = new vscode.ThemeIcon('symbol-parameter');
    item.contextValue = 'scenarioParameter';
    return item;
  }

  /** The tree as shown, expanded (tests read the view through this). */
  rows(): ViewRow[] {
    return treeRows(this);
  }
}
