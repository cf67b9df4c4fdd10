// No upstream counterpart: how an imported pagination chain (import/pagination-chains.ts) is said
// in words, the same in `listwatch import`'s text and in the inspector's Import tab.
import type { ChainToken, PaginationChain } from '../import-report';
import { visibleText } from '../../format/visible-text';

/** How the chain ended, with the 410 page and the restart. */
export function chainOutcomeText(c: PaginationChain): string {
  if (c.outcome === 'expired')
    return `broken by 410 Expired at page ${(c.expired?.page ?? 0) + 1}${c.restartedBy !== undefined ? `, restarted as chain ${c.restartedBy}` : ', not restarted in the log'}`;
  if (c.outcome === 'complete')
    return c.completeKnown
      ? 'complete'
      : 'complete (the last page seen succeeded; the log has no response bodies)';
  return c.outcome === 'error' ? 'failed' : 'open: more to read, no page followed';
}

/** Which chain this one restarts, and how. */
export function chainRestartText(restartOf: NonNullable<PaginationChain['restartOf']>): string {
  return `restarts chain ${restartOf.chain} ${restartOf.how === 'from-scratch' ? 'from scratch (no continue)' : 'with the inconsistent-continuation token (rv -1) the 410 handed out'}`;
}

/** A page's continue token, decoded (storage.DecodeContinue), and how it was linked to its chain. */
export function chainTokenText(t: ChainToken): string {
  return 'error' in t
    ? `page ${t.page + 1}: continue token does not decode: ${visibleText(t.error)}`
    : `page ${t.page + 1}: continue at rv ${t.resourceVersion} from key "${visibleText(t.fromKey)}" (DecodeContinue; linked by ${t.linkedBy})`;
}
