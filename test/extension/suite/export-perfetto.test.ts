// Runs in the real extension host: "Export Run to Perfetto…" writes the open run (a small scenario
// run) as Chrome Trace Event JSON to the file it is given, with a track per watcher and per client,
// and without an open run says so and writes nothing.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import { activeApi } from './extension-api';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-perfetto-test-'));

interface TraceFile {
  traceEvents: Array<{ ph: string; name: string; pid: number; args?: { name?: string } }>;
  displayTimeUnit: string;
  otherData: Record<string, string>;
}

describe('export run to perfetto', () => {
  let exportedRun: StoredRun | undefined;
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('Export Run to Perfetto writes the open run as Chrome Trace Event JSON', async () => {
    const api = await activeApi();
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.runScenario',
      'bookmark-heartbeats',
      { watchers: 6, minutes: 1 },
      { seed: 3 },
    );
    assert.ok(run, 'Run Scenario returned no run');
    exportedRun = run;
    const target = path.join(tmp, 'run.perfetto.json');
    const written = await vscode.commands.executeCommand<string | undefined>(
      'listwatch.exportPerfetto',
      target,
    );
    assert.strictEqual(written, target);
    const file = JSON.parse(fs.readFileSync(target, 'utf8')) as TraceFile;
    assert.strictEqual(file.displayTimeUnit, 'ms');
    assert.strictEqual(file.otherData.scenario, 'bookmark-heartbeats');
    const threads = file.traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name')
      .map((e) => e.args?.name ?? '');
    const model = api.currentRun()?.model;
    assert.ok(model);
    for (const w of model.watchers)
      assert.ok(
        threads.some((t) => t.startsWith(`watcher ${w.id} · `)),
        `no track for watcher ${w.id}: ${threads.join(', ')}`,
      );
    for (const c of model.clients ?? []) assert.ok(threads.includes(c.id), `no track for ${c.id}`);
    assert.ok(
      file.traceEvents.some((e) => e.ph === 'C' && e.name === 'cache RV'),
      'the cache RV counter',
    );
    assert.ok(
      api.logLines().some((l) => /^\[info\] exporting .* to Perfetto: \d+ trace events/.test(l)),
      'the size is logged before writing',
    );
  });

  it('with no run open it writes nothing', async () => {
    const api = await activeApi();
    // Deleting the open run (this suite's own) leaves none open.
    assert.ok(exportedRun);
    await vscode.commands.executeCommand('listwatch.deleteRun', exportedRun.id);
    assert.strictEqual(api.currentRun(), undefined);
    const target = path.join(tmp, 'none.json');
    assert.strictEqual(
      await vscode.commands.executeCommand('listwatch.exportPerfetto', target),
      undefined,
    );
    assert.ok(!fs.existsSync(target));
  });
});
