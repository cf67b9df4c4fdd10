// Tests for the guarded runs of `listwatch scenario run` and `scenario estimate`
// (src/cli/scenario-command.ts): spawns the bundled dist/cli.js and checks that a big run is not
// started without --yes (exit 2, the estimate in text or JSON, no trace file), that the trace cap
// stops a run and keeps it marked truncated (exit 1), and the options' checks. No timing asserts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, root, runCli } from './run-cli';

const bigRun = [
  'scenario',
  'run',
  'watch-cache-resize',
  '--set',
  'burstEventsPerSecond=20000',
  '--set',
  'burstSeconds=3600',
];

describe('listwatch scenario: guarded runs', () => {
  let dir = '';
  before(() => {
    assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-guard-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a big run is not started without --yes: exit 2, the estimate and how to go on', () => {
    const trace = path.join(dir, 'big.jsonl');
    const r = runCli([...bigRun, '--trace', trace]);
    assert.strictEqual(r.code, 2, r.err);
    assert.strictEqual(r.out, '', 'nothing on stdout');
    for (const text of [
      'not started: watch-cache-resize with these parameters is a big run',
      'expected wall time',
      'etcd writes      72,000,700',
      'deliveries',
      'virtual time     1:10:01',
      'trace            about 18.0 GiB',
      'memory',
      'Its trace would reach the cap of 1.0 GiB (--max-trace-mb)',
      'add --yes to run it anyway',
    ])
      assert.ok(r.err.includes(text), `${JSON.stringify(text)} in:\n${r.err}`);
    assert.ok(!fs.existsSync(trace), 'no trace file was created');
  });

  it('--json prints the refusal and the estimate as one JSON object', () => {
    const r = runCli([...bigRun, '--json']);
    assert.strictEqual(r.code, 2, r.err);
    const j = JSON.parse(r.out) as {
      refused: boolean;
      reasons: string[];
      estimate: { scenario: string; etcdWrites: number; virtualMs: number; traceBytes: number };
      limits: { wallSeconds: number; traceMiB: number; memoryMiB: number };
      hint: string;
    };
    assert.strictEqual(j.refused, true);
    assert.strictEqual(j.estimate.scenario, 'watch-cache-resize');
    assert.strictEqual(j.estimate.etcdWrites, 72_000_700);
    assert.strictEqual(j.estimate.virtualMs, 4_201_000);
    assert.ok(
      j.reasons.some((x) => x.startsWith('expected wall time')),
      j.reasons.join('; '),
    );
    assert.ok(
      !j.reasons.some((x) => x.startsWith('trace')),
      'without --trace the trace size is no reason',
    );
    assert.deepStrictEqual(j.limits, { wallSeconds: 60, traceMiB: 256, memoryMiB: 1024 });
    assert.match(j.hint, /--yes/);
  });

  it('a default run starts without --yes', () => {
    const r = runCli(['scenario', 'run', 'read-your-writes', '--json']);
    assert.strictEqual(r.code, 0, r.err);
    assert.strictEqual((JSON.parse(r.out) as { scenario: string }).scenario, 'read-your-writes');
  });

  it('scenario estimate prints the estimate without running, and says whether --yes is needed', () => {
    const text = runCli(['scenario', 'estimate', 'watch-cache-resize']);
    assert.strictEqual(text.code, 0, text.err);
    assert.match(text.out, /etcd writes {6}60,700/);
    assert.match(text.out, /it runs without --yes/);
    const j = runCli(['scenario', 'estimate', ...bigRun.slice(2), '--trace', 'x', '--json']);
    assert.strictEqual(j.code, 0, j.err);
    const got = JSON.parse(j.out) as { estimate: { etcdWrites: number }; needsYes: boolean };
    assert.strictEqual(got.estimate.etcdWrites, 72_000_700);
    assert.strictEqual(got.needsYes, true);
    assert.ok(!fs.existsSync(path.join(root, 'x')), 'estimate writes no trace');
  });

  it('--yes with --max-trace-mb: the run stops at the cap, exit 1, trace and report kept, marked truncated', () => {
    const trace = path.join(dir, 'capped.jsonl');
    const r = runCli([
      'scenario',
      'run',
      'watch-cache-resize',
      '--set',
      'burstEventsPerSecond=2000',
      '--yes',
      '--max-trace-mb',
      '1',
      '--trace',
      trace,
    ]);
    assert.strictEqual(r.code, 1, r.err);
    assert.match(r.err, /the trace reached its cap of 1\.0 MiB \(1\.0 MiB written\) at virtual /);
    assert.match(r.err, /Raise --max-trace-mb/);
    assert.match(r.out, /TRUNCATED: the trace reached its cap/);
    assert.match(r.out, /\(truncated\)\.\n$/);
    const lines = fs.readFileSync(trace, 'utf8').trimEnd().split('\n');
    assert.ok(
      lines.some((l) => l.includes('"action":"phase","name":"truncated"')),
      'the truncated phase is in the trace',
    );
    assert.match(lines[lines.length - 1], /"kind":"metrics"/, 'it ends with the final metrics');
    const report = runCli(['report', trace]);
    assert.match(report.out, /TRUNCATED: the trace reached its cap/, 'report reads it back so');
  });

  it('--max-trace-mb takes a whole number of MiB', () => {
    for (const bad of ['-1', '1.5', 'lots']) {
      const r = runCli(['scenario', 'run', 'read-your-writes', `--max-trace-mb=${bad}`]);
      assert.strictEqual(r.code, 2, `${bad}: ${r.err}`);
      assert.match(r.err, /--max-trace-mb expects a whole number of MiB \(0: no cap\)/);
    }
  });
});
