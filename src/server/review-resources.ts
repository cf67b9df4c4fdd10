// The review resources kube-apiserver 1.36 serves with a creater and no storage
// (pkg/registry/authorization/rest/storage_authorization.go: selfsubjectaccessreviews,
// selfsubjectrulesreviews; pkg/registry/authentication/rest/storage_authentication.go:
// selfsubjectreviews), as discovery lists them (api/discovery/apis__authorization.k8s.io__v1.json,
// apis__authentication.k8s.io__v1.json: verbs create only, cluster-scoped, no shortNames, no
// storageVersionHash since their REST is no StorageVersionProvider). A table of its own beside
// builtin-api-resources.ts rather than rows flagged there: that table's every row is an engine
// resource with an etcd key prefix and a watch cache (resource-storage.ts), and every reader of it
// (ServedResources, the key-prefix rules, explain, the storage metrics) would have to skip these.
// Deliberate difference: the other reviews (subjectaccessreviews, localsubjectaccessreviews,
// tokenreviews) are not served: no client asks them of a test apiserver.
import type { KubeObject } from '../engine';
import { createSelfSubjectAccessReview } from './registry/self-subject-access-review';
import { createSelfSubjectRulesReview } from './registry/self-subject-rules-review';
import { createSelfSubjectReview } from './registry/self-subject-review';

/** One review resource: its discovery facts and its REST.Create. */
export interface ReviewResource {
  group: string;
  version: string;
  resource: string;
  singularName: string;
  kind: string;
  namespaced: false;
  verbs: readonly string[];
  shortNames: readonly string[];
  categories: readonly string[];
  /** A built-in kind: protobuf bodies are decoded, discovery's responseKind names no group. */
  jsonOnly: false;
  /** No storage: discovery gives no storageVersionHash. */
  stored: false;
  /** REST.Create of the decoded review at `now` (ms): the answer written with 201. */
  create(review: KubeObject, now: number): KubeObject;
}

function review(
  group: string,
  resource: string,
  kind: string,
  create: ReviewResource['create'],
): ReviewResource {
  return {
    group,
    version: 'v1',
    resource,
    singularName: kind.toLowerCase(),
    kind,
    namespaced: false,
    verbs: ['create'],
    shortNames: [],
    categories: [],
    jsonOnly: false,
    stored: false,
    create,
  };
}

/** The review resources served, by group and resource name. */
export const reviewResources: readonly ReviewResource[] = [
  review(
    'authentication.k8s.io',
    'selfsubjectreviews',
    'SelfSubjectReview',
    createSelfSubjectReview,
  ),
  review(
    'authorization.k8s.io',
    'selfsubjectaccessreviews',
    'SelfSubjectAccessReview',
    createSelfSubjectAccessReview,
  ),
  review(
    'authorization.k8s.io',
    'selfsubjectrulesreviews',
    'SelfSubjectRulesReview',
    createSelfSubjectRulesReview,
  ),
];

/** The review resource a request's group, version and resource name address, if any. */
export function findReviewResource(
  group: string,
  version: string,
  resource: string,
): ReviewResource | undefined {
  return reviewResources.find(
    (r) => r.group === group && r.version === version && r.resource === resource,
  );
}
