// No upstream counterpart: one client's LIST pages linked into pagination chains, from the log
// alone. Page N+1 sends the continue token page N answered with (k8s.io/apiserver
// pkg/storage/continue.go: EncodeContinue/DecodeContinue); every token is decoded against the
// LIST's key prefix (storage-key-prefix.ts), so a chain shows the RV it reads at and the key each
// page starts from. A Metadata-level audit log has no response bodies: pages are then linked by
// client + path + selectors + the RV their tokens carry (the chain's snapshot). A page answered
// 410 Expired breaks its chain; the next LIST of the same key from scratch, or with the
// inconsistent-continuation token (rv -1) the 410 handed out, is a new chain linked to the broken
// one.
import type { ChainToken, PaginationChain } from '../run/import-report';
import type { ListPath } from '../request/list-path';
import type { ImportedRequest } from '../run/imported-request';
import { decodeContinueToken, splitRequestURI, type DecodedContinue } from './request-query';
import { Retained } from './retained';

/** Chains kept per client; the rest are counted (`chainsTotal`, `chainsDropped`). */
export const maxChainsPerClient = 50;
/** Pages of one chain whose code and token are kept; a longer chain still counts every page. */
export const maxPagesPerChain = 200;
/** Chains of one key (client, path, selectors) followed at once; an older one is settled. */
const maxOpenPerKey = 4;

export const chainRule = `a pagination chain is keyed by client (user agent and user) + path + label/field selectors + the RV its continue tokens carry; a page continues the chain whose last answer carried its token (when the log has responses), else the open chain of its key at the token's RV, else the key's newest chain whose RV is not known yet (only its first page seen); the next LIST of the key after a 410 (from scratch, or with the rv -1 token the 410 handed out) is a new chain linked to the broken one; at most ${maxChainsPerClient} chains are kept per client (broken, restarted, paged and relist chains first), the rest counted`;

interface OpenChain {
  chain: PaginationChain;
  /** The continue token the last page answered with ('' none; undefined: the log does not say). */
  lastContinue: string | undefined;
  /** The start key of the last token sent (to match a 410's inconsistent-continuation token). */
  lastStartKey?: string;
  /** The last page's HTTP status (0: the log does not say). */
  lastCode: number;
}

function timeOf(r: ImportedRequest): number | null {
  return r.receivedAt ?? r.completedAt ?? null;
}

function position(r: ImportedRequest): string {
  const s = r.sources[0];
  return s ? `${s.file}:${s.line}` : r.id;
}

function chainNotable(c: PaginationChain): boolean {
  return (
    c.pages > 1 ||
    c.outcome !== 'complete' ||
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

  constructor(private readonly nextId: () => number) {}

  /** Folds one LIST (a relist when `relist`) and returns its chain. */
  add(r: ImportedRequest, scope: ListPath | undefined, relist: boolean): PaginationChain {
    const { path, query } = splitRequestURI(r.requestURI);
    const selector = [
      query.get('labelSelector') ? `labelSelector=${query.get('labelSelector')}` : '',
      query.get('fieldSelector') ? `fieldSelector=${query.get('fieldSelector')}` : '',
    ]
      .filter((x) => x)
      .join('&');
    const key = `${r.user ?? ''}\n${path}\n${selector}`;
    const token = query.get('continue') ?? '';
    const open = this.open.get(key) ?? [];
    let o: OpenChain | undefined;
    let linkedBy: ChainToken['linkedBy'] = 'none';
    let decoded: DecodedContinue | undefined;
    if (token !== '') {
      decoded = decodeContinueToken(token, scope);
      const rv = 'error' in decoded ? undefined : decoded.resourceVersion;
      o = open.find((c) => c.lastContinue === token);
      if (o) linkedBy = 'response';
      else if (rv !== undefined && rv !== '-1') {
        o = open.find((c) => c.lastContinue === undefined && c.chain.resourceVersion === rv);
        if (o) linkedBy = 'rv';
        else {
          o = [...open]
            .reverse()
            .find((c) => c.lastContinue === undefined && c.chain.resourceVersion === null);
          if (o) linkedBy = 'first-page';
        }
      }
    }
    if (!o) {
      const chain: PaginationChain = {
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
      const limit = Number(query.get('limit') ?? '');
      if (Number.isInteger(limit) && limit > 0) chain.limit = limit;
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
      if (relist && token === '') chain.relist = true;
      o = { chain, lastContinue: undefined, lastCode: 0 };
      open.push(o);
      if (open.length > maxOpenPerKey) this.settle(open.shift() as OpenChain);
      this.open.set(key, open);
    }
    const c = o.chain;
    const page = c.pages++;
    const code = r.code ?? 0;
    o.lastCode = code;
    if (page < maxPagesPerChain) {
      c.codes.push(code);
      if (decoded) c.tokens.push({ page, linkedBy, ...decoded });
    }
    if (decoded && !('error' in decoded)) {
      o.lastStartKey = decoded.startKey;
      if (c.resourceVersion === null && decoded.resourceVersion !== '-1')
        c.resourceVersion = decoded.resourceVersion;
    }
    c.endedAt = r.completedAt ?? timeOf(r);
    o.lastContinue = r.response?.continue;
    if (code === 410) {
      c.outcome = 'expired';
      c.expired = { page, at: r.completedAt ?? timeOf(r), message: r.status?.message ?? '' };
      this.close(key, o);
      this.expired.set(key, o);
    } else if (code >= 300) {
      c.outcome = 'error';
      this.close(key, o);
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

  /** Settles the chains still open (the log ended) and returns the kept ones. */
  finish(): { chains: PaginationChain[]; total: number; dropped: number } {
    for (const open of this.open.values()) for (const o of open) this.settle(o);
    this.open.clear();
    const chains = this.retained.items().sort((a, b) => a.id - b.id);
    return { chains, total: this.retained.total, dropped: this.retained.dropped };
  }

  private close(key: string, o: OpenChain): void {
    const open = this.open.get(key);
    if (open) {
      const i = open.indexOf(o);
      if (i >= 0) open.splice(i, 1);
      if (open.length === 0) this.open.delete(key);
    }
    this.retained.add(o.chain, chainNotable(o.chain));
  }

  /** A chain no page followed: open when its last answer had a token, else taken as complete. */
  private settle(o: OpenChain): void {
    const c = o.chain;
    if (c.outcome === 'open' && o.lastContinue === undefined && o.lastCode !== 0) {
      c.outcome = 'complete';
      c.complete = true;
      c.completeKnown = false;
    }
    this.retained.add(c, chainNotable(c));
  }
}
