// Asking the user for a token, a key prefix, a key or a resourceVersion: input boxes pre-filled
// from the editor (selection, or the token under the cursor) or from the clipboard.
import * as vscode from 'vscode';
import { findContinueTokens } from '../scan/continue-token-scan';
import { keyPrefixProblem } from './key-prefix-setting';
import { tokenAtInWindow } from './line-window';

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

/**
 * The token the user most likely means: the selection (or a token inside it), the token under the
 * cursor, or a token on the clipboard.
 */
export async function tokenFromContext(): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const { selection, document } = editor;
    if (!selection.isEmpty) {
      const selected = document.getText(selection);
      const token = firstTokenIn(selected);
      if (token) return token;
      // A single-line selection the scanner does not recognise is still what the user pointed at.
      const trimmed = selected.trim();
      if (trimmed && !/[\r\n]/.test(trimmed) && trimmed.length <= maxPrefillChars) return trimmed;
    } else {
      const found = tokenAtInWindow(
        document.lineAt(selection.active.line).text,
        selection.active.character,
      );
      if (found) return found.token;
    }
  }
  return firstTokenIn(await readClipboard());
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
