// Tests for src/explain/cluster-state.ts: `--state k=v,…` parsing and its messages.
import * as assert from 'assert';
import { parseClusterState, formatClusterState } from '../../../src/explain/cluster-state';

describe('parseClusterState', () => {
  const good: [string, object][] = [
    ['', {}],
    ['cacheReady=false', { cacheReady: false }],
    [' cacheRV=10 , etcdRV=12 ', { cacheRV: 10, etcdRV: 12 }],
    ['rangeStreamSupported=true,compactedRV=0', { rangeStreamSupported: true, compactedRV: 0 }],
  ];
  for (const [text, want] of good)
    it(`parses ${JSON.stringify(text)}`, () =>
      assert.deepStrictEqual(parseClusterState(text), want));

  const bad: [string, string][] = [
    [
      'cacheReddy=true',
      'unknown state key "cacheReddy"; expected one of: cacheReady, consistentReadsSupported, cacheRV, etcdRV, cacheCatchesUp, oldestSnapshotRV, oldestWatchRV, compactedRV, rangeStreamSupported',
    ],
    ['cacheReady=yes', 'state cacheReady="yes": expected a boolean (true or false)'],
    ['cacheRV=-1', 'state cacheRV="-1": expected a resource version (a whole number >= 0)'],
    ['cacheRV=1.5', 'state cacheRV="1.5": expected a resource version (a whole number >= 0)'],
    ['cacheReady', 'state item "cacheReady" is not key=value; expected e.g. cacheReady=false'],
    ['cacheRV=1,cacheRV=2', 'state key cacheRV given more than once'],
  ];
  for (const [text, message] of bad)
    it(`rejects ${JSON.stringify(text)}`, () =>
      assert.throws(() => parseClusterState(text), { message }));

  it('formats what it parses', () => {
    const text = 'cacheReady=false,etcdRV=7,rangeStreamSupported=true';
    assert.strictEqual(formatClusterState(parseClusterState(text)), text);
  });
});
