// Asking the user for a token, a key prefix, a key or a resourceVersion: input boxes pre-filled
// from the editor (selection, or the token under the cursor) or from the clipboard.
import * as vscode from 'vscode';
import { findContinueTokens } from '../../scan/continue-token-scan';
import type { DocumentTokens } from './document-tokens';
import type { DecodeRequest } from './explanation-document';
import { keyPrefixProblem, tokenContextOptions } from './key-prefix-setting';

// Longer selections or clipboard contents are not a token someone meant to decode.
const maxPrefillChars = 64 * 1024;
// In a browser the clipboard can wait on a permission prompt: never let that block a command.
const clipboardWaitMs = 1000;

function firstTokenIn(text: string): string | undefined {
  if (text.length > maxPrefillChars) return undefined;
  for (const line of text.split(/\r?\n/)) {
    const [found] = findContinueTokens(line);
    if (found) return found.token;
  }
  return undefined;
}

async function readClipboard(): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      Promise.resolve(vscode.env.clipboard.readText()),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(''), clipboardWaitMs);
      }),
    ]);
  } catch {
    return '';
  } finally {
    clearTimeout(timer);
  }
}

/** The first token inside a selection, with the key prefix its document gives it. */
function tokenInSelection(
  document: vscode.TextDocument,
  selection: vscode.Selection,
  tokens: DocumentTokens,
): DecodeRequest | undefined {
  if (document.getText(selection).length > maxPrefillChars) return undefined;
  for (let line = selection.start.line; line <= selection.end.line; line++) {
    const text = document.lineAt(line).text;
    for (const t of findContinueTokens(text)) {
      const start = new vscode.Position(line, t.start);
      const end = new vscode.Position(line, t.end);
      if (!selection.contains(start) || !selection.contains(end)) continue;
      return tokenAt(document, start, tokens);
    }
  }
  return undefined;
}

function tokenAt(
  document: vscode.TextDocument,
  position: vscode.Position,
  tokens: DocumentTokens,
): DecodeRequest | undefined {
  const t = tokens.at(document, position, tokenContextOptions(document.uri));
  if (!t) return undefined;
  const request: DecodeRequest = {
    token: t.token,
    keyPrefix: t.keyPrefix,
    keyPrefixSource: t.keyPrefixSource,
    keyPrefixDetail: t.detail,
  };
  if (t.truncated !== undefined) request.truncated = t.truncated;
  return request;
}

/** The guess's key prefix and origin, when it has one and the user kept its token. */
export function locatedGuess(
  guess: DecodeRequest | { token: string } | undefined,
  token: string,
): DecodeRequest | undefined {
  return guess && 'keyPrefix' in guess && guess.token === token ? guess : undefined;
}

/**
 * The token the user most likely means, with its key prefix when a document says: the selection
 * (or a token inside it), the token under the cursor, or a token on the clipboard (a bare token
 * only: the prefix then comes from the setting).
 */
export async function tokenFromContext(
  tokens: DocumentTokens,
): Promise<DecodeRequest | { token: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const { selection, document } = editor;
    if (!selection.isEmpty) {
      const inside = tokenInSelection(document, selection, tokens);
      if (inside) return inside;
      const selected = document.getText(selection);
      const token = firstTokenIn(selected);
      if (token) return { token };
      // A single-line selection the scanner does not recognise is still what the user pointed at.
      const trimmed = selected.trim();
      if (trimmed && !/[\r\n]/.test(trimmed) && trimmed.length <= maxPrefillChars)
        return { token: trimmed };
    } else {
      const found = tokenAt(document, selection.active, tokens);
      if (found) return found;
    }
  }
  const clipped = firstTokenIn(await readClipboard());
  return clipped === undefined ? undefined : { token: clipped };
}

export function askForToken(
  title: string,
  value: string | undefined,
): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: 'A continue token: the value of metadata.continue, or of ?continue= in a request URL',
    placeHolder: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6...',
    value,
    ignoreFocusOut: true,
    validateInput: (text) =>
      text.trim() ? undefined : 'Enter a continue token (it is not decoded while empty)',
  });
}

export function askForKeyPrefix(title: string, value: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: "The resource's etcd key prefix the apiserver decodes the token against",
    value,
    ignoreFocusOut: true,
    validateInput: (text) => keyPrefixProblem(text),
  });
}

export function askForKey(title: string, keyPrefix: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt:
      'The etcd key the next page starts at (write a NUL byte as \\x00; the apiserver resumes after the last key returned with <last key>\\x00)',
    value: keyPrefix,
    valueSelection: [keyPrefix.length, keyPrefix.length],
    ignoreFocusOut: true,
    validateInput: (text) =>
      text.startsWith(keyPrefix)
        ? undefined
        : `The key must start with the key prefix ${keyPrefix} (upstream: "unable to encode next field: the key and key prefix do not match")`,
  });
}

export function askForResourceVersion(title: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt:
      'The resourceVersion the list was served at (an int64; -1 means "continue at the latest revision")',
    placeHolder: '12345',
    ignoreFocusOut: true,
    validateInput: (text) => resourceVersionProblem(text),
  });
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Why `text` is not an int64 resourceVersion; undefined when it is one. */
export function resourceVersionProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed))
    return `"${text}" is not a resourceVersion: expected an integer such as 12345`;
  const value = BigInt(trimmed);
  if (value < int64Min || value > int64Max)
    return `${trimmed} does not fit in an int64 (the token's rv field)`;
  return undefined;
}

/** Input-box escapes for keys: \x00 (or \0) is a NUL byte, \\ a backslash; anything else is literal. */
export function unescapeKey(text: string): string {
  return text.replace(/\\(x00|0|\\)/g, (_m, what: string) => (what === '\\' ? '\\' : '\u0000'));
}
