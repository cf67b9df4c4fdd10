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

/** The scenarios, from the runs chunk: `loaded()` without loading it, `load()` loading it. */
export interface ScenarioList {
  loaded(): ScenarioDefinition[] | undefined;
  load(): Promise<ScenarioDefinition[]>;
}

function scenarioNodes(scenarios: ScenarioDefinition[]): ScenariosViewNode[] {
  return scenarios.map((scenario) => ({ kind: 'scenario', scenario }));
}

export class ScenariosViewProvider implements vscode.TreeDataProvider<ScenariosViewNode> {
  private readonly scenarios: ScenarioList;

  constructor(scenarios: ScenarioList) {
    this.scenarios = scenarios;
  }

  /** The roots load the runs chunk the first time the view is shown. */
  getChildren(node?: ScenariosViewNode): ScenariosViewNode[] | Promise<ScenariosViewNode[]> {
    if (node) return this.parameters(node);
    const loaded = this.scenarios.loaded();
    return loaded ? scenarioNodes(loaded) : this.scenarios.load().then(scenarioNodes);
  }

  private parameters(node: ScenariosViewNode): ScenariosViewNode[] {
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

  /** The tree as shown, expanded (tests read the view through this, once it is loaded). */
  rows(): ViewRow[] {
    return treeRows({
      getChildren: (node?: ScenariosViewNode) =>
        node ? this.parameters(node) : scenarioNodes(this.scenarios.loaded() ?? []),
      getTreeItem: (node: ScenariosViewNode) => this.getTreeItem(node),
    });
  }
}
