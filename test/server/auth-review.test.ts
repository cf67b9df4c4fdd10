// `kubectl auth can-i` and `kubectl auth whoami` against `listwatch serve`, with every kubectl on
// the machine, and the review resources' exact answers over HTTP (review-resources.ts): the
// server's one user is in system:masters, so every access review is allowed (with the privileged
// group authorizer's empty reason) and the rules review lists cluster-admin's rules. No upstream
// counterpart: upstream tests these in test/integration/auth against a real kube-apiserver.
import * as assert from 'assert';
import { recordKubectlTest, suiteKubectls } from './harness/clients';
import { kubectl, type Kubectl } from './harness/kubectl';
import { ServeProcess } from './harness/serve-process';

/** `auth whoami` came with kubectl 1.26 (alpha), on v1 from 1.28. */
const hasWhoami = (k: Kubectl): boolean => k.major === 1 && k.minor >= 28;

/** kubectl's `auth can-i` commands, with what they print and their exit code. */
const canICases: ReadonlyArray<{ args: string[]; stdout: string; code: number }> = [
  { args: ['auth', 'can-i', 'create', 'deployments'], stdout: 'yes\n', code: 0 },
  { args: ['auth', 'can-i', 'delete', 'nodes'], stdout: 'yes\n', code: 0 },
  { args: ['auth', 'can-i', 'get', 'pods', '-n', 'kube-system'], stdout: 'yes\n', code: 0 },
  { args: ['auth', 'can-i', 'get', '/healthz'], stdout: 'yes\n', code: 0 },
  { args: ['auth', 'can-i', '*', '*'], stdout: 'yes\n', code: 0 },
];

/** The review resources' answers to raw requests (JSON bodies), status and body exact. */
const reviewCases: ReadonlyArray<{
  name: string;
  path: string;
  body: unknown;
  status: number;
  want: unknown;
}> = [
  {
    name: 'an access review echoes its spec with allowed: true',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'create',
          group: 'apps',
          resource: 'deployments',
        },
      },
    },
    status: 201,
    want: {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'create',
          group: 'apps',
          resource: 'deployments',
        },
      },
      status: { allowed: true },
    },
  },
  {
    name: 'a non-resource access review',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    },
    status: 201,
    want: {
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
      status: { allowed: true },
    },
  },
  {
    name: 'a rules review answers a new review (spec not echoed) with cluster-admin rules',
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'default' },
    },
    status: 201,
    want: {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {},
      status: {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    },
  },
  {
    name: 'a rules review without a namespace is a BadRequest',
    path: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} },
    status: 400,
    want: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'no namespace on request',
      reason: 'BadRequest',
      code: 400,
    },
  },
];

/** `auth can-i --list`: kubectl's table of the rules review's answer. */
const canIList = [
  'Resources   Non-Resource URLs   Resource Names   Verbs',
  '*.*         []                  []               [*]',
  '            [*]                 []               [*]',
  '',
].join('\n');

/** `auth whoami`: kubectl's table of the self subject review's user. */
const whoami = [
  'ATTRIBUTE   VALUE',
  'Username    listwatch',
  'Groups      [system:masters system:authenticated]',
  '',
].join('\n');

describe('review resources: exact answers over HTTP', function () {
  let serve: ServeProcess;
  before(async () => {
    serve = await ServeProcess.start();
  });
  after(async () => {
    if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
  });

  for (const c of reviewCases)
    it(c.name, async () => {
      const r = await serve.request('POST', c.path, { body: c.body });
      assert.strictEqual(r.status, c.status, r.body);
      assert.deepStrictEqual(JSON.parse(r.body), c.want);
    });

  it('a self subject review names the token user, created now', async () => {
    const r = await serve.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    assert.strictEqual(r.status, 201, r.body);
    const got = JSON.parse(r.body) as { metadata: { creationTimestamp: string } };
    assert.match(got.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepStrictEqual(got, {
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: got.metadata.creationTimestamp },
      status: {
        userInfo: { username: 'listwatch', groups: ['system:masters', 'system:authenticated'] },
      },
    });
  });

  // Only POST to the collection is routed (go-restful): another method there is its 405, any other
  // path its 404, each through NewGenericServerResponse (details present, empty).
  const generic = (code: number, reason: string, message: string) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details: {},
    code,
  });
  const methodNotAllowed = generic(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
  const notFound = generic(404, 'NotFound', 'the server could not find the requested resource');
  const refused: ReadonlyArray<[string, string, unknown]> = [
    ['GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', methodNotAllowed],
    ['DELETE', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', methodNotAllowed],
    ['PUT', '/apis/authentication.k8s.io/v1/selfsubjectreviews', methodNotAllowed],
    ['GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x', notFound],
    ['POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews/x', notFound],
    ['POST', '/apis/authorization.k8s.io/v1/namespaces/default/selfsubjectaccessreviews', notFound],
  ];
  for (const [method, path, want] of refused)
    it(`${method} ${path}: ${(want as { code: number }).code}`, async () => {
      const r = await serve.request(method, path);
      assert.deepStrictEqual(JSON.parse(r.body), want);
      assert.strictEqual(r.status, (want as { code: number }).code);
    });
});

for (const k of suiteKubectls())
  describe(`kubectl ${k.gitVersion}: auth against listwatch serve`, function () {
    let serve: ServeProcess;
    const run = (args: string[]) =>
      kubectl(k, { kubeconfig: serve.info.kubeconfig, dir: serve.dir }, args);

    before(async () => {
      serve = await ServeProcess.start();
    });
    beforeEach(() => recordKubectlTest(k));
    after(async () => {
      if (serve) assert.strictEqual(await serve.stop(), 0, 'listwatch serve exit code on SIGTERM');
    });

    for (const c of canICases)
      it(`${c.args.join(' ')}: ${c.stdout.trim()}`, async () => {
        const r = await run(c.args);
        assert.strictEqual(r.code, c.code, r.stderr);
        assert.strictEqual(r.stdout, c.stdout);
      });

    it('auth can-i --list: the table of cluster-admin rules', async () => {
      const r = await run(['auth', 'can-i', '--list']);
      assert.strictEqual(r.code, 0, r.stderr);
      assert.strictEqual(r.stdout, canIList);
    });

    if (hasWhoami(k))
      it('auth whoami: the token user and its groups', async () => {
        const r = await run(['auth', 'whoami']);
        assert.strictEqual(r.code, 0, r.stderr);
        assert.strictEqual(r.stdout, whoami);
      });
  });
