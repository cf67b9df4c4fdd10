// No upstream counterpart as one function: what the creaters of the review kinds
// (pkg/registry/authorization/*, pkg/registry/authentication/*) return, as encoding/json writes
// it: the kind and apiVersion the serializer sets, metadata as decoded, then the kind's fields.
import type { KubeObject } from '../../engine';

/** A decoded review: a built-in object with a spec. */
export type Review = KubeObject & { spec?: unknown };

/** The answer of a review creater: `review`'s kind, apiVersion and metadata, then `fields`. */
export function reviewObject(
  review: Pick<KubeObject, 'kind' | 'apiVersion' | 'metadata'>,
  fields: Readonly<Record<string, unknown>>,
): KubeObject {
  return {
    kind: review.kind,
    apiVersion: review.apiVersion,
    metadata: review.metadata ?? {},
    ...fields,
  } as KubeObject;
}
