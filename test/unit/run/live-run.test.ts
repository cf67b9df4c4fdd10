// Tests for src/run/live-run.ts's now: between batches a live run tells the time now (no model is
// built, what the model shows holds until then), never a time at or before the last batch's end,
// and a stopped run ends at its stop time.
import * as assert from 'assert';
import { LiveRun, type LiveRecordSource } from '../../../src/run/live-run';
import { type TraceMetricsRecord, type TraceRecord } from '../../../src/run/trace/trace-format';
import { liveRunHeader } from './live-run-header-fixture';

/** A live source on a hand-set clock (ms since its start). */
function fakeSource(): LiveRecordSource & { at: number; emit(r: TraceRecord): void } {
  const listeners = new Set<(r: TraceRecord) => void>();
  const metrics = (at: number): TraceMetricsRecord => ({
    kind: 'metrics',
    scope: 'resource',
    at,
    samples: {},
    text: '',
  });
  const source: LiveRecordSource & { at: number; emit(r: TraceRecord): void } = {
    at: 0,
    header: liveRunHeader(),
    subscribe(l: (r: TraceRecord) => void) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    now: () => source.at,
    metricsRecord: () => metrics(source.at),
    traceLines: () => [],
    emit(r: TraceRecord) {
      for (const l of listeners) l(r);
    },
  };
  return source;
}

describe('LiveRun (now between batches)', () => {
  const table: Array<{ name: string; steps: Array<'record' | 'batch' | number>; told: number[] }> =
    [
      {
        name: 'nothing happens: each tick tells the time now',
        steps: [1000, 2000, 3000],
        told: [1000, 2000, 3000],
      },
      {
        name: 'a tick at the last batch end tells nothing',
        steps: [1500, 'record', 'batch', 1500, 2500],
        told: [1500, 2500],
      },
      { name: 'the clock did not move: nothing to tell', steps: [1000, 1000], told: [1000] },
    ];
  for (const t of table) {
    it(t.name, () => {
      const source = fakeSource();
      let pending: (() => void) | undefined;
      const run = new LiveRun(source, {
        schedule: (fn) => ((pending = fn), () => (pending = undefined)),
      });
      const told: number[] = [];
      const models: number[] = [];
      run.onNow((at) => told.push(at));
      run.onUpdate((m) => models.push(m.durationMs));
      let last = -1;
      for (const s of t.steps) {
        if (s === 'record')
          source.emit({ kind: 'metrics', scope: 'scrape', at: source.at, samples: {} });
        else if (s === 'batch') pending?.();
        else {
          source.at = s;
          if (s !== last) run.tick();
          else assert.strictEqual(run.tick(), undefined);
          last = s;
        }
      }
      assert.deepStrictEqual(told, t.told);
      assert.deepStrictEqual(
        models,
        t.steps.includes('batch') ? [1500] : [],
        'ticks build no model',
      );
      run.dispose();
    });
  }

  it('a stopped run ends at its stop time, though nothing happened since its last batch', () => {
    const source = fakeSource();
    const run = new LiveRun(source, { schedule: () => () => undefined });
    source.at = 4200;
    assert.strictEqual(run.end().durationMs, 4200);
    assert.strictEqual(run.tick(), undefined, 'no now past the end while the clock stands');
    run.dispose();
  });
});
