// `listwatch conform` (the real CLI) against `listwatch serve --etcd spawn`: over a real etcd,
// every check of the battery passes, as it does on the in-memory etcd (test/server/conform.test.ts).
// No upstream counterpart.
import * as assert from 'assert';
import { ServeProcess } from '../server/harness/serve-process';
import { allCheckIds, conformCli, notPassed, reportOf } from '../server/harness/conform-cli';

describe('listwatch conform against listwatch serve --etcd spawn', function () {
  let server: ServeProcess | undefined;

  before(async () => {
    server = await ServeProcess.start(['--etcd', 'spawn']);
  });
  after(async () => {
    await server?.stop();
  });

  it('passes every check over a real etcd, exit 0', async () => {
    const run = await conformCli(['--kubeconfig', server!.info.kubeconfig, '--json']);
    const r = reportOf(run);
    assert.strictEqual(run.code, 0, notPassed(r));
    assert.deepStrictEqual(
      r.checks.map((c) => [c.id, c.status]),
      allCheckIds.map((id) => [id, 'pass']),
      notPassed(r),
    );
  });
});
