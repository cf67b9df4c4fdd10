// Benchmark: `listwatch serve --json` (dist/cli.js) from its spawn to its ready line (the first
// stdout line, printed once it serves), next to a bare Node HTTP server started the same way
// (bench/serve-start-bare.ts: a node process of its own that prints a line once it listens),
// alternated in the same run; the median of each. Goal: at most 2x the bare server.
//   node esbuild.js && node out/bench/serve-start.js [starts]
import { spawn } from 'child_process';
import { existsSync, mkdtempSync, rmSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fmtMs, median, runAsScript, scriptArgs, type BenchRow } from './bench-util';

/** Spawns `argv` and resolves with the ms until its first stdout line; then stops it. */
function timeToReadyLine(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      if (out.includes('\n')) return;
      out += d.toString();
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
    child.once('exit', (code) => {
      if (!out.includes('\n')) reject(new Error(`${argv.join(' ')} exited (${code}): ${err}`));
    });
  });
}

export async function runServeStart(starts = 9, log = console.log): Promise<BenchRow[]> {
  const cli = path.join(__dirname, '..', '..', 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} not built: run \`node esbuild.js\` first`);
  const bare = path.join(__dirname, 'serve-start-bare.js');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'listwatch-serve-start-'));
  try {
    const serve = ['serve', '--json', '--port', '0', '--kubeconfig', path.join(dir, 'kubeconfig')];
    // One of each first: the file cache warm for both.
    await timeToReadyLine([cli, ...serve]);
    await timeToReadyLine([bare]);
    const ours: number[] = [];
    const base: number[] = [];
    for (let k = 0; k < starts; k++) {
      ours.push(await timeToReadyLine([cli, ...serve]));
      base.push(await timeToReadyLine([bare]));
    }
    const o = median(ours);
    const b = median(base);
    log(
      `serve-start: listwatch serve --json to its ready line, median of ${starts}: ${fmtMs(o)}; a bare Node HTTP server: ${fmtMs(b)}`,
    );
    return [
      {
        bench: 'serve-start',
        measure: 'listwatch serve: spawn to ready line / bare Node HTTP server',
        figure: fmtMs(o),
        baseline: fmtMs(b),
        ratio: o / b,
        goal: { text: '<= 2', met: o / b <= 2 },
        note: `median of ${starts} alternated starts`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runAsScript('serve-start', () =>
  runServeStart(scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined),
);
