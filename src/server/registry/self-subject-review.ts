// Mirrors kubernetes pkg/registry/authentication/selfsubjectreview/rest.go (release-1.36): a
// creater with no store answering who the request's user is: a new review (the request's metadata
// is not echoed) with creationTimestamp now and the user's info (username, uid, groups, extra; the
// empty ones omitted). The user is the server's one (filters/authentication.ts servedUser).
import type { KubeObject } from '../../engine';
import { servedUser } from '../filters/authentication';
import { formatTime } from '../object-meta';
import { reviewObject, type Review } from './review-object';

/** REST.Create at `now` (ms): the review of the token's user. */
export function createSelfSubjectReview(review: Review, now: number): KubeObject {
  return reviewObject(
    {
      kind: review.kind,
      apiVersion: review.apiVersion,
      metadata: { creationTimestamp: formatTime(now) },
    },
    {
      status: { userInfo: { username: servedUser.username, groups: [...servedUser.groups] } },
    },
  );
}
