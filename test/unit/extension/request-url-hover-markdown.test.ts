// Tests for src/extension/explain/request-url-hover-markdown.ts: the assumption line says each
// assumption on its own, true for the profile and state explained (RangeStream's yes/no is
// RangeStream's, not consistent reads').
import * as assert from 'assert';
import { explainRequest } from '../../../src/explain/explain-request';
import type { ClusterState } from '../../../src/explain/cluster-state';
import { requestUrlHoverMarkdown } from '../../../src/extension/explain/request-url-hover-markdown';

/** A continue token at RV 12345 for the default namespace's pods. */
const token = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzNDUsInN0YXJ0IjoicG9kLWJcdTAwMDAifQ';
const tokenUrl = `/api/v1/namespaces/default/pods?limit=500&continue=${token}`;

/** The assumptions as the hover lists them, markdown escapes undone. */
function assumptions(md: string): string[] {
  const line = md.split('\n').find((l) => l.startsWith('_Assumed'));
  assert.ok(line, `no assumption line in\n${md}`);
  return line
    .replace(/\\(.)/g, '$1')
    .replace(/^_Assumed, not your cluster: /, '')
    .replace(/\._$/, '')
    .split('; ');
}

describe('requestUrlHoverMarkdown: the assumptions', () => {
  const cases: Array<{
    name: string;
    url: string;
    profile: '1.36' | '1.37';
    state?: Partial<ClusterState>;
    want: string[];
  }> = [
    {
      name: 'a token under 1.36: etcd 3.6 serves no RangeStream',
      url: tokenUrl,
      profile: '1.36',
      want: [
        'the watch cache is ready',
        'it is up to date with etcd (RV 12345)',
        'etcd answers RequestWatchProgress, so consistent reads may be served from the watch cache',
        'etcd does not serve RangeStream (as etcd 3.6)',
      ],
    },
    {
      name: 'a token under 1.37: etcd 3.7 serves RangeStream',
      url: tokenUrl,
      profile: '1.37',
      want: [
        'the watch cache is ready',
        'it is up to date with etcd (RV 12345)',
        'etcd answers RequestWatchProgress, so consistent reads may be served from the watch cache',
        'etcd serves RangeStream (as etcd 3.7)',
      ],
    },
    {
      name: 'a state given: each assumption follows its own key',
      url: '/api/v1/pods',
      profile: '1.37',
      state: {
        cacheReady: false,
        consistentReadsSupported: false,
        rangeStreamSupported: false,
        cacheRV: 5,
        etcdRV: 9,
        cacheCatchesUp: false,
      },
      want: [
        'the watch cache is not ready (still initialising)',
        'it is at RV 5, etcd at RV 9, and does not catch up within 3 s',
        'etcd does not answer RequestWatchProgress, so consistent reads go to etcd',
        'etcd does not serve RangeStream (as etcd 3.6)',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const e = await explainRequest(c.url, {
        profile: c.profile,
        possibleErrors: false,
        ...(c.state ? { state: c.state } : {}),
      });
      const md = requestUrlHoverMarkdown(e, c.url);
      assert.deepStrictEqual(assumptions(md), c.want, md);
    });
  }
});
