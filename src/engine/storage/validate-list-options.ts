// Mirrors k8s.io/apiserver pkg/storage/interfaces.go ValidateListOptions (release-1.36): the revision and start key a list reads at, or why it cannot.
import { decodeContinue } from './continue';
import { newBadRequest } from './errors';
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
  type ListOptions,
} from './list-options';
import type { Versioner } from './versioner';

/**
 * The result of validateListOptions: withRev is the int64 revision to read at; 0n means "the
 * latest". A resourceVersion of 2^63 or more wraps negative, as Go's int64(uint64) conversion
 * does, and etcd reads a revision <= 0 at its latest.
 */
export interface ListRevision {
  withRev: bigint;
  continueKey: string;
}

/**
 * Resolves the revision to read and the continue key, in upstream's order of checks:
 * 1. recursive + continue: decode the token (400 `invalid continue token: …`), then reject any
 *    resourceVersion other than ''/'0' (400), then use the token's rv (rv < 0 => latest).
 * 2. otherwise parse resourceVersion (400 `invalid resource version: …`) and apply the match:
 *    NotOlderThan => latest (checked after the read), Exact => that rv, '' => that rv only for a
 *    recursive paged list with rv > 0 (legacy exact), anything else => a plain Error (a 500).
 */
export function validateListOptions(
  keyPrefix: string,
  versioner: Versioner,
  opts: ListOptions,
): ListRevision {
  if (opts.recursive && opts.predicate.continue.length > 0) {
    let fromKey: string;
    let continueRV: bigint;
    try {
      const decoded = decodeContinue(opts.predicate.continue, keyPrefix);
      fromKey = decoded.fromKey;
      continueRV = BigInt(decoded.resourceVersion);
    } catch (e) {
      throw newBadRequest(`invalid continue token: ${(e as Error).message}`);
    }
    if (opts.resourceVersion.length > 0 && opts.resourceVersion !== '0') {
      throw newBadRequest('specifying resource version is not allowed when using continue');
    }
    // rv < 0 (from a 410 inconsistent-continue token) means "continue at the latest revision".
    return { withRev: continueRV > 0n ? continueRV : 0n, continueKey: fromKey };
  }
  if (opts.resourceVersion.length === 0) return { withRev: 0n, continueKey: '' };
  let parsedRV: bigint;
  try {
    parsedRV = versioner.parseResourceVersion(opts.resourceVersion);
  } catch (e) {
    throw newBadRequest(`invalid resource version: ${(e as Error).message}`);
  }
  switch (opts.resourceVersionMatch) {
    case resourceVersionMatchNotOlderThan:
      // The minimum is enforced after the read (validateMinimumResourceVersion).
      return { withRev: 0n, continueKey: '' };
    case resourceVersionMatchExact:
      return { withRev: BigInt.asIntN(64, parsedRV), continueKey: '' };
    case '':
      // Legacy: a paged recursive list with an rv is served exactly at that rv.
      if (opts.recursive && opts.predicate.limit > 0 && parsedRV > 0n)
        return { withRev: BigInt.asIntN(64, parsedRV), continueKey: '' };
      return { withRev: 0n, continueKey: '' };
    default:
      throw new Error(`unknown ResourceVersionMatch value: ${opts.resourceVersionMatch}`);
  }
}
