// Tests for src/scan/continue-token-context.ts: each token's key prefix read from its context.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  ContinueTokenContextScanner,
  scanWithContext,
  type ContextualToken,
} from '../../../src/scan/continue-token-context';
import { explainContinueToken } from '../../../src/engine';

const fixtures = path.resolve(__dirname, '../../../../test/fixtures');
const setting = '/registry/pods/';
const opts = { fallbackPrefix: setting, fallbackName: 'listwatch.keyPrefix' };

/** The token the apiserver hands out for a start key (Go's json.Marshal; no <, > or & here). */
function tok(start: string, rv = 48213): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

function scan(text: string): ContextualToken[] {
  return scanWithContext(text.split('\n'), opts);
}

/** [line (1-based), source, keyPrefix, the absolute key the apiserver resumes at] per token. */
function summary(text: string): Array<[number, string, string, string]> {
  return scan(text).map((t) => [
    t.line + 1,
    t.keyPrefixSource,
    t.keyPrefix,
    explainContinueToken(t.token, t.keyPrefix).resumePoint?.key ?? '(invalid)',
  ]);
}

const kubeProxy = tok('kube-proxy\u0000');
const checkout = tok('prod/checkout\u0000');
const widget = tok('blue\u0000');

describe('continue token context: where the key prefix comes from', () => {
  const cases: Array<[string, string, Array<[number, string, string, string]>]> = [
    [
      'url: a namespaced configmaps LIST (kubectl 1.33 request line)',
      `I0312 10:15:07.169284   17122 round_trippers.go:527] "Request" verb="GET" url="https://10.0.0.1:6443/api/v1/namespaces/kube-system/configmaps?continue=${kubeProxy}&limit=1" headers=<`,
      [
        [
          1,
          'url',
          '/registry/configmaps/kube-system/',
          '/registry/configmaps/kube-system/kube-proxy\u0000',
        ],
      ],
    ],
    [
      'url: apps/v1 deployments, cluster-wide (kubectl 1.20 GET line)',
      `I0312 10:15:01.026457   16890 round_trippers.go:422] GET https://10.0.0.1:6443/apis/apps/v1/deployments?continue=${checkout}&limit=500`,
      [[1, 'url', '/registry/deployments/', '/registry/deployments/prod/checkout\u0000']],
    ],
    [
      'url: an apiserver httplog line',
      `I0312 10:15:01.026457      11 httplog.go:134] "HTTP" verb="LIST" URI="/apis/stable.example.com/v1/namespaces/team-a/crontabs?continue=${widget}&limit=2" latency="3ms"`,
      [
        [
          1,
          'url',
          '/registry/stable.example.com/crontabs/team-a/',
          '/registry/stable.example.com/crontabs/team-a/blue\u0000',
        ],
      ],
    ],
    [
      'request: a 1.33 Response Body answers the request line of its pid',
      [
        `I0312 10:15:07.146378   17122 round_trippers.go:527] "Request" verb="GET" url="https://h/api/v1/namespaces/kube-system/configmaps?limit=1" headers=<`,
        '\tAccept: application/json',
        ' >',
        `I0312 10:15:07.150000   17999 round_trippers.go:527] "Request" verb="GET" url="https://h/api/v1/nodes?limit=1" headers=<`,
        ' >',
        `I0312 10:15:07.156590   17122 helper.go:113] "Response Body" body="{\\"kind\\":\\"ConfigMapList\\",\\"metadata\\":{\\"continue\\":\\"${kubeProxy}\\"}}"`,
      ].join('\n'),
      [
        [
          6,
          'request',
          '/registry/configmaps/kube-system/',
          '/registry/configmaps/kube-system/kube-proxy\u0000',
        ],
      ],
    ],
    [
      'request: a 1.33 body=< block',
      [
        `I0312 10:15:44.552358   18066 round_trippers.go:527] "Request" verb="GET" url="http://h/apis/apps/v1/namespaces/prod/deployments?limit=1" headers=<`,
        ' >',
        'I0312 10:15:44.564290   18066 get.go:174] "Response Body" body=<',
        `\t{"kind":"DeploymentList","apiVersion":"apps/v1","metadata":{"continue":"${tok('checkout\u0000')}"},"items":[]}`,
        ' >',
      ].join('\n'),
      [[4, 'request', '/registry/deployments/prod/', '/registry/deployments/prod/checkout\u0000']],
    ],
    [
      'request: a 1.20 Response Body after its GET',
      [
        'I0312 10:15:01.008324   16890 round_trippers.go:422] GET https://h/api/v1/namespaces/shop/services?limit=500',
        'I0312 10:15:01.008330   16890 round_trippers.go:429] Request Headers:',
        `I0312 10:15:01.019975   16890 request.go:1107] Response Body: {"kind":"Table","metadata":{"continue":"${tok('web\u0000')}"}}`,
      ].join('\n'),
      [[3, 'request', '/registry/services/specs/shop/', '/registry/services/specs/shop/web\u0000']],
    ],
    [
      'objectRef: an audit event (namespaced, core group)',
      `{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"a","requestURI":"/api/v1/namespaces/kube-system/configmaps?continue=${kubeProxy}\\u0026limit=1","verb":"list","objectRef":{"resource":"configmaps","namespace":"kube-system","apiVersion":"v1"}}`,
      [
        [
          1,
          'objectRef',
          '/registry/configmaps/kube-system/',
          '/registry/configmaps/kube-system/kube-proxy\u0000',
        ],
      ],
    ],
    [
      'objectRef: an audit event with apiGroup, its response list on the same line',
      `{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"b","requestURI":"/apis/apps/v1/deployments?limit=2","verb":"list","objectRef":{"resource":"deployments","apiGroup":"apps","apiVersion":"v1"},"responseObject":{"kind":"DeploymentList","metadata":{"continue":"${checkout}"}}}`,
      [[1, 'objectRef', '/registry/deployments/', '/registry/deployments/prod/checkout\u0000']],
    ],
    [
      'url: an audit event without objectRef uses its requestURI',
      `{"kind":"Event","apiVersion":"audit.k8s.io/v1","auditID":"c","requestURI":"/api/v1/nodes?continue=${tok('node-7\u0000')}\\u0026limit=5","verb":"list"}`,
      [[1, 'url', '/registry/minions/', '/registry/minions/node-7\u0000']],
    ],
    [
      'list: a namespaced ConfigMapList in YAML (bare start, items in one namespace)',
      [
        'apiVersion: v1',
        'items:',
        '- apiVersion: v1',
        '  data:',
        '    namespace: not-this-one',
        '  kind: ConfigMap',
        '  metadata:',
        '    name: coredns',
        '    namespace: kube-system',
        '- metadata:',
        '    name: kube-proxy',
        '    namespace: kube-system',
        'kind: ConfigMapList',
        'metadata:',
        `  continue: ${kubeProxy}`,
        '  resourceVersion: "48213"',
      ].join('\n'),
      [
        [
          15,
          'list',
          '/registry/configmaps/kube-system/',
          '/registry/configmaps/kube-system/kube-proxy\u0000',
        ],
      ],
    ],
    [
      'list: a cluster-wide DeploymentList in JSON (the start names its namespace)',
      [
        '{',
        '    "kind": "DeploymentList",',
        '    "apiVersion": "apps/v1",',
        '    "metadata": {',
        `        "continue": "${checkout}"`,
        '    },',
        '    "items": [',
        '        {',
        '            "metadata": {',
        '                "name": "checkout",',
        '                "namespace": "prod"',
        '            }',
        '        }',
        '    ]',
        '}',
      ].join('\n'),
      [[5, 'list', '/registry/deployments/', '/registry/deployments/prod/checkout\u0000']],
    ],
    [
      'list: a cluster-scoped CRD list (items without namespace)',
      [
        'apiVersion: example.com/v1',
        'items:',
        '- metadata:',
        '    name: blue',
        'kind: WidgetList',
        'metadata:',
        `  continue: ${widget}`,
      ].join('\n'),
      [[7, 'list', '/registry/example.com/widgets/', '/registry/example.com/widgets/blue\u0000']],
    ],
    [
      'list: a NodeList needs no items (cluster-scoped)',
      [
        'kind: NodeList',
        'apiVersion: v1',
        'metadata:',
        `  continue: ${tok('node-1\u0000')}`,
        'items: []',
      ].join('\n'),
      [[4, 'list', '/registry/minions/', '/registry/minions/node-1\u0000']],
    ],
    [
      'list: one line of kubectl get --raw',
      `{"kind":"SecretList","apiVersion":"v1","metadata":{"continue":"${tok('db\u0000')}"},"items":[{"metadata":{"name":"db","namespace":"shop"}}]}`,
      [[1, 'list', '/registry/secrets/shop/', '/registry/secrets/shop/db\u0000']],
    ],
    [
      'setting: an empty page of a namespaced resource cannot say which namespace',
      [
        'kind: PodList',
        'apiVersion: v1',
        'metadata:',
        `  continue: ${tok('web-1\u0000')}`,
        'items: []',
      ].join('\n'),
      [[4, 'setting', setting, '/registry/pods/web-1\u0000']],
    ],
    [
      'setting: a bare token on its own',
      `the token was ${kubeProxy} yesterday`,
      [[1, 'setting', setting, '/registry/pods/kube-proxy\u0000']],
    ],
    [
      'setting: a Response Body whose request is not in the text',
      `I0312 10:15:07.156590   17122 helper.go:113] "Response Body" body="{\\"metadata\\":{\\"continue\\":\\"${kubeProxy}\\"}}"`,
      [[1, 'setting', setting, '/registry/pods/kube-proxy\u0000']],
    ],
  ];
  for (const [name, text, want] of cases) {
    it(name, () => assert.deepStrictEqual(summary(text), want, name));
  }

  it('says what gave the prefix, and on which line', () => {
    const [t] = scan(
      [
        'I0312 10:15:01.008324   16890 round_trippers.go:422] GET https://h/api/v1/namespaces/shop/pods?limit=1',
        `I0312 10:15:01.019975   16890 request.go:1107] Response Body: {"metadata":{"continue":"${tok('a\u0000')}"}}`,
      ].join('\n'),
    );
    assert.strictEqual(t.fromLine, 1);
    assert.deepStrictEqual(t.scope, {
      group: '',
      version: 'v1',
      namespace: 'shop',
      resource: 'pods',
      path: '/api/v1/namespaces/shop/pods',
    });
    assert.match(t.detail, /GET \/api\/v1\/namespaces\/shop\/pods \(line 1\)/);
    assert.strictEqual(scan(kubeProxy)[0].detail, 'assumed: listwatch.keyPrefix');
  });

  it('keeps the order: tokens after one waiting on its list wait too', () => {
    const scanner = new ContinueTokenContextScanner(opts);
    const lines = [
      'metadata:',
      `  continue: ${kubeProxy}`,
      'kind: ConfigMapList',
      'items:',
      '- metadata:',
      '    namespace: kube-system',
    ];
    for (const line of lines) assert.deepStrictEqual(scanner.push(line), [], line);
    const next = `I0312 10:15:01.000000   1 round_trippers.go:422] GET https://h/api/v1/pods?continue=${checkout}`;
    const out = scanner.push(next);
    assert.deepStrictEqual(
      out.map((t) => [t.line, t.keyPrefixSource, t.keyPrefix]),
      [
        [1, 'list', '/registry/configmaps/kube-system/'],
        [6, 'url', '/registry/pods/'],
      ],
    );
    assert.deepStrictEqual(scanner.end(), []);
  });

  it('the end of the text resolves a list still open', () => {
    const scanner = new ContinueTokenContextScanner(opts);
    scanner.push('kind: SecretList');
    assert.deepStrictEqual(scanner.push(`metadata: {}`), []);
    scanner.push('metadata:');
    assert.deepStrictEqual(scanner.push(`  continue: ${tok('shop/db\u0000')}`), []);
    assert.deepStrictEqual(
      scanner.end().map((t) => t.keyPrefix),
      ['/registry/secrets/'],
    );
  });

  it('uses the etcd prefix it is given', () => {
    const [t] = scanWithContext([`GET /api/v1/nodes?continue=${tok('n\u0000')}`], {
      ...opts,
      etcdPrefix: '/prod-registry',
    });
    assert.strictEqual(t.keyPrefix, '/prod-registry/minions/');
  });
});

describe('continue token context on the fixtures', () => {
  // [fixture, per token: line, source, keyPrefix]
  const cases: Array<[string, Array<[number, string, string]>]> = [
    [
      'kubectl-v8-1.20.log',
      [
        [53, 'request', '/registry/pods/'],
        [54, 'url', '/registry/pods/'],
        [66, 'request', '/registry/pods/'],
        [67, 'url', '/registry/pods/'],
      ],
    ],
    [
      'kubectl-v8-1.33.log',
      [
        [20, 'request', '/registry/pods/'],
        [22, 'url', '/registry/pods/'],
        [34, 'request', '/registry/pods/'],
        [36, 'url', '/registry/pods/'],
      ],
    ],
    [
      'audit.log',
      [
        [2, 'objectRef', '/registry/pods/'],
        [3, 'objectRef', '/registry/pods/shop/'],
        [5, 'objectRef', '/registry/pods/'],
        [5, 'objectRef', '/registry/pods/'],
        [6, 'objectRef', '/registry/pods/'],
        [7, 'objectRef', '/registry/pods/'],
      ],
    ],
    ['pod-list.json', [[6, 'list', '/registry/pods/']]],
    ['pod-list.yaml', [[99, 'list', '/registry/pods/']]],
    [
      'bad-tokens.log',
      [8, 36, 64, 92, 120, 148].map((line): [number, string, string] => [
        line,
        'url',
        '/registry/pods/',
      ]),
    ],
  ];
  for (const [name, want] of cases) {
    it(name, () => {
      const text = fs.readFileSync(path.join(fixtures, name), 'utf8');
      assert.deepStrictEqual(
        scan(text).map((t) => [t.line + 1, t.keyPrefixSource, t.keyPrefix]),
        want,
      );
    });
  }

  it('audit.log line 3: the shop LIST resumes inside /registry/pods/shop/', () => {
    const t = scan(fs.readFileSync(path.join(fixtures, 'audit.log'), 'utf8'))[1];
    const e = explainContinueToken(t.token, t.keyPrefix);
    assert.ok(e.valid, e.error?.message);
    assert.strictEqual(e.resumePoint?.key, '/registry/pods/shop/api-7d9f8c6b5-2ablc13\u0000');
  });
});
