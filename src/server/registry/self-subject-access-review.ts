// Mirrors kubernetes pkg/registry/authorization/selfsubjectaccessreview/rest.go (release-1.36): a
// creater with no store, answering the review it was given with the authorizer's decision.
// Deliberate difference: the authorizer is kube-apiserver's privileged-group authorizer for the
// server's one user (system:masters, filters/authentication.ts): every request is allowed with
// its empty reason (authorizerfactory.privilegedGroupAuthorizer.Authorize), so no spec validation
// beyond the shape the decoder checked runs here.
import type { KubeObject } from '../../engine';
import { reviewObject, type Review } from './review-object';

/** SubjectAccessReviewStatus of an Allow with no reason: `allowed` alone (the rest omitempty). */
const privilegedGroupDecision = { allowed: true } as const;

/** REST.Create: the review echoed (metadata and spec as decoded) with the decision as its status. */
export function createSelfSubjectAccessReview(review: Review): KubeObject {
  return reviewObject(review, { spec: review.spec ?? {}, status: privilegedGroupDecision });
}
