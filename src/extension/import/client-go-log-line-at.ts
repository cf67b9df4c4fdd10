// No upstream counterpart: the cheap test the entry makes before the client-go log hover loads the
// import chunk (as request-url-at.ts does for the explain chunk): which documents it serves, and
// whether the line under the cursor is one client-go's reflector printed.
import type * as vscode from 'vscode';
import { readClientGoLogLine, type ClientGoLogLine } from '../../import/client-go-log-call';

/** Logs, as Import Logs takes them: the Log language, and `.log` files by name (hosts without it). */
export const clientGoLogDocumentSelector: vscode.DocumentSelector = [
  { language: 'log' },
  { pattern: '**/*.log' },
];

/** The reflector line at `line`, if client-go printed it. */
export function clientGoLogLineAt(line: string): ClientGoLogLine | undefined {
  return readClientGoLogLine(line);
}
