// The live panel's update cost (issue #12, "Performance"): 1,000 real HTTP watch connections to an
// ApiServer and 100 writes/s for 3 s, recorded (live-recorder.ts) and folded into a live run
// (live-run.ts); every 250 ms batch is timed on the host as the panel pays for it (the snapshot,
// the panel model, the message as JSON) and set beside the cost of loading the same run from its
// saved trace (read, fold, panel model, message). A plain Node test, not an extension-host one:
// the figures are host-side work, which the extension host would only add noise to; the webview's
// share is the message size printed here. No wall-clock limits: the counts are asserted, the
// figures printed.
import * as assert from 'assert';
import { Agent, request as httpRequest } from 'node:http';
import { panelModel } from '../../../src/extension/panel/panel-model';
import { protocolVersion, type ToWebview } from '../../../src/protocol';
import { LiveRun } from '../../../src/run/live-run';
import type { RunModel } from '../../../src/run/run-model';
import { ApiServer } from '../../../src/server/api-server';
import { LiveRecorder } from '../../../src/server/live-recorder';
import { loadRun } from '../../../src/trace/load-run';

const watchers = 1000;
const writesPerSecond = 100;
const seconds = 3;
const batchMs = 250;

function post(server: ApiServer, agent: Agent, path: string, body: unknown): Promise<number> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}${path}`,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(text)),
          'user-agent': 'writer/v1',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

/** What the panel is posted for a model: its panel model inside the message, as JSON. */
function message(runId: string, model: RunModel, loaded: boolean): string {
  const m: ToWebview = loaded
    ? {
        type: 'run/loaded',
        protocolVersion,
        run: { id: runId, title: 'live', source: 'trace' },
        model: panelModel(model),
      }
    : { type: 'run/update', runId, model: panelModel(model) };
  return JSON.stringify(m);
}

describe('live panel update cost (1,000 HTTP watchers, 100 writes/s)', function () {
  this.timeout(180_000);
  let server: ApiServer;
  before(async () => {
    server = await ApiServer.start({ port: 0, seed: { pods: 10 } });
  });
  after(async () => {
    await server.stop();
  });

  it('prints the cost of a batch beside the cost of loading the run from its saved trace', async () => {
    const recorder = new LiveRecorder(server);
    let pending: (() => void) | undefined;
    const run = new LiveRun(recorder, {
      schedule: (fn) => {
        pending = fn;
        return () => (pending = undefined);
      },
    });
    const batches: Array<{ ms: number; chars: number }> = [];
    // The batches as LiveRun would make them (every 250 ms, when something changed), timed.
    const batchTimer = setInterval(() => {
      if (!pending) return;
      const t = performance.now();
      const model = run.flush();
      const chars = message('live', model, false).length;
      batches.push({ ms: performance.now() - t, chars });
    }, batchMs);
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const requests: Array<{ destroy(): void }> = [];
    let eventLines = 0;
    try {
      for (let i = 0; i < watchers; i++) {
        const req = httpRequest(`${server.url}/api/v1/namespaces/default/pods?watch=true`, {
          agent,
          headers: {
            authorization: `Bearer ${server.token}`,
            'user-agent': `informer-${i % 10}/v1.0.0`,
          },
        });
        req.on('response', (res) => {
          res.on('data', (c: Buffer) => {
            for (const b of c) if (b === 0x0a) eventLines++;
          });
          res.on('error', () => undefined);
        });
        req.on('error', () => undefined);
        req.end();
        requests.push(req);
      }
      for (let i = 0; i < 500 && run.model().watchers.length < watchers; i++) {
        await sleep(20);
        pending?.();
      }
      assert.strictEqual(run.model().watchers.length, watchers, 'every watch has its watcher');
      const opened = eventLines;
      const writer = new Agent({ keepAlive: true, maxSockets: 10 });
      const perTick = writesPerSecond / 10;
      for (let tick = 0; tick < seconds * 10; tick++) {
        const started = Date.now();
        const codes = await Promise.all(
          Array.from({ length: perTick }, (_, j) =>
            post(server, writer, '/api/v1/namespaces/default/pods', {
              metadata: { name: `load-${tick}-${j}` },
              spec: { containers: [{ name: 'c', image: 'pause' }] },
            }),
          ),
        );
        assert.deepStrictEqual(new Set(codes), new Set([201]));
        await sleep(Math.max(0, 100 - (Date.now() - started)));
      }
      writer.destroy();
      const writes = seconds * writesPerSecond;
      for (let i = 0; i < 1000 && eventLines - opened < watchers * writes; i++) await sleep(10);
      assert.strictEqual(eventLines - opened, watchers * writes, 'every watcher read every write');
    } finally {
      clearInterval(batchTimer);
      for (const r of requests) r.destroy();
      agent.destroy();
    }
    for (let i = 0; i < 500 && run.model().watchers.some((w) => w.closedAt === undefined); i++) {
      await sleep(20);
      pending?.();
    }
    const lines = run.save();
    const live = run.model();
    recorder.dispose();
    run.dispose();
    assert.strictEqual(live.watchers.length, watchers);
    assert.strictEqual(live.writes?.byVerb.create, seconds * writesPerSecond);
    assert.strictEqual(
      live.watchers.filter((w) => w.closeReason === 'client went away').length,
      watchers,
    );
    assert.strictEqual(live.watchRequests?.length, watchers);
    assert.ok(batches.length >= seconds * 2, `${batches.length} batches`);

    const t = performance.now();
    const { model: loaded } = await loadRun(lines);
    const loadChars = message('trace', loaded, true).length;
    const loadMs = performance.now() - t;
    assert.deepStrictEqual(loaded, live, 'the saved trace reloads to the live model');

    const ms = batches.map((b) => b.ms);
    const chars = batches.map((b) => b.chars);
    const figures = {
      batches: batches.length,
      batchMedianMs: median(ms),
      batchMaxMs: Math.max(...ms),
      batchMedianKiB: median(chars) / 1024,
      batchMaxKiB: Math.max(...chars) / 1024,
      traceLines: lines.length,
      loadMs,
      loadKiB: loadChars / 1024,
    };
    console.log(
      [
        `      live panel, ${watchers} HTTP watchers, ${writesPerSecond} writes/s for ${seconds} s, batches every ${batchMs} ms:`,
        `        per batch (snapshot + panel model + message): median ${figures.batchMedianMs.toFixed(1)} ms, max ${figures.batchMaxMs.toFixed(1)} ms over ${figures.batches} batches; message median ${figures.batchMedianKiB.toFixed(0)} KiB, max ${figures.batchMaxKiB.toFixed(0)} KiB`,
        `        the same run from its saved trace (${figures.traceLines} lines: read, fold, panel model, message): ${figures.loadMs.toFixed(1)} ms, message ${figures.loadKiB.toFixed(0)} KiB`,
        `        ratio batch/load: median ${(figures.batchMedianMs / figures.loadMs).toFixed(3)}x, max ${(figures.batchMaxMs / figures.loadMs).toFixed(3)}x`,
      ].join('\n'),
    );
  });
});
