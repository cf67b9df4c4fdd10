// Tests for a replay over a long span of log time (src/replay/replay-import.ts,
// ScenarioRun.advanceToSkippingIdle): an idle stretch costs the timers that fire in it, not a step
// per virtual second, and a span longer than the replay runs is refused before it starts, with
// the span, the files and how to narrow it (a kubectl log read a year after its audit log spun
// for minutes). Counted in steps (yieldToHost calls), never in wall-clock time.
import * as assert from 'assert';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { replayImport } from '../../../src/replay/replay-import';
import type { ReplayOptions } from '../../../src/replay/replay-options';

const t0 = Date.parse('2025-03-12T10:15:03Z');
const hour = 3_600_000;

/** A LIST of pods by `file`, `ms` after t0. */
function list(id: string, ms: number, file: string): ImportedRequest {
  return {
    id,
    sources: [{ file, line: 1, format: 'audit' }],
    verb: 'list',
    method: 'GET',
    requestURI: '/api/v1/pods?limit=500',
    userAgent: 'kubectl/v1.33.1',
    user: 'alice',
    objectRef: { resource: 'pods', apiVersion: 'v1' },
    receivedAt: t0 + ms,
    completedAt: t0 + ms + 10,
    startInFile: true,
    endInFile: true,
    code: 200,
  };
}

/** Replays, counting the steps it yields between; throws past `limit` steps (it spins). */
async function replay(requests: ImportedRequest[], limit = 200_000) {
  let steps = 0;
  const options: ReplayOptions = {
    profile: '1.36',
    seed: 1,
    yieldToHost: async () => {
      if (++steps > limit) throw new Error(`the replay spun past ${limit} steps`);
    },
  };
  let lines = 0;
  const summary = await replayImport(requests, options, () => lines++);
  return { summary, steps, lines };
}

describe('replay: a long span of log time', () => {
  it('replays a span up to a week, a step per virtual second (the bookmark timer)', async () => {
    const { summary, steps } = await replay([
      list('a', 0, 'audit.log'),
      list('b', 6 * hour, 'audit.log'),
    ]);
    assert.strictEqual(summary.replayed, 2);
    assert.ok(steps >= 6 * 3600 && steps < 6 * 3600 + 1000, `6 h of log time in ${steps} steps`);
  });

  it('refuses a span longer than a week before it starts: the span, the files, how to narrow it', async () => {
    // The review's import: a kubectl log read a year after its audit log.
    const requests = [
      list('a', 0, 'audit.log'),
      list('b', 15 * 60_000, 'audit.log'),
      list('c', 365 * 24 * hour + 4_000, 'kubectl-v8-1.33.log'),
    ];
    let written = 0;
    let steps = 0;
    await assert.rejects(
      replayImport(
        requests,
        {
          profile: '1.36',
          seed: 1,
          // Before the fix it ran a step per second of the year: stopped here, the test fails.
          yieldToHost: async () => {
            if (++steps > 100_000) throw new Error(`the replay spun past ${steps - 1} steps`);
          },
        },
        () => written++,
      ),
      (e: Error) => {
        assert.strictEqual(e.name, 'ReplaySpanError', e.message);
        assert.match(
          e.message,
          /span 365 d 0 h of log time, longer than the 7 d 0 h a replay runs/,
        );
        assert.match(
          e.message,
          /audit\.log: 2 requests, 2025-03-12T10:15:03Z – 2025-03-12T10:30:03Z; kubectl-v8-1\.33\.log: 1 request, 2026-03-12T10:15:07Z/,
        );
        assert.match(e.message, /--year N/);
        return true;
      },
    );
    assert.deepStrictEqual([written, steps], [0, 0], 'nothing written, no virtual time run');
  });
});
