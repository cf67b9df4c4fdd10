// Test harness: polls an assertion until it holds, for what the server does after it answered
// (an event reaching the watch cache, a watcher removed after its client went away). No upstream
// counterpart (upstream tests use wait.PollUntilContextTimeout).

/**
 * How long an assertion may take to hold before it fails with its last error: generous, only so a
 * hung server fails the test instead of hanging the run; never a limit on speed.
 */
const giveUpMs = 60_000;

/** Runs `check` every `intervalMs` until it stops throwing; returns its value. */
export async function eventually<T>(check: () => Promise<T> | T, intervalMs = 50): Promise<T> {
  const giveUpAt = Date.now() + giveUpMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > giveUpAt) throw e;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
