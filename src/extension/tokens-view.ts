// The "Tokens" view in the List/Watch side bar: recently decoded continue tokens, each expandable
// into what the apiserver reads from it. Labels and tooltips are plain strings (never markdown/HTML).
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../engine';
import { renderExplanationText } from '../format/explanation';
import { controlPictures, shortToken, tokenTitle } from './token-title';
import type { RecentToken, RecentTokens } from './recent-tokens';

export const tokensViewId = 'listwatch.tokens';

export type TokensViewNode =
  | { kind: 'token'; entry: RecentToken; explanation: ContinueTokenExplanation }
  | { kind: 'field'; parent: RecentToken; index: number; name: string; value: string };

/** What a row shows, as plain data: tests read the view through this. */
export interface TokensViewRow {
  label: string;
  description: string;
  children: TokensViewRow[];
}

/** The rows under a token, in the order a reader asks the questions. */
export function tokenFields(e: ContinueTokenExplanation): Array<{ name: string; value: string }> {
  const rows: Array<{ name: string; value: string }> = [
    { name: 'token', value: e.token },
    { name: 'key prefix', value: e.keyPrefix },
    { name: 'valid', value: e.valid ? 'yes' : 'no' },
  ];
  if (e.error) rows.push({ name: 'error', value: e.error.message });
  if (e.fields) {
    rows.push(
      { name: 'v', value: e.fields.v },
      { name: 'rv', value: e.fields.rv },
      { name: 'start', value: e.fields.start },
    );
  } else if (e.decodedJson !== undefined) {
    rows.push({ name: 'decoded', value: e.decodedJson });
  }
  if (e.rvMeaning) rows.push({ name: 'rv means', value: e.rvMeaning });
  if (e.startKey) rows.push({ name: 'start key', value: e.startKey.absolute });
  if (e.resumePoint) rows.push({ name: 'next page from', value: e.resumePoint.display });
  for (const w of e.warnings) rows.push({ name: 'warning', value: w.message });
  return rows;
}

export class TokensViewProvider implements vscode.TreeDataProvider<TokensViewNode> {
  private readonly changed = new vscode.EventEmitter<TokensViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly recent: RecentTokens;
  private readonly subscription: vscode.Disposable;

  constructor(recent: RecentTokens) {
    this.recent = recent;
    this.subscription = recent.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(node?: TokensViewNode): TokensViewNode[] {
    if (!node) {
      return this.recent.list().map((entry) => ({
        kind: 'token',
        entry,
        explanation: explainContinueToken(entry.token, entry.keyPrefix),
      }));
    }
    if (node.kind === 'token') {
      return tokenFields(node.explanation).map((f, index) => ({
        kind: 'field',
        parent: node.entry,
        index,
        name: f.name,
        value: f.value,
      }));
    }
    return [];
  }

  getTreeItem(node: TokensViewNode): vscode.TreeItem {
    if (node.kind === 'token') {
      const item = new vscode.TreeItem(
        tokenTitle(node.explanation),
        vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = `${node.entry.keyPrefix}\n${node.entry.token}`;
      item.description = shortToken(node.entry.token);
      item.tooltip = renderExplanationText(node.explanation);
      item.contextValue = 'continueToken';
      item.iconPath = node.explanation.valid
        ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
        : new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
      return item;
    }
    const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.parent.keyPrefix}\n${node.parent.token}\n${node.index}`;
    item.description = controlPictures(node.value);
    item.tooltip = `${node.name}: ${node.value}`;
    item.contextValue = 'continueTokenField';
    return item;
  }

  /** The whole tree as plain data, expanded. */
  rows(): TokensViewRow[] {
    const describe = (node: TokensViewNode): TokensViewRow => {
      const item = this.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      return {
        label,
        description: String(item.description ?? ''),
        children: this.getChildren(node).map(describe),
      };
    };
    return this.getChildren().map(describe);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
