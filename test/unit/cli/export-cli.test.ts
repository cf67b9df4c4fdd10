// Tests for `listwatch export` (src/cli/export-command.ts): spawns the bundled dist/cli.js (built
// by `node esbuild.js`) on a trace a scenario run wrote, and checks the file, the messages and the
// exit codes, an unknown format's message included.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, runCli } from './run-cli';

describe('listwatch export', () => {
  let dir = '';
  let trace = '';
  before(() => {
    assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-export-'));
    trace = path.join(dir, 'run.jsonl');
    const r = runCli([
      'scenario',
      'run',
      'serialization-fanout',
      '--set',
      'watchers=3',
      '--set',
      'events=5',
      '--trace',
      trace,
    ]);
    assert.strictEqual(r.code, 0, r.err);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('--format perfetto writes Chrome Trace Event JSON, says its size first and where to open it', () => {
    const out = path.join(dir, 'run.json');
    const r = runCli(['export', '--format', 'perfetto', trace, out]);
    assert.strictEqual(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    const m =
      /^writing (\d+) trace events \(3 watchers, 3 clients, 1 LISTs, (\d+) write→read arrows\) to /.exec(
        lines[0],
      );
    assert.ok(m, lines[0]);
    assert.match(
      lines[1],
      /^wrote .*run\.json \([\d.]+ kB\): open it at https:\/\/ui\.perfetto\.dev/,
    );
    const file = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      traceEvents: Array<{ ph: string; flow_in?: boolean }>;
      displayTimeUnit: string;
    };
    assert.strictEqual(file.traceEvents.length, Number(m[1]));
    assert.strictEqual(file.traceEvents.filter((e) => e.flow_in).length, Number(m[2]));
    assert.strictEqual(file.displayTimeUnit, 'ms');
  });

  it('the trace on stdin (-) gives the same file', () => {
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    assert.strictEqual(runCli(['export', '--format=perfetto', trace, a]).code, 0);
    assert.strictEqual(
      runCli(['export', '--format', 'perfetto', '-', b], fs.readFileSync(trace, 'utf8')).code,
      0,
    );
    assert.strictEqual(fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8'));
  });

  const usage: Array<[string, string[], RegExp]> = [
    [
      'an unknown format',
      ['--format', 'chrome', 'T', 'O'],
      /^listwatch export: unknown format "chrome"; supported formats: perfetto$/m,
    ],
    [
      'no format',
      ['T', 'O'],
      /^listwatch export: name the output format with --format \(one of: perfetto\)$/m,
    ],
    [
      'no output file',
      ['--format', 'perfetto', 'T'],
      /expected a trace file \(or - for stdin\) and an output file, got 1 argument/,
    ],
    [
      'a missing trace',
      ['--format', 'perfetto', 'missing.jsonl', 'O'],
      /^listwatch export: no such file: missing\.jsonl$/m,
    ],
    ['not a trace', ['--format', 'perfetto', 'NOT', 'O'], /not a listwatch trace/],
  ];
  for (const [what, args, message] of usage)
    it(`usage error, exit 2: ${what}`, () => {
      const notTrace = path.join(dir, 'not-a-trace.jsonl');
      fs.writeFileSync(notTrace, '{"hello":"world"}\n');
      const out = path.join(dir, `${what.replace(/\W+/g, '-')}.json`);
      const argv = args.map((a) =>
        a === 'T' ? trace : a === 'O' ? out : a === 'NOT' ? notTrace : a,
      );
      const r = runCli(['export', ...argv]);
      assert.strictEqual(r.code, 2, r.err);
      assert.match(r.err, message);
      assert.match(r.err, /Run 'listwatch export --help' for usage\./);
      assert.ok(!fs.existsSync(out), 'nothing written');
    });

  it('an output that cannot be written: exit 1 with the reason', () => {
    const r = runCli([
      'export',
      '--format',
      'perfetto',
      trace,
      path.join(dir, 'no-such-dir', 'x.json'),
    ]);
    assert.strictEqual(r.code, 1, r.err);
    assert.match(r.err, /^listwatch export: cannot write .*x\.json: ENOENT/m);
  });

  it('--help names the formats; the top-level help lists export', () => {
    const r = runCli(['export', '--help']);
    assert.strictEqual(r.code, 0);
    assert.match(r.out, /^ {2}perfetto {3}Chrome Trace Event JSON/m);
    assert.match(runCli(['--help']).out, /^ {2}export +write a recorded run for another tool/m);
  });
});
