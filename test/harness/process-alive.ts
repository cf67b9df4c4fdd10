// Test harness: whether a process still runs (signal 0), for tests that check a child was stopped.
// No upstream counterpart.

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
