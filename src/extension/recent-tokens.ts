// The tokens a user decoded recently, newest first, kept per workspace (workspaceState) so the
// Tokens view survives a reload. Only the inputs are stored; explanations are recomputed.
import * as vscode from 'vscode';

export interface RecentToken {
  token: string;
  keyPrefix: string;
}

const stateKey = 'listwatch.recentTokens';
// Enough to compare the pages of a few paginated lists; older entries fall off the end.
export const maxRecentTokens = 50;

function isRecentToken(value: unknown): value is RecentToken {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as RecentToken).token === 'string' &&
    typeof (value as RecentToken).keyPrefix === 'string'
  );
}

function sameToken(a: RecentToken, b: RecentToken): boolean {
  return a.token === b.token && a.keyPrefix === b.keyPrefix;
}

export class RecentTokens {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly memento: vscode.Memento;

  constructor(memento: vscode.Memento) {
    this.memento = memento;
  }

  list(): RecentToken[] {
    const stored = this.memento.get<unknown>(stateKey, []);
    // State written by another version may not have our shape: keep what is usable.
    return Array.isArray(stored) ? stored.filter(isRecentToken) : [];
  }

  /** Puts the token first; the same token with the same prefix appears only once. */
  async remember(entry: RecentToken): Promise<void> {
    await this.store([entry, ...this.list()]);
  }

  /** Puts `entry` where `old` was (e.g. re-validated with another key prefix), or first. */
  async replace(old: RecentToken, entry: RecentToken): Promise<void> {
    const list = this.list();
    await this.store(
      list.some((e) => sameToken(e, old))
        ? list.map((e) => (sameToken(e, old) ? entry : e))
        : [entry, ...list],
    );
  }

  async clear(): Promise<void> {
    await this.memento.update(stateKey, []);
    this.changed.fire();
  }

  private async store(list: RecentToken[]): Promise<void> {
    const unique = list.filter((e, i) => list.findIndex((other) => sameToken(other, e)) === i);
    await this.memento.update(
      stateKey,
      unique.slice(0, maxRecentTokens).map((e) => ({ token: e.token, keyPrefix: e.keyPrefix })),
    );
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
