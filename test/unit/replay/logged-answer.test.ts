// Tests for src/replay/logged-answer.ts: what the log proves of a LIST's answer is compared with
// the engine's by value, and what it cannot say (a body it did not hold) is never a difference.
import * as assert from 'assert';
import type { ImportedRequest } from '../../../src/run/imported-request';
import { compareList } from '../../../src/replay/logged-answer';
import type { EngineAnswer } from '../../../src/sim/scenario-run';

function list(response?: ImportedRequest['response']): ImportedRequest {
  return {
    id: 'chunk33.log:8',
    sources: [{ file: 'chunk33.log', line: 8, format: 'kubectl' }],
    verb: 'list',
    requestURI: '/api/v1/namespaces/default/pods?limit=10',
    userAgent: 'kubectl.1.33/v1.33.1 (linux/amd64) kubernetes/8adc0f0',
    code: 200,
    startInFile: true,
    endInFile: true,
    ...(response ? { response } : {}),
  };
}

const token = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDB9';

describe('compareList', () => {
  const cases: Array<{
    name: string;
    logged: ImportedRequest;
    continued?: boolean;
    engine: EngineAnswer;
    disagrees: string[];
  }> = [
    {
      // kubectl -v=8's Table body cut at 1024 characters: its metadata object was read whole.
      name: 'a cut body whose ListMeta was read: remainingItemCount compared by value',
      logged: list({ resourceVersion: '40', continue: token, remainingItemCount: 25 }),
      engine: { status: 200, items: 10, continue: 'x', remainingItemCount: 48 },
      disagrees: ['remainingItemCount'],
    },
    {
      name: 'a cut body whose ListMeta has no continue: the last page, so an engine token differs',
      logged: list({ resourceVersion: '40' }),
      engine: { status: 200, items: 10, continue: 'x', remainingItemCount: 18 },
      disagrees: ['continue', 'remainingItemCount'],
    },
    {
      name: 'the same values: agrees',
      logged: list({ resourceVersion: '40', continue: token, remainingItemCount: 25 }),
      engine: { status: 200, items: 10, continue: 'x', remainingItemCount: 25 },
      disagrees: [],
    },
    {
      name: 'the last page read whole (no continue, no remainingItemCount): agrees with the same',
      logged: list({ resourceVersion: '40', items: 5 }),
      engine: { status: 200, items: 5, continue: '' },
      disagrees: [],
    },
    {
      name: 'no body in the log (an audit event at Metadata level): nothing to compare',
      logged: list(),
      engine: { status: 200, items: 10, continue: 'x', remainingItemCount: 48 },
      disagrees: [],
    },
    {
      name: 'no body, but a later page sent a token: a continue came back, the engine none',
      logged: list(),
      continued: true,
      engine: { status: 200, items: 5, continue: '' },
      disagrees: ['continue'],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = compareList(c.logged, false, c.continued)(c.engine);
      assert.deepStrictEqual(got.disagrees ?? [], c.disagrees);
    });
});
