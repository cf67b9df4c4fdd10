// Tests for src/run/views/run-clock.ts: a live run says real time and no seed; a scenario keeps
// its seed and virtual time.
import * as assert from 'assert';
import { isRealTimeRun, runClockFacts } from '../../../../src/run/views/run-clock';

describe('runClockFacts', () => {
  const cases: Array<[string, string, string[]]> = [
    ['a live run', 'live', ['live', 'profile 1.36', "244.506 s of the server's real time"]],
    ['a probe', 'probe', ['244.506 s of real time']],
    [
      'a scenario',
      'bookmark-heartbeats',
      ['scenario bookmark-heartbeats', 'profile 1.36', 'seed 0', '244.506 s of virtual time'],
    ],
  ];
  for (const [name, scenario, want] of cases)
    it(name, () => {
      const facts = runClockFacts({ scenario, profile: '1.36', seed: 0 }, '244.506 s');
      assert.deepStrictEqual(facts, want);
      assert.strictEqual(isRealTimeRun(scenario), scenario !== 'bookmark-heartbeats');
      if (isRealTimeRun(scenario))
        assert.ok(!facts.some((f) => /seed|virtual/.test(f)), facts.join(' · '));
    });
});
