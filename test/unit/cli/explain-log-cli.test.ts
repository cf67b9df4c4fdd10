// End to end through the built CLI (dist/cli.js): `listwatch explain-log` on client-go logs (the
// fixtures of test/fixtures/import and a WatchList log whose end bookmark never came), its counts,
// its JSON, stdin, and its exit codes (0 something recognised, 1 nothing, 2 usage or unreadable).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './run-cli';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-explain-log-'));
const stuck = path.join(tmp, 'stuck-informer.log');
const other = path.join(tmp, 'other.log');
const f35 = 'k8s.io/client-go/informers/factory.go:160';
const stuckLines = [
  `I0312 16:00:00.000200    7701 reflector.go:411] "Listing and watching" type="*v1.ConfigMap" reflector="${f35}"`,
  `I0312 16:00:10.000300    7701 reflector.go:1159] "Warning: event bookmark expired" err="${f35}: awaiting required bookmark event for initial events stream, no events received for 10.000712042s"`,
  `I0312 16:00:20.000400    7701 reflector.go:1159] "Warning: event bookmark expired" err="${f35}: awaiting required bookmark event for initial events stream, no events received for 20.001s"`,
  `I0312 16:08:12.100500    7701 reflector.go:991] "Watch close" reflector="${f35}" type="*v1.ConfigMap" totalItems=0`,
];

/** [case, args, stdin, exit code, stdout pattern, stderr pattern]. */
const cases: Array<[string, string[], string, number, RegExp, RegExp]> = [
  [
    'a stuck WatchList informer',
    ['explain-log', stuck],
    '',
    0,
    /^line 2: I0312 16:00:10\.000300 .*\n {2}problem: A WatchList watch has received nothing yet.*\[initial-events-end-not-started\]\n(.|\n)* {2}check: listwatch conform --kubeconfig KUBECONFIG\n(.|\n)*listwatch fault --kubeconfig K omit-end-bookmark\n(.|\n)*\nline 4: (.|\n)*\n\n4 lines read, 3 recognised \(2 problems, 1 healthy\)\n$/,
    /^$/,
  ],
  [
    'the printf fixture of 0.17–0.30',
    ['explain-log', 'test/fixtures/import/client-go-printf-0.17-0.30.log'],
    '',
    0,
    /\[continue-expired\](.|\n)*\[watch-backoff\](.|\n)*\n38 lines read, 10 recognised \(8 problems, 2 healthy\)\n$/,
    /^$/,
  ],
  [
    'stdin',
    ['explain-log', '-'],
    stuckLines.join('\n') + '\n',
    0,
    /\n4 lines read, 3 recognised \(2 problems, 1 healthy\)\n$/,
    /^$/,
  ],
  [
    'no reflector line',
    ['explain-log', other],
    '',
    1,
    /^2 lines read, 0 recognised\n$/,
    /no client-go reflector line found in .*other\.log/,
  ],
  ['a missing file', ['explain-log', path.join(tmp, 'nope.log')], '', 2, /^$/, /no such file: /],
  ['a directory', ['explain-log', tmp], '', 2, /^$/, /is a directory, not a log file/],
  ['no file', ['explain-log'], '', 2, /^$/, /no log given/],
  ['two files', ['explain-log', stuck, other], '', 2, /^$/, /one log at a time/],
  ['an unknown option', ['explain-log', '--yaml', stuck], '', 2, /^$/, /--yaml/],
];

describe('listwatch explain-log', () => {
  before(() => {
    fs.writeFileSync(stuck, stuckLines.join('\n') + '\n');
    fs.writeFileSync(other, 'hello\nI0312 16:00:00.000200    7701 main.go:1] starting\n');
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  for (const [name, args, input, code, out, err] of cases) {
    it(`${name}: exit ${code}`, () => {
      const r = runCli(args, input);
      assert.strictEqual(r.code, code, r.err);
      assert.match(r.out, out);
      assert.match(r.err, err);
    });
  }

  it('--json: one object with the counts and every recognised line', () => {
    const r = runCli(['explain-log', '--json', stuck]);
    assert.strictEqual(r.code, 0, r.err);
    const j = JSON.parse(r.out) as {
      file: string;
      linesRead: number;
      recognised: number;
      lines: Array<{ line: number; id: string; healthy: boolean; reproduce: string[] }>;
    };
    assert.strictEqual(j.file, stuck);
    assert.strictEqual(j.linesRead, 4);
    assert.strictEqual(j.recognised, 3);
    assert.deepStrictEqual(
      j.lines.map((l) => [l.line, l.id, l.healthy]),
      [
        [2, 'initial-events-end-not-started', false],
        [3, 'initial-events-end-not-started', false],
        [4, 'watch-close', true],
      ],
    );
    assert.ok(j.lines[0].reproduce.some((c) => c.endsWith('omit-end-bookmark')));
  });

  it('is listed in listwatch --help', () => {
    const r = runCli(['--help']);
    assert.match(r.out, /^ {2}explain-log +explain a log's client-go reflector lines/m);
  });
});
