// Runs in the real extension host: a big run asks first with its estimate (a modal with Run and
// Cancel), progress names the total and the time left, the trace cap stops a run and keeps it
// marked truncated, and after Cancel the memory comes back (the extension host's heap, idle and
// after a forced GC, and the process's resident memory, across several big runs; bounds on
// behaviour, never on time).
import * as assert from 'assert';
import * as fs from 'fs';
import * as v8 from 'v8';
import * as vm from 'vm';
import * as vscode from 'vscode';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import { activeApi, delay } from './extension-api';

// The report in issue 10: 20,000 updates a second for an hour (72 million etcd writes).
const bigRun = {
  scenario: 'watch-cache-resize',
  set: { burstEventsPerSecond: 20000, burstSeconds: 3600 },
};
const mib = 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Heap in use after full collections (a second one for what the first finalised). */
async function heapAfterGc(): Promise<number> {
  await delay(50);
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace
    .getConfiguration('listwatch')
    .update(key, value, vscode.ConfigurationTarget.Global);
}

type ShowWarning = typeof vscode.window.showWarningMessage;

/** Answers vscode.window.showWarningMessage as `answer` while `body` runs, recording each call. */
async function answeringWarnings<T>(
  answer: (message: string, options: unknown) => string | undefined,
  body: (calls: Array<{ message: string; options: unknown; items: unknown[] }>) => Promise<T>,
): Promise<T> {
  const calls: Array<{ message: string; options: unknown; items: unknown[] }> = [];
  const original = vscode.window.showWarningMessage;
  const fake = (message: string, ...rest: unknown[]): Thenable<string | undefined> => {
    const options = rest[0] && typeof rest[0] === 'object' ? rest[0] : undefined;
    calls.push({ message, options, items: options ? rest.slice(1) : rest });
    return Promise.resolve(answer(message, options));
  };
  (vscode.window as { showWarningMessage: ShowWarning }).showWarningMessage =
    fake as unknown as ShowWarning;
  try {
    return await body(calls);
  } finally {
    (vscode.window as { showWarningMessage: ShowWarning }).showWarningMessage = original;
  }
}

describe('guarded runs', () => {
  afterEach(async () => {
    for (const key of ['run.confirmAboveSeconds', 'run.maxTraceMiB'])
      await setSetting(key, undefined);
  });

  it('asks before a big run with a modal that shows the estimate; Cancel makes no run', async () => {
    const api = await activeApi();
    const before = api.runs().length;
    const run = await answeringWarnings(
      () => undefined,
      async (calls) => {
        const made = await vscode.commands.executeCommand(
          'listwatch.runScenario',
          bigRun.scenario,
          bigRun.set,
        );
        assert.strictEqual(calls.length, 1, 'asked once');
        const { message, options, items } = calls[0];
        assert.match(
          message,
          /^Run The watch cache history.*\? It is a big run: expected wall time/,
        );
        const detail = (options as { modal?: boolean; detail?: string }).detail ?? '';
        assert.strictEqual((options as { modal?: boolean }).modal, true);
        for (const text of [
          'etcd writes      72,000,700',
          'virtual time     1:10:01',
          'wall time',
          'trace',
          'memory',
          'listwatch.run.maxTraceMiB',
        ])
          assert.ok(detail.includes(text), `${text} in the modal's detail:\n${detail}`);
        assert.deepStrictEqual(items, ['Run'], "Run, beside the modal's own Cancel");
        return made;
      },
    );
    assert.strictEqual(run, undefined);
    assert.strictEqual(api.runs().length, before, 'no run was made');
    assert.strictEqual(api.runInProgress(), undefined);
  });

  it('a small run is asked about only below listwatch.run.confirmAboveSeconds; Run runs it', async () => {
    const api = await activeApi();
    const small = await answeringWarnings(
      () => 'Run',
      async (calls) => {
        await vscode.commands.executeCommand('listwatch.runScenario', 'read-your-writes', {});
        assert.strictEqual(calls.length, 0, 'a default run is not asked about');
        await setSetting('run.confirmAboveSeconds', 0);
        const run = await vscode.commands.executeCommand<StoredRun | undefined>(
          'listwatch.runScenario',
          'read-your-writes',
          {},
        );
        assert.strictEqual(calls.length, 1, 'asked, with the limit at 0 s');
        return run;
      },
    );
    assert.ok(small, 'Run ran it');
    assert.strictEqual(api.runs()[0].id, small.id);
  });

  it('progress names the total and the time left', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.openInspector');
    await api.inspector.whenReady();
    api.inspector.clearTraffic();
    await vscode.commands.executeCommand('listwatch.runScenario', 'serialization-fanout', {});
    const progress = api.inspector
      .posted()
      .filter((m) => m.type === 'run/progress' && !m.done)
      .map((m) => (m as { message: string }).message);
    assert.ok(progress.length > 0, 'progress was posted');
    assert.ok(
      progress.every((m) => / · .+ of about .+, .+ left$/.test(m)),
      progress.slice(0, 3).join('\n'),
    );
  });

  it('the trace cap stops a run; the run is kept, marked truncated, and says so', async () => {
    const api = await activeApi();
    await setSetting('run.maxTraceMiB', 1);
    const run = await answeringWarnings(
      () => undefined,
      async (calls) => {
        const made = await vscode.commands.executeCommand<StoredRun | undefined>(
          'listwatch.runScenario',
          'watch-cache-resize',
          { burstEventsPerSecond: 2000 },
          { confirmed: true },
        );
        assert.ok(
          calls.some((c) =>
            /the trace reached its cap of 1\.0 MiB \(1\.0 MiB written\).*listwatch\.run\.maxTraceMiB/.test(
              c.message,
            ),
          ),
          calls.map((c) => c.message).join('\n'),
        );
        return made;
      },
    );
    assert.ok(run, 'the truncated run is kept');
    assert.match(run.truncated ?? '', /the trace reached its cap/);
    assert.ok(fs.statSync(run.traceFile).size < 2 * mib, 'the trace stopped near its cap');
    assert.match(api.runsViewRows()[0].description, /truncated/);
  });

  it('after Cancel the memory comes back: big runs, cancelled mid-way, leave no growth behind', async function () {
    this.timeout(600_000);
    const api = await activeApi();
    const runsBefore = api.runs().length;
    const heapBase = await heapAfterGc();
    const rssBase = process.memoryUsage().rss;
    const figures: Array<{
      rssAtCancel: number;
      heapAtCancel: number;
      rss: number;
      heap: number;
      idleHeap: number;
    }> = [];
    for (let i = 0; i < 3; i++) {
      const running = vscode.commands.executeCommand<StoredRun | undefined>(
        'listwatch.runScenario',
        bigRun.scenario,
        bigRun.set,
        { confirmed: true },
      );
      // Let the run grow (its etcd keeps every revision) by a quarter of a GiB, then cancel it.
      let rssAtCancel = 0;
      for (let step = 0; step < 1200; step++) {
        await delay(100);
        rssAtCancel = process.memoryUsage().rss;
        if (api.runInProgress() && rssAtCancel - rssBase > 250 * mib) break;
      }
      const heapAtCancel = process.memoryUsage().heapUsed;
      assert.ok(api.runInProgress(), 'the run is still in progress when cancelled');
      assert.strictEqual(await vscode.commands.executeCommand('listwatch.cancelRun'), true);
      assert.strictEqual(await running, undefined, 'a cancelled run makes no run');
      assert.strictEqual(api.runInProgress(), undefined);
      await delay(500);
      // Without a forced GC first: what an idle extension host really holds.
      const idleHeap = process.memoryUsage().heapUsed;
      const heap = await heapAfterGc();
      figures.push({ rssAtCancel, heapAtCancel, rss: process.memoryUsage().rss, heap, idleHeap });
    }
    const m = (n: number): string => `${(n / mib).toFixed(0)} MiB`;
    const text =
      `before: heap ${m(heapBase)}, rss ${m(rssBase)}; ` +
      figures
        .map(
          (f, i) =>
            `run ${i + 1}: at cancel rss ${m(f.rssAtCancel)} heap ${m(f.heapAtCancel)}, after: rss ${m(f.rss)} heap ${m(f.idleHeap)} (${m(f.heap)} after GC)`,
        )
        .join('; ');
    console.log(text);
    for (const f of figures) {
      const grown = f.rssAtCancel - rssBase;
      assert.ok(grown > 200 * mib, `each run grew the process before its cancel (${text})`);
      // The run's memory is not the extension host's heap: it lives and dies with the worker.
      assert.ok(
        f.heapAtCancel - heapBase < 0.25 * grown,
        `the run stayed off the host's heap (${text})`,
      );
      assert.ok(f.idleHeap - heapBase < 64 * mib, `the idle host's heap is back (${text})`);
      assert.ok(f.rss - rssBase < 0.5 * grown, `the process gave the run's memory back (${text})`);
    }
    assert.ok(figures[2].rss - figures[0].rss < 100 * mib, `no growth from run to run (${text})`);
    assert.ok(
      figures[2].heap - figures[0].heap < 16 * mib,
      `no heap growth from run to run (${text})`,
    );
    assert.strictEqual(api.runs().length, runsBefore, 'no cancelled run was stored');
  });
});
