// Mirrors k8s.io/apiserver pkg/endpoints/handlers/create.go (release-1.36) createHandler for a
// rest.Creater with no storage (the review resources, review-resources.ts): the Content-Type
// (415), the body, the CreateOptions, the decode, then the creater's answer with 201. Deliberate
// difference: the answer is always the object as JSON (no Table or PartialObjectMetadata
// conversion: no client asks one of a review), pretty when negotiated.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { builtinBodyMediaTypes, decodeBody, negotiateInputMediaType } from '../json-body';
import type { QueryValues } from '../../request/list-query';
import type { ReviewResource } from '../review-resources';
import { writeOptionsOf } from '../write-options';
import { writeObject } from './response';

/** What a review's create is given. */
export interface ReviewScope {
  review: ReviewResource;
  query: QueryValues;
  req: IncomingMessage;
  res: ServerResponse;
  /** The negotiated response's indentation. */
  pretty: boolean;
  /** The server's wall clock (ms). */
  now: number;
  /** The request body, read at most once, under maxRequestBodyBytes (413 past it). */
  body(): Promise<Buffer>;
}

/** POST to a review resource: decode, REST.Create, 201 with the answer. */
export async function createReview(scope: ReviewScope): Promise<void> {
  const { review, req } = scope;
  negotiateInputMediaType(req.headers['content-type'], builtinBodyMediaTypes);
  const body = await scope.body();
  writeOptionsOf(scope.query, 'CreateOptions');
  const decoded = decodeBody(
    body,
    { group: review.group, version: review.version, kind: review.kind, unstructured: false },
    {
      contentType: req.headers['content-type'],
      fieldValidation: scope.query.get('fieldValidation')?.[0],
    },
  );
  if (decoded.warnings.length > 0)
    scope.res.setHeader(
      'Warning',
      decoded.warnings.map((w) => `299 - ${JSON.stringify(w)}`),
    );
  writeObject(scope.res, 201, review.create(decoded.object, scope.now), scope.pretty);
}
