// Runs in the real extension host: the run commands make runs (a scenario with small parameters, a
// trace file), the Scenarios, Runs and Watchers views list them, traces and metrics are exported,
// runs are deleted, and bad input gets a clear answer.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { listScenarios } from '../../../src/scenarios/runner';
import type { StoredRun } from '../../../src/extension/runs/run-store';
import { runScenarioToTrace } from '../../../src/extension/runs/run-engine';
import { activeApi } from './extension-api';

// Small enough to run in well under a second; big enough to have watchers in every state.
const smallRun = { scenario: 'bookmark-heartbeats', set: { watchers: 6, minutes: 1 } };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-runs-test-'));

async function runSmallScenario(): Promise<StoredRun> {
  const run = await vscode.commands.executeCommand<StoredRun | undefined>(
    'listwatch.runScenario',
    smallRun.scenario,
    smallRun.set,
    { seed: 3 },
  );
  assert.ok(run, 'Run Scenario returned no run');
  return run;
}

describe('runs', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('Run Scenario with arguments runs it, stores its trace and makes it the open run', async () => {
    const api = await activeApi();
    const run = await runSmallScenario();
    assert.strictEqual(run.scenario, smallRun.scenario);
    assert.strictEqual(run.seed, 3);
    assert.strictEqual(run.watchers, 6);
    assert.match(
      run.title,
      /watchers=6/,
      'the title names the parameters that differ from the defaults',
    );
    assert.strictEqual(api.runs()[0].id, run.id, 'newest first');
    assert.strictEqual(api.currentRun()?.run.id, run.id);
    const header = JSON.parse(fs.readFileSync(run.traceFile, 'utf8').split('\n')[0]) as {
      format: string;
      scenario: string;
      seed: number;
    };
    assert.deepStrictEqual(
      [header.format, header.scenario, header.seed],
      ['listwatch-trace', smallRun.scenario, 3],
    );
  });

  it('the same scenario, parameters and seed give the same trace', async () => {
    const first = await runSmallScenario();
    const second = await runSmallScenario();
    assert.notStrictEqual(first.traceFile, second.traceFile);
    assert.strictEqual(
      fs.readFileSync(first.traceFile, 'utf8'),
      fs.readFileSync(second.traceFile, 'utf8'),
    );
  });

  it('the Runs view lists the runs, the open one marked', async () => {
    const api = await activeApi();
    const run = await runSmallScenario();
    // The stored runs (a local server an earlier suite started left its live run above them).
    const rows = api.runsViewRows().filter((r) => !r.label.startsWith('Live: '));
    assert.strictEqual(rows[0].label, run.label, JSON.stringify(rows));
    assert.match(
      rows[0].label,
      /^Bookmark heartbeats \(watchers=6/,
      'the short label fits the side bar',
    );
    assert.match(rows[0].description, /^open · /, rows[0].description);
    assert.match(rows[0].description, /6 watchers/);
    assert.ok(
      rows.slice(1).every((r) => !r.description.startsWith('open')),
      'only one run is open',
    );
  });

  it("the Watchers view lists the open run's watchers with their state", async () => {
    const api = await activeApi();
    await runSmallScenario();
    const rows = api.watchersViewRows();
    assert.strictEqual(rows.length, 6, JSON.stringify(rows));
    for (const row of rows) {
      assert.match(row.label, /^watcher \d+$/);
      assert.match(
        row.description,
        /^(Initial events|End bookmark due|Streaming|Not opened yet|Closed)/,
        row.description,
      );
    }
  });

  it('the Scenarios view lists every built-in scenario by its short label, with its parameters', async () => {
    const api = await activeApi();
    const rows = await api.scenariosViewRows();
    const scenarios = listScenarios();
    assert.deepStrictEqual(
      rows.map((r) => [r.label, r.description]),
      scenarios.map((s) => [s.label, s.title]),
    );
    for (const s of scenarios)
      assert.ok(s.label.length <= 28, `${s.name}: "${s.label}" is too long for the side bar`);
    for (const [i, s] of scenarios.entries()) {
      assert.deepStrictEqual(
        rows[i].children.map((c) => c.label),
        s.params.map((p) => p.name),
        `${s.name}: parameters`,
      );
      for (const [j, p] of s.params.entries()) {
        assert.ok(
          rows[i].children[j].description.startsWith(String(p.default)),
          `${s.name}.${p.name}: the default is shown`,
        );
      }
    }
  });

  it('Run Scenario with a bad parameter makes no run', async () => {
    const api = await activeApi();
    const before = api.runs().length;
    const run = await vscode.commands.executeCommand('listwatch.runScenario', smallRun.scenario, {
      watchers: -1,
    });
    assert.strictEqual(run, undefined);
    assert.strictEqual(api.runs().length, before);
  });

  it('Open Trace reads a trace file; malformed lines are counted and named by line', async () => {
    const api = await activeApi();
    const made = await runSmallScenario();
    const lines = fs.readFileSync(made.traceFile, 'utf8').split('\n');
    lines.splice(3, 0, '{"kind":"event", this is not JSON', '{"kind":"nonsense"}');
    const file = path.join(tmp, 'damaged.jsonl');
    fs.writeFileSync(file, lines.join('\n'));
    const run = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.openTrace',
      file,
    );
    assert.ok(run, 'no run from the damaged trace');
    assert.strictEqual(run.source, 'trace');
    assert.strictEqual(run.traceFile, file);
    assert.strictEqual(run.rejected, 2);
    const model = api.currentRun()?.model;
    assert.strictEqual(model?.rejected.count, 2);
    assert.match(model.rejected.samples[0], /^line 4: /, model.rejected.samples[0]);
    assert.match(model.rejected.samples[1], /^line 5: /, model.rejected.samples[1]);
    assert.strictEqual(model.watchers.length, 6, 'the good lines still make the run');
  });

  it('Open Trace on a file that is missing or not a trace makes no run', async () => {
    const api = await activeApi();
    const before = api.runs().length;
    const notTrace = path.join(tmp, 'not-a-trace.jsonl');
    fs.writeFileSync(notTrace, '{"hello":"world"}\n');
    for (const file of [path.join(tmp, 'missing.jsonl'), notTrace]) {
      const run = await vscode.commands.executeCommand('listwatch.openTrace', file);
      assert.strictEqual(run, undefined, file);
    }
    assert.strictEqual(api.runs().length, before);
  });

  it("Export Trace copies the run's trace; Export Metrics writes its Prometheus text", async () => {
    const api = await activeApi();
    const run = await runSmallScenario();
    const traceTarget = path.join(tmp, 'exported.jsonl');
    const metricsTarget = path.join(tmp, 'metrics.prom');
    assert.strictEqual(
      await vscode.commands.executeCommand('listwatch.exportTrace', run.id, traceTarget),
      traceTarget,
    );
    assert.strictEqual(
      fs.readFileSync(traceTarget, 'utf8'),
      fs.readFileSync(run.traceFile, 'utf8'),
    );
    assert.strictEqual(
      await vscode.commands.executeCommand('listwatch.exportMetrics', metricsTarget),
      metricsTarget,
    );
    const text = fs.readFileSync(metricsTarget, 'utf8');
    assert.strictEqual(text, api.currentRun()?.model.metricsText);
    assert.match(text, /^# HELP /m);
    assert.match(text, /^apiserver_\w+\{[^}]*resource="pods"[^}]*\} \d/m);
  });

  it('Delete Run removes the run and its trace file', async () => {
    const api = await activeApi();
    const run = await runSmallScenario();
    const removed = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.deleteRun',
      run.id,
    );
    assert.strictEqual(removed?.id, run.id);
    assert.ok(!api.runs().some((r) => r.id === run.id));
    assert.ok(!fs.existsSync(run.traceFile), 'the trace file is gone');
    assert.strictEqual(api.currentRun(), undefined, 'the deleted run was the open one');
    assert.deepStrictEqual(api.watchersViewRows(), []);
  });

  it('a cancelled run leaves no trace file behind', async () => {
    const file = path.join(tmp, 'cancelled.jsonl');
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(
      runScenarioToTrace(smallRun.scenario, smallRun.set, {
        traceFile: file,
        signal: controller.signal,
      }),
      (e: Error) => e.name === 'AbortError',
    );
    assert.ok(!fs.existsSync(file));
  });

  it('Open Run re-opens a stored run from its trace', async () => {
    const api = await activeApi();
    const first = await runSmallScenario();
    await runSmallScenario();
    const opened = await vscode.commands.executeCommand<StoredRun | undefined>(
      'listwatch.openRun',
      first.id,
    );
    assert.strictEqual(opened?.id, first.id);
    assert.strictEqual(api.currentRun()?.run.id, first.id);
    assert.strictEqual(api.currentRun()?.model.watchers.length, 6);
  });
});
