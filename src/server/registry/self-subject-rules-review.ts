// Mirrors kubernetes pkg/registry/authorization/selfsubjectrulesreview/rest.go (release-1.36): a
// creater with no store. As there, the answer is a new review (empty metadata and spec: the
// request's are not echoed) whose status is the rule resolver's rules for the namespace asked.
// Deliberate difference: the rules are those RBAC resolves for system:masters through the
// cluster-admin ClusterRoleBinding (cluster-admin's two PolicyRules,
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go); the bootstrap roles bound to
// system:authenticated (system:basic-user, system:discovery, system:public-info-viewer) are not
// seeded here, so their narrower rules, all covered by these, are not listed.
import type { KubeObject } from '../../engine';
import { newBadRequest } from '../../engine/http-face';
import { reviewObject, type Review } from './review-object';

/** SubjectRulesReviewStatus for system:masters: everything, complete. */
const clusterAdminRules = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
} as const;

/** REST.Create: 400 without spec.namespace, else the rules in that namespace. */
export function createSelfSubjectRulesReview(review: Review): KubeObject {
  const spec = review.spec as { namespace?: unknown } | undefined;
  if (typeof spec?.namespace !== 'string' || spec.namespace === '')
    throw newBadRequest('no namespace on request');
  return reviewObject(
    { kind: review.kind, apiVersion: review.apiVersion, metadata: {} },
    { spec: {}, status: clusterAdminRules },
  );
}
