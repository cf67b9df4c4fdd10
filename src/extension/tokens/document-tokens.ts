// The continue tokens of an open document, each with the key prefix of its LIST (the scanner in
// src/scan/continue-token-context.ts reads it from the URL, audit objectRef, the request a
// Response Body answers, or the list object). A document up to fullScanChars is scanned once per
// version and remembered; a bigger one (a 100 MB log) is read only in a bounded window of lines
// around the token, so a hover costs the same at any size.
import * as vscode from 'vscode';
import {
  ContinueTokenContextScanner,
  type ContextualToken,
  type TokenContextOptions,
} from '../../scan/continue-token-context';
import type { FoundContinueToken } from '../../scan/continue-token-scan';
import { tokenAtInWindow, tokenWindowChars } from './line-window';

/** What this module reads of a document (the hover tests pass a fake one). */
export type TokenDocument = Pick<
  vscode.TextDocument,
  'uri' | 'version' | 'lineCount' | 'lineAt' | 'offsetAt'
>;

/** Documents up to this many characters are scanned whole (a few hundred ms at most, once per version). */
export const fullScanChars = 8 * 1024 * 1024;
/** Around a token in a bigger document: at most this many lines, and characters, each way. */
export const contextWindowLines = 2000;
export const contextWindowChars = 1024 * 1024;
// Scans remembered (newest last): hovering back and forth between a few logs stays cheap.
const rememberedScans = 4;

function documentChars(document: TokenDocument): number {
  // VS Code clamps the position to the end of the last line.
  return document.offsetAt(new vscode.Position(document.lineCount - 1, Number.MAX_SAFE_INTEGER));
}

/** Every token of the document with its key prefix, in order (reads every line). */
export function scanDocument(
  document: TokenDocument,
  opts: TokenContextOptions,
): ContextualToken[] {
  const scanner = new ContinueTokenContextScanner(opts);
  const out: ContextualToken[] = [];
  for (let i = 0; i < document.lineCount; i++) out.push(...scanner.push(document.lineAt(i).text));
  out.push(...scanner.end());
  return out;
}

interface Remembered {
  uri: string;
  version: number;
  options: string;
  byLine: Map<number, ContextualToken[]>;
}

export class DocumentTokens {
  private readonly scans: Remembered[] = [];

  /** Every token of the document (remembered per version when the document is small enough). */
  all(document: TokenDocument, opts: TokenContextOptions): ContextualToken[] {
    const remembered = this.remembered(document, opts);
    if (remembered) return [...remembered.byLine.values()].flat();
    return scanDocument(document, opts);
  }

  /** The token covering `position` with its key prefix; undefined away from tokens. */
  at(
    document: TokenDocument,
    position: vscode.Position,
    opts: TokenContextOptions,
  ): ContextualToken | undefined {
    const text = document.lineAt(position.line).text;
    const found = tokenAtInWindow(text, position.character);
    if (!found) return undefined;
    const remembered = this.remembered(document, opts);
    const known = remembered?.byLine.get(position.line)?.find((t) => t.start === found.start);
    return known ?? this.inWindow(document, position.line, text, found, opts);
  }

  private remembered(document: TokenDocument, opts: TokenContextOptions): Remembered | undefined {
    const uri = document.uri.toString();
    const options = JSON.stringify(opts);
    const i = this.scans.findIndex((s) => s.uri === uri);
    const hit = i >= 0 ? this.scans.splice(i, 1)[0] : undefined;
    if (hit && hit.version === document.version && hit.options === options) {
      this.scans.push(hit);
      return hit;
    }
    // An older scan of this document (another version or setting) is dropped above.
    if (documentChars(document) > fullScanChars) return undefined;
    const byLine = new Map<number, ContextualToken[]>();
    for (const t of scanDocument(document, opts)) {
      const onLine = byLine.get(t.line);
      if (onLine) onLine.push(t);
      else byLine.set(t.line, [t]);
    }
    const scan = { uri, version: document.version, options, byLine };
    this.scans.push(scan);
    if (this.scans.length > rememberedScans) this.scans.shift();
    return scan;
  }

  /** Reads a bounded window of lines around the token's line. */
  private inWindow(
    document: TokenDocument,
    line: number,
    text: string,
    found: FoundContinueToken,
    opts: TokenContextOptions,
  ): ContextualToken {
    let first = line;
    for (let chars = 0; first > 0 && line - first < contextWindowLines;) {
      chars += Math.min(document.lineAt(first - 1).text.length, tokenWindowChars) + 1;
      if (chars > contextWindowChars) break;
      first--;
    }
    const scanner = new ContinueTokenContextScanner(opts, first);
    for (let i = first; i < line; i++) scanner.push(document.lineAt(i).text);
    // A very long line is read around the token only, as tokenAtInWindow did.
    const from =
      text.length > 2 * tokenWindowChars ? Math.max(0, found.start - tokenWindowChars) : 0;
    const slice = from > 0 ? text.slice(from, found.end + tokenWindowChars) : text;
    const mine = (tokens: ContextualToken[]): ContextualToken | undefined =>
      tokens.find((t) => t.line === line && t.start + from === found.start);
    let result = mine(scanner.push(slice));
    for (let i = line + 1, chars = 0; !result && i < document.lineCount; i++) {
      const next = document.lineAt(i).text;
      chars += Math.min(next.length, tokenWindowChars) + 1;
      if (i - line > contextWindowLines || chars > contextWindowChars) break;
      result = mine(scanner.push(next));
    }
    result ??= mine(scanner.end());
    const context = result ?? {
      keyPrefix: opts.fallbackPrefix,
      keyPrefixSource: 'setting' as const,
      detail: `assumed: ${opts.fallbackName}`,
    };
    return { ...found, ...context, start: found.start, end: found.end, line };
  }
}
