// Test harness: `node dist/cli.js conform …` as a child process (the real CLI: its exit status,
// stdout and stderr), shared by the server suite and the etcd suite. No upstream counterpart.
import { execFile } from 'child_process';
import * as path from 'path';
import { projectRoot } from '../../harness/paths';
import type { ConformReport } from '../../../src/conform/conform-check';
export { allCheckIds } from '../../harness/conform-check-ids';

export interface ConformCliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `listwatch conform ...args` to its end. */
export function conformCli(args: readonly string[]): Promise<ConformCliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(projectRoot(), 'dist', 'cli.js'), 'conform', ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? Number((err as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `--json`'s report, or a failure naming what came instead. */
export function reportOf(run: ConformCliRun): ConformReport {
  try {
    return JSON.parse(run.stdout) as ConformReport;
  } catch {
    throw new Error(
      `conform --json printed no JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`,
    );
  }
}

/** The checks that did not pass, one line each (for an assertion's message). */
export function notPassed(r: ConformReport): string {
  return r.checks
    .filter((c) => c.status !== 'pass')
    .map((c) => `${c.status} ${c.id}: ${c.got}`)
    .join('\n');
}
