// No upstream counterpart: the log's LIST pages linked into pagination chains for the replay, by
// the rule the import's chains link by too (src/run/continue-token-issuer.ts issuerOf; stated as
// chainRule in src/import/pagination-chains.ts): a chain starts at a first page (no continue) and
// grows only by a page whose token its previous page issued: the token that page answered with
// (the log has bodies), else a token at the chain's RV whose start key is after the previous
// page's start (the nearest), or the very token of a page that failed or whose answer the log does
// not show (a retry). A page no open chain issued its token to starts an orphan chain (its first
// page is before the log).
// Interleaved runs of one client at one RV (three `kubectl get --chunk-size=500` a second apart)
// stay three chains, so the replay re-issues each with its own engine token and counts its pages.
import { decodeContinue } from '../engine';
import { parseQuery } from '../request/list-query';
import { listKeyPrefix } from '../request/storage-key-prefix';
import type { ScheduledRequest } from './replay-schedule';
import { issuerOf, type ContinuePoint, type OpenChainEnd } from '../run/continue-token-issuer';

/** One chain as the log tells it. */
export interface LogChain {
  id: number;
  /** Its pages in the log's order (a retried page twice). */
  pages: ScheduledRequest[];
  /** The limit its first page asked for (0: none). */
  limit: number;
  /** The RV its tokens read at (undefined: no token seen yet). */
  resourceVersion?: string;
  /** The first page is before the log: the chain began with a continue token. */
  orphan: boolean;
}

/** Where a LIST is in its chain. */
export interface ChainPlace {
  chain: LogChain;
  page: number;
}

interface OpenChain extends OpenChainEnd {
  chain: LogChain;
}

function answered(s: ScheduledRequest): string | undefined {
  return s.request.response?.continue;
}

/** The LIST's chain key: its client, collection and query without the continue token. */
function chainKey(s: ScheduledRequest): string {
  const rest = s.query
    .split('&')
    .filter((p) => p !== '' && !p.startsWith('continue='))
    .join('&');
  return [s.client, s.group, s.resource, s.namespace, rest].join('\u0000');
}

function decoded(s: ScheduledRequest, token: string): ContinuePoint | undefined {
  try {
    const prefix = listKeyPrefix({ group: s.group, resource: s.resource, namespace: s.namespace });
    const d = decodeContinue(token, prefix);
    return { resourceVersion: String(d.resourceVersion), startKey: d.fromKey };
  } catch {
    return undefined;
  }
}

/** Links every LIST of `requests` (in their replay order) into its chain. */
export function linkChains(
  requests: readonly ScheduledRequest[],
): Map<ScheduledRequest, ChainPlace> {
  const places = new Map<ScheduledRequest, ChainPlace>();
  const open = new Map<string, OpenChain[]>();
  let nextId = 1;
  for (const s of requests) {
    if (s.verb !== 'list') continue;
    const key = chainKey(s);
    const chains = open.get(key) ?? [];
    const token = parseQuery(s.query).get('continue')?.[0] ?? '';
    const d = token ? decoded(s, token) : undefined;
    let o: OpenChain | undefined;
    const asked = Number(parseQuery(s.query).get('limit')?.[0] ?? '');
    const limit = Number.isInteger(asked) && asked > 0 ? asked : 0;
    if (token) o = issuerOf(chains, token, d, limit || undefined)?.o;
    if (!o) {
      o = {
        chain: {
          id: nextId++,
          pages: [],
          limit,
          orphan: token !== '',
        },
        lastToken: token,
        lastContinue: undefined,
        lastCode: 0,
        resourceVersion: null,
        ...(limit ? { limit } : {}),
      };
      chains.push(o);
      open.set(key, chains);
    }
    places.set(s, { chain: o.chain, page: o.chain.pages.length });
    o.chain.pages.push(s);
    o.lastToken = token;
    o.lastContinue = answered(s);
    o.lastCode = s.request.code ?? 0;
    if (d) {
      o.lastStartKey = d.startKey;
      if (o.resourceVersion === null && d.resourceVersion !== '-1')
        o.chain.resourceVersion = o.resourceVersion = d.resourceVersion;
    }
    const code = s.request.code;
    const ended =
      code === 410 ||
      (code !== undefined && code < 300 && s.request.response !== undefined && !answered(s));
    if (ended) chains.splice(chains.indexOf(o), 1);
  }
  return places;
}

/**
 * Whether the log proves this page answered with a continue token: its body says so, or a later
 * page of its chain sent a token (not the same one again: a retry proves nothing more).
 */
export function answeredWithToken(place: ChainPlace): boolean {
  const s = place.chain.pages[place.page];
  if (s.request.code === undefined || s.request.code >= 300) return false;
  if (s.request.response !== undefined) return Boolean(answered(s));
  const token = parseQuery(s.query).get('continue')?.[0] ?? '';
  return place.chain.pages
    .slice(place.page + 1)
    .some((p) => (parseQuery(p.query).get('continue')?.[0] ?? '') !== token);
}
