// No upstream counterpart: one client's LIST pages linked into pagination chains, from the log
// alone. Page N+1 sends the continue token page N answered with (k8s.io/apiserver
// pkg/storage/continue.go: EncodeContinue/DecodeContinue); every token is decoded against the
// LIST's key prefix (storage-key-prefix.ts), so a chain shows the RV it reads at and the key each
// page starts from. A Metadata-level audit log has no response bodies: a page then joins the chain
// of its client + path + selectors at its token's RV (the chain's snapshot) whose last page started
// before its token's start key, as only that chain's previous page can have issued it (two kubectl
// runs a second apart read at the same RV). A retried page (the same token again) stays in its
// chain, as does a failed first page sent again with the same query; a LIST that came back whole
// is a single LIST, counted, not a chain. A page answered 410 Expired breaks its chain; the next
// LIST of the same key from scratch, or with the inconsistent-continuation token (rv -1) the 410
// handed out, is a new chain linked to the broken one.
import type { ChainToken, PaginationChain } from '../run/import-report';
import type { ListPath } from '../request/list-path';
import type { ImportedRequest } from '../run/imported-request';
import { decodeContinueToken, splitRequestURI, type DecodedContinue } from './request-query';
import { Retained } from './retained';
import { issuerOf, type ContinuePoint, type OpenChainEnd } from '../run/continue-token-issuer';

/** Chains kept per client; the rest are counted (`chainsTotal`, `chainsDropped`). */
export const maxChainsPerClient = 50;
/** Pages of one chain whose code and token are kept; a longer chain still counts every page. */
export const maxPagesPerChain = 200;
/** Chains of one key (client, path, selectors) followed at once; an older one is settled. */
const maxOpenPerKey = 4;

export const chainRule = `a pagination chain is one client's (user agent and user) pages of one path + label/field selectors: it starts at a first page (no continue), and grows only by a page whose token its previous page issued: the token that page answered with (when the log has responses), else a token at the chain's RV (or any RV while the chain has none yet) whose start key is after the previous page's, one whose pages asked for the page's limit first (a pager sends one limit on every page); a page that sends again the very token of its chain's last page (a retry, after an error or an answer the log does not show) stays in the chain, and so does a first page (no continue) answered 429 or 5xx and sent again as it was (the same path and query): retries, not new pages; a page no chain issued a token to is an orphan chain (its first page is before the log); a LIST that came back whole (no continue in its answer, or without responses no next page) is a single LIST, not a chain; the next LIST of the key after a 410 (from scratch, or with the rv -1 token the 410 handed out) is a new chain linked to the broken one; at most ${maxChainsPerClient} chains are kept per client (broken, restarted, paged and relist chains first), the rest counted`;

/** An open chain: the shared rule's view of its last page (OpenChainEnd), and what the import keeps beside. */
interface OpenChain extends OpenChainEnd {
  chain: PaginationChain;
  /** The last request as sent (path and query): a failed first page is retried with the same. */
  lastRequestURI: string;
  /** The last request's index into the chain's requests (`codes`): what a retry re-sends. */
  lastAttempt: number;
}

/** A decoded token as the shared rule reads it (undefined: it does not decode). */
function continuePoint(decoded: DecodedContinue): ContinuePoint | undefined {
  return 'error' in decoded ? undefined : decoded;
}

function timeOf(r: ImportedRequest): number | null {
  return r.receivedAt ?? r.completedAt ?? null;
}

function position(r: ImportedRequest): string {
  const s = r.sources[0];
  return s ? `${s.file}:${s.line}` : r.id;
}

/**
 * One page, from scratch, that came back whole: a single LIST, counted with the client's LISTs. Its
 * retries (a 504 and the same first page sent again) are attempts of that one page, not pages.
 */
function singleList(c: PaginationChain): boolean {
  return (
    c.pages - (c.retries?.length ?? 0) === 1 &&
    c.tokens.length === 0 &&
    c.outcome === 'complete' &&
    c.restartOf === undefined &&
    c.restartedBy === undefined &&
    !c.relist
  );
}

/** Kept first (chainRule): broken, restarted, paged, orphan and relist chains, not a lone open page. */
function chainNotable(c: PaginationChain): boolean {
  return (
    c.pages > 1 ||
    c.outcome === 'expired' ||
    c.outcome === 'error' ||
    c.restartOf !== undefined ||
    c.restartedBy !== undefined ||
    !!c.orphan ||
    !!c.relist
  );
}

/** One user agent's chains (its users' apart: a chain belongs to one client). */
export class PaginationChains {
  private readonly open = new Map<string, OpenChain[]>();
  /** The key's newest chain broken by a 410, until a new chain restarts it. */
  private readonly expired = new Map<string, OpenChain>();
  private readonly retained = new Retained<PaginationChain>(maxChainsPerClient);
  /** LISTs from scratch that came back whole: not chains. */
  private singleLists = 0;
  /** Of the single LISTs, those sent again after a 429 or 5xx before they came back whole. */
  private singleListsRetried = 0;
  /** The single LISTs a relist may still claim (relisted): counted, not kept. */
  private readonly singles = new WeakSet<PaginationChain>();

  constructor(private readonly nextId: () => number) {}

  /** Folds one LIST and returns its chain. */
  add(r: ImportedRequest, scope: ListPath | undefined): PaginationChain {
    const { path, query } = splitRequestURI(r.requestURI);
    const selector = [
      query.get('labelSelector') ? `labelSelector=${query.get('labelSelector')}` : '',
      query.get('fieldSelector') ? `fieldSelector=${query.get('fieldSelector')}` : '',
    ]
      .filter((x) => x)
      .join('&');
    const key = `${r.user ?? ''}\n${path}\n${selector}`;
    const token = query.get('continue') ?? '';
    const pageLimit = Number(query.get('limit') ?? '');
    const open = this.open.get(key) ?? [];
    let o: OpenChain | undefined;
    let linkedBy: ChainToken['linkedBy'] = 'none';
    let decoded: DecodedContinue | undefined;
    let retry = false;
    if (token !== '') {
      decoded = decodeContinueToken(token, scope);
      const issuer = issuerOf(
        open,
        token,
        continuePoint(decoded),
        Number.isInteger(pageLimit) && pageLimit > 0 ? pageLimit : undefined,
      );
      if (issuer) ({ o, linkedBy } = issuer);
      retry = linkedBy === 'retry';
    } else {
      // A first page that failed (429, 5xx), sent again as it was: client-go's retry, the same
      // chain. The newest such chain: an older one was given up.
      o = [...open]
        .reverse()
        .find(
          (c) =>
            c.lastToken === '' &&
            c.lastCode >= 300 &&
            c.chain.outcome === 'error' &&
            c.lastRequestURI === r.requestURI,
        );
      retry = o !== undefined;
    }
    if (!o) {
      const chain: PaginationChain = {
        // Numbered as it starts (a single LIST's number goes unused), so numbers follow the log.
        id: this.nextId(),
        path,
        selector,
        ...(r.user !== undefined ? { user: r.user } : {}),
        resourceVersion: null,
        startedAt: timeOf(r),
        endedAt: null,
        firstLine: position(r),
        pages: 0,
        codes: [],
        tokens: [],
        complete: false,
        completeKnown: true,
        outcome: 'open',
      };
      if (Number.isInteger(pageLimit) && pageLimit > 0) chain.limit = pageLimit;
      const broken = this.expired.get(key);
      const inconsistent =
        token !== '' &&
        decoded !== undefined &&
        !('error' in decoded) &&
        decoded.resourceVersion === '-1';
      if (
        broken &&
        (token === '' ||
          (inconsistent &&
            decoded !== undefined &&
            !('error' in decoded) &&
            (broken.lastContinue === token || broken.lastStartKey === decoded.startKey)))
      ) {
        chain.restartOf = {
          chain: broken.chain.id,
          how: token === '' ? 'from-scratch' : 'inconsistent-continue',
        };
        broken.chain.restartedBy = chain.id;
        this.expired.delete(key);
      } else if (token !== '') chain.orphan = true;
      o = {
        chain,
        lastContinue: undefined,
        lastToken: token,
        lastRequestURI: r.requestURI,
        lastAttempt: 0,
        lastCode: 0,
        resourceVersion: null,
        ...(chain.limit !== undefined ? { limit: chain.limit } : {}),
      };
      open.push(o);
      if (open.length > maxOpenPerKey) this.settle(open.shift() as OpenChain);
      this.open.set(key, open);
    }
    const c = o.chain;
    // A retry after an error: this page decides the outcome again.
    if (c.outcome === 'error') c.outcome = 'open';
    const page = c.pages++;
    const code = r.code ?? 0;
    if (retry && page < maxPagesPerChain)
      (c.retries ??= []).push({ attempt: page, retryOf: o.lastAttempt });
    o.lastCode = code;
    o.lastToken = token;
    o.lastRequestURI = r.requestURI;
    o.lastAttempt = page;
    if (page < maxPagesPerChain) {
      c.codes.push(code);
      if (decoded) c.tokens.push({ page, linkedBy, ...decoded });
    }
    if (decoded && !('error' in decoded)) {
      o.lastStartKey = decoded.startKey;
      if (c.resourceVersion === null && decoded.resourceVersion !== '-1')
        c.resourceVersion = o.resourceVersion = decoded.resourceVersion;
    }
    c.endedAt = r.completedAt ?? timeOf(r);
    o.lastContinue = r.response?.continue;
    if (code === 410) {
      c.outcome = 'expired';
      c.expired = { page, at: r.completedAt ?? timeOf(r), message: r.status?.message ?? '' };
      this.close(key, o);
      this.expired.set(key, o);
    } else if (code >= 300) {
      // Kept open: the client may send the same token again (a retried page stays in its chain).
      c.outcome = 'error';
    } else if (
      (r.response !== undefined && !r.response.continue) ||
      (page === 0 && c.limit === undefined && token === '')
    ) {
      // The answer said it was the last page (no continue in its ListMeta), or a LIST without
      // limit is one page.
      c.outcome = 'complete';
      c.complete = true;
      this.close(key, o);
    }
    return c;
  }

  /**
   * The chain's first page, a LIST from scratch, is a relist (relists.ts; found when it is read,
   * or later, by the watch whose end it followed): a chain, kept, even when it came back whole.
   */
  relisted(c: PaginationChain): void {
    if (c.relist) return;
    c.relist = true;
    if (this.singles.has(c)) {
      this.singles.delete(c);
      this.singleLists--;
      if (c.retries?.length) this.singleListsRetried--;
      this.retained.add(c, chainNotable(c));
    }
  }

  /** Settles the chains still open (the log ended) and returns the kept ones. */
  finish(): {
    chains: PaginationChain[];
    total: number;
    dropped: number;
    singleLists: number;
    singleListsRetried: number;
  } {
    for (const open of this.open.values()) for (const o of open) this.settle(o);
    this.open.clear();
    const chains = this.retained.items().sort((a, b) => a.id - b.id);
    return {
      chains,
      total: this.retained.total,
      dropped: this.retained.dropped,
      singleLists: this.singleLists,
      singleListsRetried: this.singleListsRetried,
    };
  }

  private close(key: string, o: OpenChain): void {
    const open = this.open.get(key);
    if (open) {
      const i = open.indexOf(o);
      if (i >= 0) open.splice(i, 1);
      if (open.length === 0) this.open.delete(key);
    }
    this.keep(o.chain);
  }

  /** A chain done with: kept unless it was a single LIST, which is only counted. */
  private keep(c: PaginationChain): void {
    if (singleList(c)) {
      this.singleLists++;
      if (c.retries?.length) this.singleListsRetried++;
      this.singles.add(c);
      return;
    }
    this.retained.add(c, chainNotable(c));
  }

  /** A chain no page followed: open when its last answer had a token, else taken as complete. */
  private settle(o: OpenChain): void {
    const c = o.chain;
    if (c.outcome === 'open' && o.lastContinue === undefined && o.lastCode !== 0) {
      c.outcome = 'complete';
      c.complete = true;
      c.completeKnown = false;
    }
    this.keep(c);
  }
}
