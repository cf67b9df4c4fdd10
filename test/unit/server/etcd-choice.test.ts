// Tests for src/server/etcd-choice.ts: parsing --etcd, the in-memory etcd's reported version
// (--etcd-version) checked as a real member's would be, and the log line the check prints; and
// the serve command's usage errors for them (through the bundled CLI).
import * as assert from 'assert';
import {
  memoryEtcdCheck,
  parseEtcdChoice,
  requestWatchProgressLine,
} from '../../../src/server/etcd-choice';
import { runCli } from '../cli/run-cli';

describe('etcd-choice', () => {
  it('--etcd: memory, spawn, or client URLs; a bad URL is named by its position', () => {
    assert.deepStrictEqual(parseEtcdChoice('memory'), { kind: 'memory' });
    assert.deepStrictEqual(parseEtcdChoice(' spawn '), { kind: 'spawn' });
    assert.deepStrictEqual(parseEtcdChoice('http://127.0.0.1:2379, http://127.0.0.1:22379/'), {
      kind: 'servers',
      endpoints: ['http://127.0.0.1:2379', 'http://127.0.0.1:22379'],
    });
    assert.throws(
      () => parseEtcdChoice('http://127.0.0.1:2379,127.0.0.1'),
      /^Error: --etcd: URL 2 "127\.0\.0\.1" is not a URL; expected "spawn", "memory" or etcd client URLs/,
    );
    assert.throws(
      () => parseEtcdChoice('https://127.0.0.1:2379'),
      /etcd over TLS needs client certificates/,
    );
  });

  it("--etcd-version: the storage feature check decides from it as from a real member's", () => {
    // feature_support_checker.go: not below 3.4.31, nor 3.5.0-3.5.12.
    const cases: [string, boolean][] = [
      ['3.4.23', false],
      ['3.4.31', true],
      ['3.5.12', false],
      ['3.5.13', true],
      ['3.6.6', true],
      ['v3.7.0-alpha.0', true],
    ];
    for (const [version, supported] of cases)
      assert.deepStrictEqual(
        memoryEtcdCheck(version),
        { members: [{ endpoint: 'memory', version }], requestWatchProgressSupported: supported },
        version,
      );
    assert.throws(
      () => memoryEtcdCheck('3.4'),
      /^Error: --etcd-version expects an etcd version such as 3\.4\.23 or 3\.6\.6 \(major\.minor\.patch\), got "3\.4"$/,
    );
  });

  it('the log line: what was decided and why, and on a real etcd how to get an in-memory twin', () => {
    const real = {
      members: [
        { endpoint: 'http://127.0.0.1:2379', version: '3.4.23' },
        { endpoint: 'http://127.0.0.1:22379', version: '3.4.23' },
      ],
      requestWatchProgressSupported: false,
    };
    assert.strictEqual(
      requestWatchProgressLine(real),
      'RequestWatchProgress feature is not supported (http://127.0.0.1:2379 etcd 3.4.23, http://127.0.0.1:22379 etcd 3.4.23; ' +
        'it needs etcd >= 3.4.31, and not 3.5.0-3.5.12): as in kube-apiserver, consistent LISTs are read from etcd, not the ' +
        'watch cache, and WatchList requests end with an error (clients fall back to LIST and WATCH); ' +
        'an in-memory run served the same way: listwatch serve --etcd-version 3.4.23',
    );
    // Members of different versions have no one twin; the in-memory etcd is its own.
    const mixed = { ...real, members: [real.members[0], { ...real.members[1], version: '3.5.9' }] };
    assert.ok(!requestWatchProgressLine(mixed).includes('in-memory run'));
    assert.ok(!requestWatchProgressLine(memoryEtcdCheck('3.4.23')).includes('in-memory run'));
    assert.strictEqual(
      requestWatchProgressLine(memoryEtcdCheck('3.6.6')),
      'RequestWatchProgress supported by every endpoint (memory etcd 3.6.6)',
    );
  });

  it('serve: --etcd-version must be a version, and only for the in-memory etcd', () => {
    const bad = runCli(['serve', '--etcd-version', 'latest']);
    assert.strictEqual(bad.code, 2, bad.err);
    assert.match(bad.err, /--etcd-version expects an etcd version such as 3\.4\.23 .*got "latest"/);
    const real = runCli(['serve', '--etcd', 'spawn', '--etcd-version', '3.4.23']);
    assert.strictEqual(real.code, 2, real.err);
    assert.match(
      real.err,
      /--etcd-version is for the in-memory etcd; with --etcd spawn each member reports its own version \(Maintenance Status\)/,
    );
  });
});
