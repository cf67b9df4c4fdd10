// No upstream counterpart: the event sink's account of a delegation decision. It walks the same
// branches as ShouldDelegateList (delegator/interface.go) and the Cacher's Helper methods
// (cacher-delegation.ts) and names the branch and the rule that applied, which upstream's
// boolean Result does not say.
import type { DelegationPath, DelegationRule } from '../inspect/events';
import { decodeContinue } from '../storage/continue';
import {
  resourceVersionMatchExact,
  resourceVersionMatchNotOlderThan,
  type ListOptions,
} from '../storage/list-options';
import type { Cacher } from './cacher';

/**
 * Which branch of ShouldDelegateList (and of the cacher's Helper methods) applies to a request:
 * the same decisions, spelled out for the event sink.
 */
export function explainListDelegation(
  opts: ListOptions,
  cacher: Cacher,
): { path: DelegationPath; rule: DelegationRule } {
  const exact = (
    rv: number,
    path: DelegationPath,
  ): { path: DelegationPath; rule: DelegationRule } => {
    if (!opts.recursive) return { path, rule: 'not-recursive' };
    if (cacher.watchCache.snapshots === undefined) return { path, rule: 'snapshots-disabled' };
    if (cacher.watchCache.notFresh(rv))
      return {
        path,
        rule: cacher.consistentReadSupported() ? 'future-rv' : 'future-rv-unsupported',
      };
    return {
      path,
      rule:
        cacher.watchCache.snapshots.getLessOrEqual(rv) !== undefined
          ? 'snapshot-available'
          : 'no-snapshot',
    };
  };
  const consistent = (path: DelegationPath): { path: DelegationPath; rule: DelegationRule } => ({
    path,
    rule: cacher.consistentReadSupported() ? 'consistent-read' : 'consistent-read-unsupported',
  });
  const parse = (rv: string): number => {
    try {
      return Number(cacher.versioner.parseResourceVersion(rv));
    } catch {
      return 0;
    }
  };
  switch (opts.resourceVersionMatch) {
    case resourceVersionMatchExact:
      return exact(parse(opts.resourceVersion), 'exact');
    case resourceVersionMatchNotOlderThan:
      return { path: 'not-older-than', rule: 'served-from-cache' };
    case '': {
      if (opts.predicate.continue.length > 0) {
        if (!opts.recursive) return { path: 'continue', rule: 'not-recursive' };
        let rv = 0;
        try {
          rv = Number(
            decodeContinue(opts.predicate.continue, cacher.resourcePrefix).resourceVersion,
          );
        } catch {
          return { path: 'continue', rule: 'invalid-options' };
        }
        return rv > 0 ? exact(rv, 'continue') : consistent('continue');
      }
      if (
        opts.predicate.limit > 0 &&
        opts.resourceVersion.length > 0 &&
        opts.resourceVersion !== '0'
      )
        return exact(parse(opts.resourceVersion), 'legacy-exact');
      if (opts.resourceVersion === '') return consistent('consistent');
      return { path: 'any', rule: 'served-from-cache' };
    }
    default:
      return { path: 'unknown-match', rule: 'unknown-match' };
  }
}
