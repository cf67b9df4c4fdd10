// The "Tokens" view in the List/Watch side bar: the files Decode All Tokens in File read (each
// token a file:line link), then the recently decoded tokens; every token expands into what the
// apiserver reads from it against its key prefix, and where that prefix came from. Labels and
// tooltips are plain strings (never markdown/HTML).
import * as vscode from 'vscode';
import { explainContinueToken, type ContinueTokenExplanation } from '../../engine';
import { keyPrefixOrigin, renderExplanationText, truncationNote } from '../../format/explanation';
import { nextPageSource } from '../../format/next-page';
import { visibleText } from '../../format/visible-text';
import type { RecentToken, RecentTokens } from './recent-tokens';
import type { ScannedFile, ScannedFiles } from './scanned-files';
import { shortToken, tokenTitle } from './token-title';
import { plural } from '../../format/count-text';

// A file with more tokens than this lists the first ones and says how many more (the Problems
// panel and `listwatch decode -` have them all).
export const maxTokensPerFile = 1000;

/** Where a token in a read file is: its document and range. */
export interface TokenLocation {
  uri: vscode.Uri;
  line: number;
  start: number;
  end: number;
}

export type TokensViewNode =
  | { kind: 'file'; file: ScannedFile }
  | { kind: 'more'; file: ScannedFile; hidden: number }
  | {
      kind: 'token';
      entry: RecentToken;
      explanation: ContinueTokenExplanation;
      location?: TokenLocation;
    }
  | {
      kind: 'field';
      parent: RecentToken;
      parentId: string;
      index: number;
      name: string;
      value: string;
    };

/** What a row shows, as plain data: tests read the view through this. */
export interface TokensViewRow {
  label: string;
  description: string;
  /** What a click runs (a file:line row opens its token). */
  command?: vscode.Command;
  children: TokensViewRow[];
}

/** The rows under a token, in the order a reader asks the questions. */
export function tokenFields(
  e: ContinueTokenExplanation,
  entry: RecentToken,
): Array<{ name: string; value: string }> {
  const origin = keyPrefixOrigin({
    keyPrefixSource: entry.keyPrefixSource,
    keyPrefixDetail: entry.keyPrefixDetail,
  });
  const rows: Array<{ name: string; value: string }> = [
    { name: 'token', value: e.token },
    { name: 'key prefix', value: e.keyPrefix },
  ];
  if (origin) rows.push({ name: 'key prefix from', value: origin });
  rows.push({ name: 'valid', value: e.valid ? 'yes' : 'no' });
  if (entry.truncated !== undefined)
    rows.push({ name: 'truncated', value: truncationNote(entry.truncated) });
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
  if (e.startKey) rows.push({ name: 'start key', value: e.startKey.absolute });
  const next = e.valid && e.fields ? nextPageSource(BigInt(e.fields.rv)) : undefined;
  if (next) rows.push({ name: 'next page', value: next });
  for (const w of e.warnings) rows.push({ name: 'warning', value: w.message });
  return rows;
}

function tokenId(node: Extract<TokensViewNode, { kind: 'token' }>): string {
  return node.location
    ? `${node.location.uri.toString()}\n${node.location.line}:${node.location.start}`
    : `${node.entry.keyPrefix}\n${node.entry.token}`;
}

function tokenNode(
  entry: RecentToken,
  explanation: ContinueTokenExplanation,
  location?: TokenLocation,
): TokensViewNode {
  return location
    ? { kind: 'token', entry, explanation, location }
    : { kind: 'token', entry, explanation };
}

export class TokensViewProvider implements vscode.TreeDataProvider<TokensViewNode> {
  private readonly changed = new vscode.EventEmitter<TokensViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly recent: RecentTokens;
  private readonly files: ScannedFiles;
  private readonly subscriptions: vscode.Disposable[];

  constructor(recent: RecentTokens, files: ScannedFiles) {
    this.recent = recent;
    this.files = files;
    this.subscriptions = [
      recent.onDidChange(() => this.changed.fire(undefined)),
      files.onDidChange(() => this.changed.fire(undefined)),
    ];
  }

  getChildren(node?: TokensViewNode): TokensViewNode[] {
    if (!node) {
      const files: TokensViewNode[] = this.files.list().map((file) => ({ kind: 'file', file }));
      const recent = this.recent
        .list()
        .map((entry) => tokenNode(entry, explainContinueToken(entry.token, entry.keyPrefix)));
      return [...files, ...recent];
    }
    if (node.kind === 'file') {
      const shown: TokensViewNode[] = node.file.tokens.slice(0, maxTokensPerFile).map((t) => {
        const { found } = t;
        const entry: RecentToken = {
          token: found.token,
          keyPrefix: found.keyPrefix,
          keyPrefixSource: found.keyPrefixSource,
          keyPrefixDetail: found.detail,
        };
        if (found.truncated !== undefined) entry.truncated = found.truncated;
        return tokenNode(entry, t.explanation, {
          uri: node.file.uri,
          line: found.line,
          start: found.start,
          end: found.end,
        });
      });
      const hidden = node.file.tokens.length - shown.length;
      return hidden > 0 ? [...shown, { kind: 'more', file: node.file, hidden }] : shown;
    }
    if (node.kind === 'token') {
      const parentId = tokenId(node);
      return tokenFields(node.explanation, node.entry).map((f, index) => ({
        kind: 'field',
        parent: node.entry,
        parentId,
        index,
        name: f.name,
        value: f.value,
      }));
    }
    return [];
  }

  getTreeItem(node: TokensViewNode): vscode.TreeItem {
    if (node.kind === 'file') {
      const { file } = node;
      const item = new vscode.TreeItem(file.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `file\n${file.uri.toString()}`;
      const count = plural(file.tokens.length, 'token', { plain: true });
      item.description = file.invalid > 0 ? `${count} · ${file.invalid} invalid` : count;
      item.tooltip = `${file.uri.fsPath || file.uri.toString()}: ${item.description}`;
      item.resourceUri = file.uri;
      item.iconPath = vscode.ThemeIcon.File;
      item.contextValue = 'continueTokenFile';
      return item;
    }
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(
        `… ${node.hidden} more`,
        vscode.TreeItemCollapsibleState.None,
      );
      item.id = `more\n${node.file.uri.toString()}`;
      item.tooltip = `Only the first ${maxTokensPerFile} tokens are listed; run listwatch decode - on the file for all of them.`;
      return item;
    }
    if (node.kind === 'token') {
      const title = tokenTitle(node.explanation);
      const location = node.location;
      const label = location ? `${location.uri.path.split('/').pop()}:${location.line + 1}` : title;
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = tokenId(node);
      item.description = location ? title : shortToken(node.entry.token);
      item.tooltip = renderExplanationText(node.explanation, {
        keyPrefixSource: node.entry.keyPrefixSource,
        keyPrefixDetail: node.entry.keyPrefixDetail,
        truncated: node.entry.truncated,
      });
      item.contextValue = 'continueToken';
      item.iconPath = node.explanation.valid
        ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
        : new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
      if (location) {
        item.command = {
          command: 'vscode.open',
          title: 'Go to Token',
          arguments: [
            location.uri,
            {
              selection: new vscode.Range(
                location.line,
                location.start,
                location.line,
                location.end,
              ),
            } satisfies vscode.TextDocumentShowOptions,
          ],
        };
      }
      return item;
    }
    const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.parentId}\n${node.index}`;
    item.description = visibleText(node.value);
    item.tooltip = `${node.name}: ${visibleText(node.value, '\n')}`;
    item.contextValue = 'continueTokenField';
    return item;
  }

  /** The whole tree as plain data, expanded. */
  rows(): TokensViewRow[] {
    const describe = (node: TokensViewNode): TokensViewRow => {
      const item = this.getTreeItem(node);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const row: TokensViewRow = {
        label,
        description: String(item.description ?? ''),
        children: this.getChildren(node).map(describe),
      };
      if (item.command) row.command = item.command;
      return row;
    };
    return this.getChildren().map(describe);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
