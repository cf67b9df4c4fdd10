// No upstream counterpart: how a pagination chain is said in words, one wording for every face:
// an imported chain (import/pagination-chains.ts) in `listwatch import`'s text and the inspector's
// Import tab; a run's retried LIST page (client-records.ts retryOf) in the Clients tab and the
// Perfetto export.
import type { ChainToken, PaginationChain } from '../import-report';
import type { ClientListRequest } from '../run-model';
import { visibleText } from '../../format/visible-text';
import { formatCount, plural } from '../../format/count-text';
import { formatVirtualTime } from './watcher-states';

/** How the chain ended, with the 410 page and the restart. */
export function chainOutcomeText(c: PaginationChain): string {
  if (c.outcome === 'expired')
    return `broken by 410 Expired at page ${chainPageOf(c, c.expired?.page ?? 0) + 1}${c.restartedBy !== undefined ? `, restarted as chain ${c.restartedBy}` : ', not restarted in the log'}`;
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

/** The page (0-based) a request of the chain (an index into `codes`) sent: a retry's is the page it re-sent. */
export function chainPageOf(c: PaginationChain, attempt: number): number {
  const retried = new Set((c.retries ?? []).map((x) => x.attempt));
  let page = -1;
  for (let i = 0; i <= attempt; i++) if (!retried.has(i)) page++;
  return Math.max(page, 0);
}

/** Its pages (each once), its retries, the limit and every request's status. */
export function chainPagesText(c: PaginationChain): string {
  const retries = c.retries?.length ?? 0;
  return `${plural(c.pages - retries, 'page')}${retries ? ` (${plural(retries, 'retry', { many: 'retries' })})` : ''}${c.limit ? ` of limit ${c.limit}` : ''} · codes ${c.codes.join(' ')}${c.pages > c.codes.length ? ' …' : ''}`;
}

/** A page's continue token, decoded (storage.DecodeContinue), and how it was linked to its chain. */
export function chainTokenText(c: PaginationChain, t: ChainToken): string {
  const page = `page ${chainPageOf(c, t.page) + 1}${t.linkedBy === 'retry' ? ' again (a retry)' : ''}`;
  return 'error' in t
    ? `${page}: continue token does not decode: ${visibleText(t.error)}`
    : `${page}: continue at rv ${t.resourceVersion} from key "${visibleText(t.fromKey)}" (DecodeContinue; linked by ${t.linkedBy})`;
}

/** Each retry of the chain: which request it re-sent, and why it is no new page. */
export function chainRetryTexts(c: PaginationChain): string[] {
  return (c.retries ?? []).map((x) => {
    const page = chainPageOf(c, x.attempt);
    const code = c.codes[x.retryOf];
    return `page ${page + 1} sent again after its ${code ? String(code) : 'unlogged'} answer: ${page === 0 ? 'the same request (no continue)' : 'the same continue token'}, a retry (client-go re-sends a request answered 429 or 5xx), not a new ${page === 0 ? 'chain' : 'page'}`;
  });
}

/** The chain came from no first page in the log. */
export const chainOrphanText = 'its first token came from a page before the log';

/** A client's LISTs that came back whole: counted, not chains (chainRule). */
export function singleListsText(n: number, retried = 0): string {
  const again = retried
    ? `; ${retried === n ? (n === 1 ? 'it was' : 'each was') : `${formatCount(retried)} ${retried === 1 ? 'was' : 'were'}`} sent again after a 429 or 5xx answer (a retry, not another LIST)`
    : '';
  return `${plural(n, 'single LIST')} (from scratch, came back whole in one page: not chains${again})`;
}

/**
 * How the records of several files were made one request each (ImportReport.joins); undefined for
 * one file with no join.
 */
export function joinsText(r: {
  files: readonly unknown[];
  requests: { total: number };
  joins: { auditID: number; timeVerbURL: number };
}): string | undefined {
  const { auditID, timeVerbURL } = r.joins;
  if (r.files.length < 2 && auditID + timeVerbURL === 0) return undefined;
  const single = Math.max(0, r.requests.total - auditID - timeVerbURL);
  return `${formatCount(auditID)} by Audit-Id, ${formatCount(timeVerbURL)} by time+verb+URL (the joins rule), ${formatCount(single)} from one file only (not joined)`;
}

/** A run's LIST that re-sent a failed attempt (ClientListRequest.retryOf), in full. */
export function listRetryText(r: ClientListRequest, failed: ClientListRequest): string {
  const answer = failed.error ? `${failed.error.code} ${failed.error.reason}` : 'failed';
  return r.page === 0
    ? `retry of page 1: the same request (no continue) again after its ${answer} answer at ${formatVirtualTime(failed.at)} (client-go re-sends a request answered 429 or 5xx with Retry-After); the same chain, not a new one`
    : `retry of page ${r.page + 1}: the same continue token again after its ${answer} answer at ${formatVirtualTime(failed.at)} (client-go re-sends a page answered 429 or 5xx with Retry-After); the token came from page ${r.page}`;
}

/** The same, short: a slice or tag name's suffix. */
export function listRetryLabel(r: ClientListRequest, failed: ClientListRequest): string {
  return `(retry of chain ${r.chain + 1} page ${r.page + 1}${failed.error ? ` → ${failed.error.code}` : ''})`;
}
