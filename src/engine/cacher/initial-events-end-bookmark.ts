// Mirrors k8s.io/apiserver pkg/storage/util.go AnnotateInitialEventsEndBookmark and
// HasInitialEventsEndBookmarkAnnotation (release-1.36), and metav1.InitialEventsAnnotationKey.
import { setMetaFieldInOrder, sortedMap } from '../storage/objects';
import { CachingObject } from './caching-object';
import type { WatchObject } from './watch';

/** metav1.InitialEventsAnnotationKey: marks the bookmark that ends a watch-list's initial events. */
export const initialEventsAnnotationKey = 'k8s.io/initial-events-end';

/**
 * storage.AnnotateInitialEventsEndBookmark: sets metadata.annotations["k8s.io/initial-events-end"]
 * = "true", keeping the other annotations. Throws when the object has no metadata.
 */
export function annotateInitialEventsEndBookmark(object: WatchObject): void {
  if (object instanceof CachingObject) {
    object.setAnnotations(
      sortedMap({ ...(object.getAnnotations() ?? {}), [initialEventsAnnotationKey]: 'true' }),
    );
    return;
  }
  const meta = (object as { metadata?: unknown } | null)?.metadata;
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    throw new Error('object does not implement the Object interfaces');
  }
  const m = meta as Record<string, unknown>;
  const annotations = sortedMap({
    ...((m.annotations as Record<string, string> | undefined) ?? {}),
    [initialEventsAnnotationKey]: 'true',
  });
  setMetaFieldInOrder(m, 'annotations', annotations);
}

/** storage.HasInitialEventsEndBookmarkAnnotation. */
export function hasInitialEventsEndAnnotation(object: WatchObject): boolean {
  const annotations =
    object instanceof CachingObject ? object.getAnnotations() : object.metadata?.annotations;
  return annotations?.[initialEventsAnnotationKey] === 'true';
}
