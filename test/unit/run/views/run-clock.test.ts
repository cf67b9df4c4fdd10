// Tests for src/run/views/run-clock.ts: a live run says real time and no seed; a scenario keeps
// its seed and virtual time; an import has no seed either: it names its logs and their span.
import * as assert from 'assert';
import { isRealTimeRun, runClockFacts } from '../../../../src/run/views/run-clock';

describe('runClockFacts', () => {
  const span = {
    from: Date.UTC(2026, 11, 7, 9, 30, 0, 12),
    to: Date.UTC(2026, 11, 7, 9, 31, 41, 424),
  };
  const cases: Array<{
    name: string;
    scenario: string;
    params?: Record<string, string>;
    span?: { from: number | null; to: number | null };
    want: string[];
  }> = [
    {
      name: 'a live run',
      scenario: 'live',
      want: ['live', 'profile 1.36', "244.506 s of the server's real time"],
    },
    { name: 'a probe', scenario: 'probe', want: ['244.506 s of real time'] },
    {
      name: 'a scenario',
      scenario: 'bookmark-heartbeats',
      want: ['scenario bookmark-heartbeats', 'profile 1.36', 'seed 0', '244.506 s of virtual time'],
    },
    {
      name: 'an import: its files and their span, no seed',
      scenario: 'import',
      params: { files: 'client-go.log, audit.log' },
      span,
      want: [
        'import of client-go.log, audit.log',
        "the logs' 2026-12-07 09:30:00.012 – 09:31:41.424 UTC",
        'profile 1.36',
        "244.506 s of virtual time (the logs' times, replayed)",
      ],
    },
    {
      name: 'an import over two days, one file',
      scenario: 'import',
      params: { files: 'audit.log' },
      span: { from: span.from, to: Date.UTC(2026, 11, 8, 1, 2, 3, 0) },
      want: [
        'import of audit.log',
        "the log's 2026-12-07 09:30:00.012 – 2026-12-08 01:02:03.000 UTC",
        'profile 1.36',
        "244.506 s of virtual time (the log's times, replayed)",
      ],
    },
    {
      name: 'an import whose report is missing (an older trace): no span is made up',
      scenario: 'import',
      params: { files: 'audit.log' },
      want: [
        'import of audit.log',
        'profile 1.36',
        "244.506 s of virtual time (the log's times, replayed)",
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const facts = runClockFacts(
        { scenario: c.scenario, profile: '1.36', seed: 0, params: c.params ?? {} },
        '244.506 s',
        c.span,
      );
      assert.deepStrictEqual(facts, c.want);
      assert.strictEqual(
        isRealTimeRun(c.scenario),
        c.scenario === 'live' || c.scenario === 'probe',
      );
      if (c.scenario !== 'bookmark-heartbeats')
        assert.ok(!facts.some((f) => /seed/.test(f)), facts.join(' · '));
    });
});
