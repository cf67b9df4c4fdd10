// Long work (a scenario run, reading a big trace) behind a cancellable progress notification: the
// Cancel button aborts an AbortSignal the work checks, progress is reported as it comes, and the
// inspector (when open) shows the same progress. No upstream counterpart.
import * as vscode from 'vscode';

export type ProgressReporter = (fraction: number, message: string) => void;

/** Whether an error is a cancellation (AbortError), which is not a failure to report. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || /cancel/i.test(error.name));
}

/**
 * Runs `work` with a progress notification titled `title`. Resolves to its result, or to
 * undefined when the user cancelled (the notification's Cancel, or `options.signal`). Other
 * errors are rethrown.
 */
export async function withCancellableProgress<T>(
  title: string,
  work: (signal: AbortSignal, report: ProgressReporter) => Promise<T>,
  mirror?: ProgressReporter & { done?(): void },
  options: { quick?: boolean; signal?: AbortSignal } = {},
): Promise<T | undefined> {
  // Work known to be quick (a small trace) shows in the status bar, not as a notification with a
  // Cancel button that would only flash.
  const location = options.quick
    ? vscode.ProgressLocation.Window
    : vscode.ProgressLocation.Notification;
  return vscode.window.withProgress(
    { location, title, cancellable: !options.quick },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      // Another way to cancel (a command), beside the notification's button.
      const abort = (): void => controller.abort();
      if (options.signal?.aborted) abort();
      options.signal?.addEventListener('abort', abort);
      let reported = 0;
      const report: ProgressReporter = (fraction, message) => {
        const percent = Math.max(0, Math.min(100, Math.round(fraction * 100)));
        progress.report({ increment: Math.max(0, percent - reported), message });
        reported = Math.max(reported, percent);
        mirror?.(fraction, message);
      };
      try {
        return await work(controller.signal, report);
      } catch (error) {
        if (controller.signal.aborted || isAbort(error)) return undefined;
        throw error;
      } finally {
        subscription.dispose();
        options.signal?.removeEventListener('abort', abort);
        mirror?.done?.();
      }
    },
  );
}
