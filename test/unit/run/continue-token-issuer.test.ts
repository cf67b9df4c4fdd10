// Tests for src/run/continue-token-issuer.ts: the one rule by which the import's and the replay's
// pagination chains find the open chain whose previous page issued a LIST page's continue token.
import * as assert from 'assert';
import {
  issuerOf,
  keyAfter,
  type ContinuePoint,
  type OpenChainEnd,
} from '../../../src/run/continue-token-issuer';

interface Named extends OpenChainEnd {
  name: string;
}

function chain(name: string, o: Partial<OpenChainEnd> = {}): Named {
  return {
    name,
    lastContinue: undefined,
    lastToken: '',
    lastCode: 200,
    resourceVersion: null,
    ...o,
  };
}

const at = (resourceVersion: string, startKey: string): ContinuePoint => ({
  resourceVersion,
  startKey,
});

describe('issuerOf: the open chain that issued a continue token', () => {
  const cases: Array<{
    name: string;
    open: Named[];
    token: string;
    decoded?: ContinuePoint;
    /** The page's limit (client-go's pager and kubectl send the same one on every page). */
    limit?: number;
    want?: [string, string];
  }> = [
    {
      name: 'the token a last page answered with',
      open: [chain('a', { lastContinue: 'T2' }), chain('b', { lastContinue: 'T1' })],
      token: 'T1',
      decoded: at('10', 'default/p1'),
      want: ['b', 'response'],
    },
    {
      name: 'the very token of a page that failed: a retry',
      open: [chain('a', { lastToken: 'T1', lastCode: 504, lastStartKey: 'default/p1' })],
      token: 'T1',
      decoded: at('10', 'default/p1'),
      want: ['a', 'retry'],
    },
    {
      name: 'without responses: the chain at the token RV whose last start is nearest before it',
      open: [
        chain('early', { lastToken: 'X', lastStartKey: 'default/p0500', resourceVersion: '10' }),
        chain('late', { lastToken: 'Y', lastStartKey: 'default/p0999', resourceVersion: '10' }),
        chain('other-rv', { lastToken: 'Z', lastStartKey: 'default/p1100', resourceVersion: '9' }),
      ],
      token: 'T',
      decoded: at('10', 'default/p1000'),
      want: ['late', 'rv'],
    },
    {
      name: 'a first page (no RV yet) takes the token of a chain that has none',
      open: [chain('first')],
      token: 'T',
      decoded: at('10', 'default/p0500'),
      want: ['first', 'first-page'],
    },
    {
      // #24 third review: kubectl get --chunk-size=100 and, on another connection, get -w's
      // limit=500 LIST (one page, all 300 pods) in one audit log: the continue pages are the
      // limit=100 chain's, not the newer limit=500 first page's.
      name: 'a first page (no RV yet) that asked for another limit does not take the token',
      open: [chain('chunked', { limit: 100 }), chain('whole', { limit: 500 })],
      token: 'T',
      decoded: at('315', 'default/pod-099'),
      limit: 100,
      want: ['chunked', 'first-page'],
    },
    {
      name: 'the chain at the token RV that asked for the same limit',
      open: [
        chain('a', {
          lastToken: 'X',
          lastStartKey: 'default/p0100',
          resourceVersion: '10',
          limit: 100,
        }),
        chain('b', {
          lastToken: 'Y',
          lastStartKey: 'default/p0500',
          resourceVersion: '10',
          limit: 500,
        }),
      ],
      token: 'T',
      decoded: at('10', 'default/p0600'),
      limit: 100,
      want: ['a', 'rv'],
    },
    {
      name: 'with no chain of the same limit, the nearest as before',
      open: [chain('first', { limit: 500 })],
      token: 'T',
      decoded: at('10', 'default/p0500'),
      limit: 100,
      want: ['first', 'first-page'],
    },
    {
      name: "a 410's inconsistent continuation (rv -1) continues no chain",
      open: [chain('first')],
      token: 'T',
      decoded: at('-1', 'default/p0500'),
    },
    {
      name: 'a token that does not decode continues only by response or retry',
      open: [chain('first')],
      token: 'T',
    },
    {
      name: 'a chain whose last page said it was the last takes no token',
      open: [chain('done', { lastContinue: '', resourceVersion: '10', lastStartKey: 'default/a' })],
      token: 'T',
      decoded: at('10', 'default/b'),
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = issuerOf(c.open, c.token, c.decoded, c.limit);
      assert.deepStrictEqual(got ? [got.o.name, got.linkedBy] : undefined, c.want, c.name);
    });

  it('keys compare as etcd orders them, by UTF-8 bytes (not UTF-16 units)', () => {
    // U+FF21 is after U+1F600 in UTF-16 units, before it in UTF-8 bytes.
    assert.strictEqual(keyAfter('default/\u{1F600}', 'default/\uFF21'), true);
    assert.strictEqual(keyAfter('default/a', undefined), true);
    assert.strictEqual(keyAfter('default/a', 'default/a'), false);
  });
});
