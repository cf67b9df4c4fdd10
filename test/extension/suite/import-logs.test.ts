// Runs in the real extension host: "Import Logs as Run…" reads test/fixtures/audit.log with the
// real importer (src/import), replays it through the engine, lists the run in the Runs view and
// opens it in the inspector with its Import and Replay tabs' data; "Replay Import
// with What-If…" makes the what-if run with the comparison beside its baseline.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import { projectRoot } from '../../harness/paths';
import { activeApi } from './extension-api';

const fixture = path.join(projectRoot(), 'test', 'fixtures', 'audit.log');

describe('import logs as a run', () => {
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('imports the audit log, replays it, lists it in the Runs view and opens it', async () => {
    const api = await activeApi();
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.importLogs',
      [fixture],
    );
    assert.ok(run, 'the command returned no run');
    assert.strictEqual(run.source, 'import');
    assert.strictEqual(run.scenario, 'import');
    assert.strictEqual(run.params.files, 'audit.log');
    assert.ok(run.lists > 0, `LISTs replayed: ${run.lists}`);
    assert.strictEqual(api.currentRun()?.run.id, run.id, 'opened in the inspector');
    const header = JSON.parse(fs.readFileSync(run.traceFile, 'utf8').split('\n')[0]) as {
      scenario: string;
      profile: string;
    };
    assert.deepStrictEqual([header.scenario, header.profile], ['import', '1.36']);
    const row = api.runsViewRows().find((r) => r.label === run.label);
    assert.ok(row, `the Runs view lists ${run.label}`);
    await api.inspector.whenReady();
    const loaded = api.inspector
      .posted()
      .filter((m) => m.type === 'run/loaded' && m.run.id === run.id);
    assert.ok(loaded.length > 0, 'the panel got the run');
    const last = loaded[loaded.length - 1];
    assert.ok(last.type === 'run/loaded' && last.model.replay, 'with the Replay tab data');
    assert.ok(last.model.replay.rows.length > 0);
    // The Import tab: the log's own story (test/fixtures/audit.log has four clients, one 410).
    const imported = api.currentRun()?.model.imported;
    assert.ok(imported, 'the run carries the import report');
    assert.strictEqual(imported.requests.total, 7);
    assert.deepStrictEqual(imported.requests.byCode, { '200': 6, '410': 1 });
    assert.strictEqual(imported.clients.length, 4);
  });

  it("the Explorer's Import into List/Watch Inspector imports every selected .log file", async () => {
    const logs = ['kubectl-1.27-v8.log', 'kubectl-1.30-v6.log'].map((f) =>
      vscode.Uri.file(path.join(projectRoot(), 'test', 'fixtures', 'import', f)),
    );
    // VS Code passes the clicked file and the whole selection.
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.importLogsFromExplorer',
      logs[1],
      logs,
    );
    assert.ok(run, 'the command returned no run');
    assert.strictEqual(run.params.files, 'kubectl-1.27-v8.log, kubectl-1.30-v6.log');
    assert.strictEqual(run.title, 'Import: kubectl-1.27-v8.log, kubectl-1.30-v6.log');
  });

  it('replays the import with a what-if and compares the two runs', async () => {
    const api = await activeApi();
    const base = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.importLogs',
      [fixture],
    );
    assert.ok(base);
    const whatIf = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.replayImportWhatIf',
      base.id,
      { profile: '1.37', watchList: true },
    );
    assert.ok(whatIf, 'no what-if run');
    assert.strictEqual(whatIf.profile, '1.37');
    assert.strictEqual(whatIf.params.watchList, true);
    const comparison = api.currentRun()?.model.comparison;
    assert.ok(comparison, 'the what-if run carries the comparison');
    assert.deepStrictEqual([comparison.a, comparison.b], ['1.36', '1.37 watchList=true']);
  });
});
