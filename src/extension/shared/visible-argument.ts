// A command argument as the output channel shows it: short, one line, control characters escaped,
// and a view node named by what it stands for (a run, a scenario, a token), not dumped whole.
// No upstream counterpart.
import * as vscode from 'vscode';

// Tokens and paths stay readable; a pasted log does not flood the channel.
const maxArgumentChars = 120;

function shortened(text: string): string {
  return text.length > maxArgumentChars ? `${text.slice(0, maxArgumentChars - 1)}…` : text;
}

/** What a view node or plain object is about, when it says. */
function nodeName(value: Record<string, unknown>): string | undefined {
  const field = (o: unknown, key: string): unknown =>
    o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  switch (value.kind) {
    case 'run':
      return `run ${String(field(value.run, 'id'))}`;
    case 'scenario':
    case 'parameter':
      return `scenario ${String(field(value.scenario, 'name'))}`;
    case 'watcher':
      return `watcher ${String(field(value.watcher, 'id'))}`;
    case 'token':
      return `token ${shortened(String(field(value.entry, 'token')))}`;
    case 'field':
      return `token ${shortened(String(field(value.parent, 'token')))}`;
    default:
      return undefined;
  }
}

export function visibleArgument(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(shortened(value));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (value instanceof vscode.Uri)
    return value.scheme === 'file' ? value.fsPath : shortened(value.toString());
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (value && typeof value === 'object') {
    const named = nodeName(value as Record<string, unknown>);
    if (named) return named;
    try {
      return shortened(JSON.stringify(value));
    } catch {
      return '{…}';
    }
  }
  return String(value);
}
