// Tests for src/etcd-client/etcd-process.ts: spawnEtcd starts a member on a loopback port read from
// its log and stop() leaves nothing behind; clear errors for a missing binary and an early exit;
// the log-line parser the cluster harness reuses; stopProcess's SIGKILL after the grace period.
import * as assert from 'assert';
import { spawn } from 'child_process';
import { existsSync } from 'fs';
import {
  clientAddressFromLogLine,
  etcdNotFoundMessage,
  spawnEtcd,
  stopProcess,
} from '../../src/etcd-client/etcd-process';
import { GrpcEtcd } from '../../src/etcd-client/grpc-etcd';
import { alive } from '../harness/process-alive';

describe('spawnEtcd', function () {
  it('serves on a loopback port read from its log; stop() kills it and removes the data dir', async () => {
    const lines: string[] = [];
    const s = await spawnEtcd({ log: (l) => lines.push(l) });
    try {
      assert.strictEqual(s.clientURLs.length, 1);
      assert.match(s.clientURLs[0], /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.notStrictEqual(s.clientURLs[0], 'http://127.0.0.1:2379');
      assert.ok(alive(s.pid));
      assert.ok(existsSync(s.dataDir));
      assert.ok(lines.some((l) => clientAddressFromLogLine(l) !== undefined));
      const etcd = await GrpcEtcd.connect({ endpoints: s.clientURLs });
      assert.strictEqual((await etcd.range({ key: 'x' })).count, 0);
      etcd.close();
    } finally {
      await s.stop();
    }
    assert.strictEqual(alive(s.pid), false, 'the process is gone');
    assert.strictEqual(existsSync(s.dataDir), false, 'the data dir is gone');
    await s.stop();
  });

  it('a missing binary: says how to install etcd-server', async () => {
    await assert.rejects(spawnEtcd({ binary: '/nonexistent/etcd' }), {
      message: etcdNotFoundMessage,
    });
  });

  it('an early exit: the exit code and the last log lines', async () => {
    await assert.rejects(spawnEtcd({ args: ['--no-such-flag'] }), (e: Error) => {
      assert.match(
        e.message,
        /^etcd exited before serving clients \(exit code \d+\); last log lines:\n/,
      );
      assert.match(e.message, /no-such-flag/);
      return true;
    });
  });
});

describe('clientAddressFromLogLine', () => {
  const cases: { line: string; want: { host: string; port: number } | undefined }[] = [
    {
      line: '{"level":"info","ts":"2026-12-01T22:09:33.988Z","caller":"embed/serve.go:145","msg":"serving client traffic insecurely; this is strongly discouraged!","address":"127.0.0.1:35235"}',
      want: { host: '127.0.0.1', port: 35235 },
    },
    {
      line: '2026-12-01 22:09:33.988 N | embed: serving insecure client requests on 127.0.0.1:2379, this is strongly discouraged!',
      want: { host: '127.0.0.1', port: 2379 },
    },
    {
      line: '{"level":"info","msg":"serving peer traffic","address":"127.0.0.1:33209"}',
      want: undefined,
    },
    { line: 'ready to serve client requests', want: undefined },
  ];
  for (const c of cases) {
    it(c.line.slice(0, 60), () => {
      assert.deepStrictEqual(clientAddressFromLogLine(c.line), c.want);
    });
  }
});

describe('stopProcess', () => {
  it('SIGKILL once the grace period passed without an exit', async () => {
    const child = spawn(
      process.execPath,
      ['-e', "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000)"],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    await new Promise((r) => child.stdout.once('data', r));
    await stopProcess(child, 200);
    assert.strictEqual(child.signalCode, 'SIGKILL');
    assert.strictEqual(alive(child.pid as number), false);
  });
});
