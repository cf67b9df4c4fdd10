// The tokens a user decoded recently, newest first, kept per workspace (workspaceState) so the
// Tokens view survives a reload. Only the inputs are stored; explanations are recomputed.
import type { KeyPrefixSource } from '../../format/explanation';
import * as vscode from 'vscode';
import { recentTokensStateKey } from '../ids';

/** A token and the key prefix it was decoded against; the rest says where that prefix came from. */
export interface RecentToken {
  token: string;
  keyPrefix: string;
  /** Absent when someone gave the prefix as such (Validate, Encode, an argument). */
  keyPrefixSource?: KeyPrefixSource;
  keyPrefixDetail?: string;
  /** Characters kubectl cut from the logged body right after the token. */
  truncated?: number;
}

const sources: readonly string[] = ['url', 'objectRef', 'request', 'list', 'setting'];

const stateKey = recentTokensStateKey;
// Enough to compare the pages of a few paginated lists; older entries fall off the end.
export const maxRecentTokens = 50;

function isRecentToken(value: unknown): value is RecentToken {
  const v = value as RecentToken | undefined;
  return (
    !!v &&
    typeof v === 'object' &&
    typeof v.token === 'string' &&
    typeof v.keyPrefix === 'string' &&
    (v.keyPrefixSource === undefined || sources.includes(v.keyPrefixSource)) &&
    (v.keyPrefixDetail === undefined || typeof v.keyPrefixDetail === 'string') &&
    (v.truncated === undefined || typeof v.truncated === 'number')
  );
}

/** Only the fields of a RecentToken (a view node or command argument may carry more). */
export function recentToken(entry: RecentToken): RecentToken {
  const out: RecentToken = { token: entry.token, keyPrefix: entry.keyPrefix };
  if (entry.keyPrefixSource !== undefined) out.keyPrefixSource = entry.keyPrefixSource;
  if (entry.keyPrefixDetail !== undefined) out.keyPrefixDetail = entry.keyPrefixDetail;
  if (entry.truncated !== undefined) out.truncated = entry.truncated;
  return out;
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
    await this.memento.update(stateKey, unique.slice(0, maxRecentTokens).map(recentToken));
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
