// Mirrors k8s.io/apiserver pkg/endpoints/discovery/storageversionhash.go (release-1.36).
import { createHash } from 'crypto';

/**
 * StorageVersionHash: base64 of the first 8 bytes of sha256("group/version/kind"), what discovery
 * reports so that storage migrators notice a changed storage version.
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  const sum = createHash('sha256').update(`${group}/${version}/${kind}`).digest();
  return sum.subarray(0, 8).toString('base64');
}
