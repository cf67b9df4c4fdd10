// The "List/Watch" output channel: what the extension did (the commands run with their arguments,
// runs started, finished or cancelled with their sizes, files opened, errors with their input), so
// that a user can tell what happened and attach it to a report. One LogOutputChannel, created once
// in activate(). No upstream counterpart.
import * as vscode from 'vscode';
import { visibleArgument } from './visible-argument';

export const outputChannelName = 'List/Watch';

// The extension-host tests read the latest lines here (an output channel's text is not readable
// through the API); older lines are dropped.
const keptLines = 500;

export type LogLevel = 'info' | 'warn' | 'error';

export class ExtensionLog implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly kept: string[] = [];

  constructor(channel: vscode.LogOutputChannel) {
    this.channel = channel;
  }

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  /** The latest lines as `[level] message`, oldest first. */
  lines(): string[] {
    return [...this.kept];
  }

  /** Shows the channel (e.g. from an error message's "Show Log" button). */
  show(): void {
    this.channel.show(true);
  }

  /**
   * Registers a command whose every run is logged with its arguments; a failure is logged with
   * the same arguments (the input that failed) and thrown on to the caller as before.
   */
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): vscode.Disposable {
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      const call = `${id}(${withoutTrailingUndefined(args).map(visibleArgument).join(', ')})`;
      this.info(`command ${call}`);
      try {
        return await handler(...args);
      } catch (error) {
        this.error(`command ${call} failed: ${error instanceof Error ? error.message : error}`);
        throw error;
      }
    });
  }

  private write(level: LogLevel, message: string): void {
    this.channel[level](message);
    this.kept.push(`[${level}] ${message}`);
    if (this.kept.length > keptLines) this.kept.splice(0, this.kept.length - keptLines);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

function withoutTrailingUndefined(args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end--;
  return args.slice(0, end);
}

/** The extension's one log: the channel is made here, once. */
export function createExtensionLog(): ExtensionLog {
  return new ExtensionLog(vscode.window.createOutputChannel(outputChannelName, { log: true }));
}
