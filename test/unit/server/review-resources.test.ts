// Tests for src/server/review-resources.ts and its creaters (registry/self-subject-*.ts): the table
// says what kube-apiserver 1.36's discovery says of the review resources (the documents in
// kube-apiserver-discovery.ts), discovery lists them as a creater with no storage (no
// storageVersionHash), and each creater answers as upstream's REST.Create does for a user in
// system:masters.
import * as assert from 'assert';
import type { KubeObject } from '../../../src/engine';
import { StatusError } from '../../../src/engine';
import { aggregatedDiscovery, apiResourceList } from '../../../src/server/discovery';
import { decodeBody } from '../../../src/server/json-body';
import { reviewResources, findReviewResource } from '../../../src/server/review-resources';
import { upstreamReviewDiscovery } from '../request/kube-apiserver-discovery';

const at = Date.UTC(2026, 11, 7, 13, 30, 5, 250);

describe('server/review-resources', () => {
  it("the table is kube-apiserver 1.36's discovery rows of the review resources", () => {
    const want = upstreamReviewDiscovery.flatMap(({ groupVersion, resources }) =>
      resources.map((u) => ({ groupVersion, ...u })),
    );
    const got = reviewResources.map((r) => ({
      groupVersion: `${r.group}/${r.version}`,
      name: r.resource,
      singularName: r.singularName,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs],
    }));
    assert.deepStrictEqual(got, want);
  });

  it('the legacy APIResourceList of each group version is the upstream document (no storageVersionHash)', () => {
    for (const { groupVersion, source, resources } of upstreamReviewDiscovery) {
      const inGV = reviewResources.filter((r) => `${r.group}/${r.version}` === groupVersion);
      const got = JSON.parse(JSON.stringify(apiResourceList(groupVersion, inGV))) as unknown;
      assert.deepStrictEqual(got, { groupVersion, resources }, source);
    }
  });

  it('the aggregated document lists them create-only, cluster-scoped, responseKind without group', () => {
    const got = aggregatedDiscovery(
      reviewResources.filter((r) => r.group === 'authorization.k8s.io'),
    );
    assert.deepStrictEqual(JSON.parse(JSON.stringify(got)), [
      {
        metadata: { name: 'authorization.k8s.io' },
        versions: [
          {
            version: 'v1',
            resources: ['SelfSubjectAccessReview', 'SelfSubjectRulesReview'].map((kind) => ({
              resource: `${kind.toLowerCase()}s`,
              responseKind: { group: '', version: '', kind },
              scope: 'Cluster',
              singularResource: kind.toLowerCase(),
              verbs: ['create'],
            })),
            freshness: 'Current',
          },
        ],
      },
    ]);
  });

  it('findReviewResource finds only a served group, version and resource', () => {
    const cases: ReadonlyArray<[string, string, string, string | undefined]> = [
      ['authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'],
      ['authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'],
      ['authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview'],
      ['authorization.k8s.io', 'v1beta1', 'selfsubjectaccessreviews', undefined],
      ['authorization.k8s.io', 'v1', 'subjectaccessreviews', undefined],
      ['', 'v1', 'selfsubjectaccessreviews', undefined],
    ];
    for (const [group, version, resource, kind] of cases)
      assert.strictEqual(findReviewResource(group, version, resource)?.kind, kind, resource);
  });

  // REST.Create of each kind on a decoded JSON body: the answer, or the Status it throws.
  const createCases: ReadonlyArray<{
    name: string;
    resource: string;
    body: Record<string, unknown>;
    want?: unknown;
    error?: { code: number; reason: string; message: string };
  }> = [
    {
      name: 'access review: spec and metadata echoed, allowed with no reason',
      resource: 'selfsubjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'x' } },
      },
      want: {
        kind: 'SelfSubjectAccessReview',
        apiVersion: 'authorization.k8s.io/v1',
        metadata: {},
        spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'x' } },
        status: { allowed: true },
      },
    },
    {
      name: 'rules review: a new review, cluster-admin rules, complete',
      resource: 'selfsubjectrulesreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        metadata: { name: 'ignored' },
        spec: { namespace: 'default' },
      },
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
      name: 'rules review without spec.namespace',
      resource: 'selfsubjectrulesreviews',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview' },
      error: { code: 400, reason: 'BadRequest', message: 'no namespace on request' },
    },
    {
      name: 'self subject review: the token user, created at the clock second',
      resource: 'selfsubjectreviews',
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { name: 'ignored' },
      },
      want: {
        kind: 'SelfSubjectReview',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { creationTimestamp: '2026-12-07T13:30:05Z' },
        status: {
          userInfo: { username: 'listwatch', groups: ['system:masters', 'system:authenticated'] },
        },
      },
    },
  ];
  for (const c of createCases)
    it(`create: ${c.name}`, () => {
      const review = reviewResources.find((r) => r.resource === c.resource)!;
      const decoded = decodeBody(
        new TextEncoder().encode(JSON.stringify(c.body)),
        { group: review.group, version: review.version, kind: review.kind, unstructured: false },
        { contentType: 'application/json' },
      ).object as KubeObject;
      if (c.error) {
        assert.throws(
          () => review.create(decoded, at),
          (e: unknown) =>
            e instanceof StatusError &&
            e.status.code === c.error!.code &&
            e.status.reason === c.error!.reason &&
            e.status.message === c.error!.message,
        );
        return;
      }
      assert.deepStrictEqual(review.create(decoded, at), c.want);
    });
});
