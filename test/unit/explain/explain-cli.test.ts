// Tests for `listwatch explain` (src/cli/explain-command.ts): the bundled dist/cli.js, its exit
// codes, the --json object and the messages for a bad --state, URL or state.
import * as assert from 'assert';
import { runCli } from '../cli/run-cli';

describe('listwatch explain (the built CLI)', () => {
  it('--json prints one object with the documented fields', () => {
    const r = runCli([
      'explain',
      '/api/v1/namespaces/default/pods?limit=500',
      '--objects',
      '3',
      '--json',
    ]);
    assert.strictEqual(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.strictEqual(lines.length, 1);
    const e = JSON.parse(lines[0]);
    for (const k of [
      'kind',
      'servedBy',
      'rule',
      'limitHonoured',
      'consistentRead',
      'mayWait',
      'etcdCalls',
      'assumed',
      'possibleErrors',
    ])
      assert.ok(k in e, k);
    assert.strictEqual(e.kind, 'list');
    assert.strictEqual(e.servedBy, 'cache');
    assert.strictEqual(e.limitHonoured, true);
    assert.strictEqual(e.assumed.etcdRV, 4);
  });

  it('prints the explanation as lines, with the assumptions', () => {
    const r = runCli([
      'explain',
      '/api/v1/pods?watch=true&resourceVersion=1',
      '--state',
      'cacheReady=false',
    ]);
    assert.strictEqual(r.code, 0, r.err);
    assert.match(r.out, /^WATCH v1 pods \(all namespaces\) \(profile 1\.36\)$/m);
    assert.match(r.out, /error: {7}429 TooManyRequests: storage is \(re\)initializing/);
    assert.match(r.out, /assumed: {5}cacheReady=false,/);
  });

  it('a bad --state names the key, the value and what was expected (exit 2)', () => {
    const r = runCli(['explain', '/api/v1/pods', '--state', 'cacheReady=maybe']);
    assert.strictEqual(r.code, 2);
    assert.strictEqual(
      r.err,
      'listwatch explain: invalid --state: state cacheReady="maybe": expected a boolean (true or false)\n' +
        "Run 'listwatch explain --help' for usage.\n",
    );
  });

  it('an unreachable state or a URL that is not a LIST/WATCH exits 1 with the reason', () => {
    const s = runCli(['explain', '/api/v1/pods', '--state', 'cacheRV=9,etcdRV=3']);
    assert.strictEqual(s.code, 1);
    assert.match(s.err, /cacheRV=9 is ahead of etcdRV=3/);
    const u = runCli(['explain', '/healthz']);
    assert.strictEqual(u.code, 1);
    assert.match(u.err, /is not an API resource path/);
  });

  it('--objects is capped', () => {
    const r = runCli(['explain', '/api/v1/pods', '--objects', '100001']);
    assert.strictEqual(r.code, 2);
    assert.match(r.err, /expected a whole number from 0 to 100000/);
  });
});
