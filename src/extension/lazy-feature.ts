// No upstream counterpart: a feature's code in its own chunk, loaded on first use. The extension
// activates in every window (onStartupFinished, for the local server's autoStart); its entry
// registers every command, view and hover at once but holds none of the heavy code (the server and
// the engine, the scenario runner, import and replay, probe, explain, export, the panel): each
// feature folder's `*-feature.ts` is bundled as dist/extension-<feature>.js (esbuild.js) and loaded
// with `await import(...)` when a command or view first needs it. What has state (the log, the run store, the current run, the
// panel) is made once in the entry and passed into the chunk's factory, never made again there.
import * as vscode from 'vscode';
import type { ExtensionLog } from './shared/output-log';

/** A feature's command handlers by command id (what its chunk's factory returns). */
export type CommandHandlers = Readonly<Record<string, (...args: unknown[]) => unknown>>;

/** A feature's code: loaded once, on the first `get()`. */
export class LazyFeature<T> {
  private loading: Promise<T> | undefined;
  private value: T | undefined;

  constructor(
    /** The feature's name, as the API's loadedFeatures() lists it. */
    readonly name: string,
    private readonly load: () => Promise<T>,
  ) {}

  get(): Promise<T> {
    this.loading ??= this.load().then((value) => (this.value = value));
    return this.loading;
  }

  /** The feature if its code is loaded, else undefined (nothing is loaded by asking). */
  get loaded(): T | undefined {
    return this.value;
  }
}

/**
 * Registers `ids` now, each logged as ExtensionLog.registerCommand logs it (`log` undefined: not
 * logged); the first run loads the feature and every run calls its handler.
 */
export function lazyCommands(
  ids: readonly string[],
  handlers: () => Promise<CommandHandlers>,
  log?: ExtensionLog,
): vscode.Disposable[] {
  return ids.map((id) => {
    const run = async (...args: unknown[]) => {
      const handler = (await handlers())[id];
      if (!handler) throw new Error(`command ${id} has no handler in its feature`);
      return handler(...args);
    };
    return log ? log.registerCommand(id, run) : vscode.commands.registerCommand(id, run);
  });
}
