// The Kubernetes Python client (Debian's python3-kubernetes, `npm run test:setup` installs it)
// against `listwatch serve`: its paged LIST (limit and continue, remainingItemCount) and its watch
// from the LIST's resourceVersion, which sees a pod created later. No upstream counterpart.
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as path from 'path';
import { projectRoot } from '../harness/paths';
import {
  debianPython,
  pythonClientVersion,
  recordPythonTest,
  suiteKubectls,
} from './harness/clients';
import { eventually } from './harness/eventually';
import { ServeProcess } from './harness/serve-process';

// The table of clients comes first whichever suite file mocha loads first.
suiteKubectls();

const script = path.join(projectRoot(), 'test', 'server', 'python', 'list-watch.py');

interface Step {
  step: string;
  [field: string]: unknown;
}

describe('the Kubernetes Python client against listwatch serve', function () {
  let serve: ServeProcess;

  let version: string;

  before(async function () {
    const v = pythonClientVersion();
    assert.ok(
      v,
      `no kubernetes module for ${debianPython} (npm run test:setup installs python3-kubernetes)`,
    );
    version = v;
    serve = await ServeProcess.start();
  });
  beforeEach(() => recordPythonTest(version));
  after(async () => {
    if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
  });

  it('lists 5 pods in pages of 2, then watches from the LIST resourceVersion and sees a pod created later', async () => {
    for (let i = 0; i < 5; i++) await serve.createPod(`py-${i}`, { app: 'python' });
    const child = spawn(
      debianPython,
      [script, serve.info.kubeconfig, serve.namespace, '2', 'py-later'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const steps = (): Step[] =>
      out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Step);
    // Its watch is open once the server holds a watcher for the Python client's User-Agent.
    await eventually(async () => {
      assert.ok(
        steps().some((s) => s.step === 'listed'),
        `not listed yet: ${out}${err}`,
      );
      const watchers = (await serve.state()).watchers.filter((w) =>
        /python/i.test(w.userAgent ?? ''),
      );
      assert.strictEqual(watchers.length, 1, JSON.stringify((await serve.state()).watchers));
    });
    const later = await serve.createPod('py-later', { app: 'python' });
    const code = await exited;
    assert.strictEqual(code, 0, err);
    const all = steps();
    const pages = all.filter((s) => s.step === 'page');
    assert.deepStrictEqual(
      pages.map((p) => [p.items, p.remaining, p.more]),
      [
        [2, 3, true],
        [2, 1, true],
        [1, null, false],
      ],
    );
    // Every page of one chain is read at the first page's resourceVersion.
    assert.strictEqual(new Set(pages.map((p) => p.rv)).size, 1, JSON.stringify(pages));
    const listed = all.find((s) => s.step === 'listed');
    assert.deepStrictEqual(listed?.names, ['py-0', 'py-1', 'py-2', 'py-3', 'py-4']);
    const events = all.filter((s) => s.step === 'event');
    assert.deepStrictEqual(events.at(-1), {
      step: 'event',
      type: 'ADDED',
      name: 'py-later',
      rv: later.metadata.resourceVersion,
    });
    // The client sees no ADDED for what it listed: the watch starts after the LIST's RV.
    assert.ok(
      events.every((e) => e.name === 'py-later' || e.type === 'BOOKMARK'),
      JSON.stringify(events),
    );
  });
});
