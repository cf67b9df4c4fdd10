// Tests for the `listwatch scenario`, `replay` and `report` subcommands (src/cli/scenario-command.ts,
// replay-command.ts, run-report.ts): spawns the bundled dist/cli.js (built by `node esbuild.js`) and
// checks exit codes, the --json shape, the trace file, replay and report.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cli, runCli } from './run-cli';

describe('listwatch scenario / replay / report', () => {
  let dir = '';
  before(() => {
    assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run `node esbuild.js` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-cli-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('scenario list names every scenario with its parameters and defaults', () => {
    const r = runCli(['scenario', 'list']);
    assert.strictEqual(r.code, 0, r.err);
    for (const name of [
      'selector-death-spiral',
      'read-your-writes',
      'bookmark-heartbeats',
      'watchlist-starvation',
      'serialization-fanout',
      'watch-cache-resize',
      'rangestream-fallback',
      'slow-watcher-termination',
    ]) {
      assert.match(r.out, new RegExp(`^${name} — `, 'm'), name);
    }
    assert.match(r.out, /^ {4}objects +100000 +Pods in etcd/m);
    assert.match(r.out, /^ {4}contentTypes +json,protobuf +Comma-separated/m);
    const j = runCli(['scenario', 'list', '--json']);
    assert.strictEqual(JSON.parse(j.out).length, 8);
  });

  it('scenario run --json: one object with scenario, seed, resolved params, Prometheus metrics and the lists section', () => {
    const r = runCli([
      'scenario',
      'run',
      'selector-death-spiral',
      '--set',
      'objects=5000',
      '--set=limit=20',
      '--seed',
      '9',
      '--json',
    ]);
    assert.strictEqual(r.code, 0, r.err);
    assert.strictEqual(r.err, '', 'no progress on a non-terminal stderr');
    const j = JSON.parse(r.out);
    assert.deepStrictEqual(
      [j.scenario, j.seed, j.params],
      [
        'selector-death-spiral',
        9,
        {
          objects: 5000,
          matchEvery: 100,
          limit: 20,
          pages: 1,
          profile: '1.36',
          etcdLatency: 'measured',
          etcdLatencyScale: 1,
        },
      ],
    );
    assert.strictEqual(
      j.metrics['apiserver_storage_list_fetched_objects_total{group="",resource="pods"}'],
      j.lists[0].fetched,
    );
    for (const k of Object.keys(j.metrics))
      assert.match(k, /^[a-z_:]+(\{([a-z_]+="[^"]*",)*[a-z_]+="[^"]*"\})?$/, k);
    const l = j.lists[0];
    for (const k of [
      'etcdRequests',
      'fetched',
      'evaluated',
      'returned',
      'continue',
      'remainingItemCount',
    ])
      assert.ok(k in l, `lists[0].${k}`);
    assert.deepStrictEqual(
      l.etcdRequests.map((q: { limit: number }) => q.limit),
      [20, 40, 80, 160, 320, 640, 1280],
    );
    assert.ok(l.etcdRequests.every((q: { kvs: number }) => typeof q.kvs === 'number'));
    assert.strictEqual(l.remainingItemCount, null);
    assert.strictEqual(j.summary.facts.etcdCalls, 7);
  });

  it('scenario run --json sections: watchers, serialization, capacity', () => {
    const w = JSON.parse(
      runCli([
        'scenario',
        'run',
        'slow-watcher-termination',
        '--set',
        'fastWatchers=2',
        '--set',
        'slowWatchers=1',
        '--json',
      ]).out,
    );
    for (const k of [
      'id',
      'states',
      'bookmarksReceived',
      'bookmarksDropped',
      'terminated',
      'closeReason',
    ])
      assert.ok(k in w.watchers[0], `watchers[0].${k}`);
    assert.ok(
      w.watchers[0].states.every(
        (s: { at: number; state: string }) =>
          typeof s.at === 'number' && typeof s.state === 'string',
      ),
    );
    assert.ok(
      w.metrics['apiserver_watch_cache_events_dispatched_total{group="",resource="pods"}'] > 0,
    );
    const s = JSON.parse(
      runCli([
        'scenario',
        'run',
        'serialization-fanout',
        '--set',
        'watchers=4',
        '--set',
        'events=3',
        '--json',
      ]).out,
    );
    assert.deepStrictEqual(
      [
        s.serialization.encodes,
        s.serialization.hits,
        s.serialization.lazyDeepCopies,
        s.serialization.invalidations,
      ],
      [6, 6, 1, 0],
    );
    assert.strictEqual(Object.keys(s.serialization.perIdentifier).length, 2);
    const c = JSON.parse(
      runCli([
        'scenario',
        'run',
        'watch-cache-resize',
        '--set',
        'burstEventsPerSecond=20',
        '--set',
        'burstSeconds=20',
        '--set',
        'quietSeconds=5',
        '--set',
        'lateWatcherDelaySeconds=10',
        '--json',
      ]).out,
    );
    // 400 burst events fill 100, 200, 400 within the window; the first quiet event finds 400 full and fresh.
    assert.deepStrictEqual(
      c.capacity.map((p: { capacity: number }) => p.capacity),
      [100, 200, 400, 800],
    );
    assert.ok(
      c.capacity.every(
        (p: { at: number; change: string }) =>
          typeof p.at === 'number' && ['initial', 'grow', 'shrink'].includes(p.change),
      ),
    );
  });

  it('the text report reads like a report', () => {
    const r = runCli(['scenario', 'run', 'rangestream-fallback', '--set', 'lists=12']);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(r.out, /^rangestream-fallback — etcd RangeStream lists/);
    assert.match(r.out, /profile 1\.37 · seed 1 · /);
    assert.match(r.out, /\n {2}at +list +stream decision/);
    assert.match(r.out, /\nKey numbers\n/);
    assert.match(r.out, /\n {2}fallbacks +2\n/);
  });

  const usage: Array<[string, string[], RegExp]> = [
    [
      'an unknown scenario',
      ['scenario', 'run', 'nope'],
      /unknown scenario "nope"; expected one of: selector-death-spiral/,
    ],
    [
      'an unknown parameter',
      ['scenario', 'run', 'read-your-writes', '--set', 'lag=5'],
      /unknown parameter "lag"/,
    ],
    [
      'a bad value',
      ['scenario', 'run', 'read-your-writes', '--set', 'readers=many'],
      /parameter "readers" expects a whole number from 1 to 1000, got "many"/,
    ],
    [
      '--set without =',
      ['scenario', 'run', 'read-your-writes', '--set', 'readers'],
      /--set expects name=value, got "readers"/,
    ],
    [
      'a bad seed',
      ['scenario', 'run', 'read-your-writes', '--seed', '-1'],
      /--seed expects a whole number from 0 to 4294967295, got "-1"/,
    ],
    ['no scenario', ['scenario', 'run'], /name a scenario/],
    ['no subcommand', ['scenario'], /expected a subcommand, list, estimate or run/],
    ['replay without a file', ['replay'], /name a trace file/],
    [
      'replay of a missing file',
      ['replay', '/nonexistent/t.jsonl'],
      /no such file: \/nonexistent\/t\.jsonl/,
    ],
  ];
  for (const [name, args, re] of usage) {
    it(`exits 2 for ${name}`, () => {
      const r = runCli(args);
      assert.strictEqual(r.code, 2, `${name}: ${r.out}${r.err}`);
      assert.match(r.err, re, name);
    });
  }

  it('--trace writes a trace that replays (exit 0), reports the same, and differs once changed (exit 1)', () => {
    const trace = path.join(dir, 't.jsonl');
    const r = runCli([
      'scenario',
      'run',
      'bookmark-heartbeats',
      '--set',
      'watchers=10',
      '--set',
      'minutes=1',
      '--trace',
      trace,
    ]);
    assert.strictEqual(r.code, 0, r.err);
    const lines = fs.readFileSync(trace, 'utf8').split('\n');
    assert.strictEqual(lines.pop(), '', 'ends with a newline');
    assert.deepStrictEqual(JSON.parse(lines[0]), {
      format: 'listwatch-trace',
      version: 2,
      scenario: 'bookmark-heartbeats',
      profile: '1.36',
      seed: 1,
      params: {
        watchers: 10,
        minutes: 1,
        timeoutSeconds: 0,
        writesPerSecond: 1,
        etcdLatency: 'measured',
        etcdLatencyScale: 1,
      },
    });
    assert.ok(
      lines.slice(1).every((l) => ['input', 'event', 'metrics'].includes(JSON.parse(l).kind)),
    );
    const rep = runCli(['replay', trace]);
    assert.strictEqual(rep.code, 0, rep.out + rep.err);
    assert.match(
      rep.out,
      new RegExp(
        `^reproduced: bookmark-heartbeats \\(seed 1, .*\\): all ${lines.length} lines identical\\.\\n$`,
      ),
    );
    const report = runCli(['report', trace]);
    assert.strictEqual(report.code, 0, report.err);
    assert.strictEqual(
      report.out,
      r.out.replace(`Trace written to ${trace}.\n`, ''),
      'report prints what the run printed',
    );
    const reportJson = JSON.parse(runCli(['report', trace, '--json']).out);
    assert.strictEqual(reportJson.watchers.length, 10);
    lines[30] = lines[30].replace(/"at":(\d+)/, (_, n) => `"at":${Number(n) + 1}`);
    fs.writeFileSync(trace, lines.join('\n') + '\n');
    const diff = runCli(['replay', trace]);
    assert.strictEqual(diff.code, 1, diff.out + diff.err);
    assert.match(
      diff.out,
      /^differs: .*: 30 lines identical, then line 31 differs\.\n {2}recorded: /,
    );
  });

  it('report counts damaged lines and names the first; replay of a non-trace is a usage error', () => {
    const trace = path.join(dir, 'bad.jsonl');
    const good = path.join(dir, 'good.jsonl');
    runCli(['scenario', 'run', 'read-your-writes', '--trace', good]);
    const lines = fs.readFileSync(good, 'utf8').split('\n');
    lines.splice(3, 0, '{"kind":', 'hello');
    fs.writeFileSync(trace, lines.join('\n'));
    const r = runCli(['report', trace]);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(r.err, /2 line\(s\) of .*bad\.jsonl rejected; first: line 4: not JSON/);
    assert.match(
      r.out,
      /Warning: 2 trace line\(s\) rejected:\n {2}line 4: not JSON.*\n {2}line 5: not JSON/,
    );
    fs.writeFileSync(trace, '{"format":"har"}\n');
    const rep = runCli(['replay', trace]);
    assert.strictEqual(rep.code, 2);
    assert.match(rep.err, /bad\.jsonl: line 1: not a listwatch trace/);
    const stdin = runCli(['report', '-'], fs.readFileSync(good, 'utf8'));
    assert.strictEqual(stdin.code, 0, stdin.err);
    assert.match(stdin.out, /^read-your-writes — /);
  });
});
