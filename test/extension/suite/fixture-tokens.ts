// Test helpers: the continue tokens in the fixture files, with their positions and what an
// independent decoder (Node's base64url + JSON) reads from them.
import type { KeyPrefixSource } from '../../../src/format/explanation';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { scanWithContext } from '../../../src/scan/continue-token-context';

export const fixtureFiles = [
  'kubectl-v8-1.20.log',
  'kubectl-v8-1.33.log',
  'audit.log',
  'pod-list.json',
  'pod-list.yaml',
  'bad-tokens.log',
] as const;

export function fixturesDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the suite expects test/fixtures as the workspace folder');
  return folder.uri.fsPath;
}

export function fixtureUri(name: string): vscode.Uri {
  return vscode.Uri.file(path.join(fixturesDir(), name));
}

export interface FixtureToken {
  token: string;
  line: number;
  start: number;
  end: number;
  /** The key prefix of the token's LIST, read from its context as the extension does. */
  keyPrefix: string;
  keyPrefixSource: KeyPrefixSource;
  /** Decoded here without the engine: the JSON's rv (exact digits) and start, when it decodes. */
  decoded?: { v: string; rv: string; start: string };
}

function decodeIndependently(token: string): FixtureToken['decoded'] {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const json = Buffer.from(token, 'base64url').toString('utf8');
  try {
    const parsed = JSON.parse(json) as { v?: unknown; start?: unknown };
    const rv = /"rv"\s*:\s*(-?\d+)/.exec(json);
    if (typeof parsed.v !== 'string' || typeof parsed.start !== 'string' || !rv) return undefined;
    return { v: parsed.v, rv: rv[1], start: parsed.start };
  } catch {
    return undefined;
  }
}

/** Every token of a fixture, with its context read under the default setting. */
export function tokensInFixture(name: string): FixtureToken[] {
  const lines = fs.readFileSync(path.join(fixturesDir(), name), 'utf8').split(/\r?\n/);
  return scanWithContext(lines, {
    fallbackPrefix: '/registry/pods/',
    fallbackName: 'the listwatch.keyPrefix setting',
  }).map((f) => ({
    token: f.token,
    line: f.line,
    start: f.start,
    end: f.end,
    keyPrefix: f.keyPrefix,
    keyPrefixSource: f.keyPrefixSource,
    decoded: decodeIndependently(f.token),
  }));
}

/** What the apiserver does to a start key: make it rooted, then append it to the key prefix. */
export function absoluteStartKey(keyPrefix: string, start: string): string {
  return keyPrefix + (start.startsWith('/') ? start.slice(1) : start);
}

/** Control characters as the renderers show them (NUL -> ␀). */
export function controlPictures(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out += code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : ch;
  }
  return out;
}
