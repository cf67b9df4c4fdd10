// Hover over a client-go reflector line in a log (src/import/client-go-log-explanations.ts): what
// happened, the server behaviour that causes it, the client-go versions that print it and what to
// run, as `listwatch explain-log` prints it. In the import chunk: the entry reads the line first
// (readClientGoLogLine) and loads this only for a line client-go printed.
import * as vscode from 'vscode';
import { explainClientGoLogLine } from '../../import/client-go-log-explanations';
import { clientGoLogExplanationMarkdown } from '../../import/client-go-log-explanation-text';

export function provideClientGoLogHover(
  document: vscode.TextDocument,
  position: vscode.Position,
): vscode.Hover | undefined {
  const line = document.lineAt(position.line).text;
  const explained = explainClientGoLogLine(line);
  if (!explained) return undefined;
  const markdown = new vscode.MarkdownString(clientGoLogExplanationMarkdown(explained));
  // The log's text is shown escaped, never as HTML, and no link in it runs anything.
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return new vscode.Hover(
    markdown,
    new vscode.Range(position.line, explained.line.start, position.line, line.length),
  );
}
