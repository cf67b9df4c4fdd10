// No upstream counterpart: the one rule that links a LIST page to the pagination chain whose
// previous page issued its continue token (page N+1 sends the token page N answered with,
// k8s.io/apiserver pkg/storage/continue.go), from a log alone. The import's chains
// (src/import/pagination-chains.ts, which states it as chainRule) and the replay's
// (src/replay/replay-chains.ts) both link by it, so the two cannot drift apart.

/** How a page was found to continue its chain ('none': it starts one). */
export type ChainLinkedBy = 'response' | 'rv' | 'first-page' | 'retry' | 'none';

/** What the rule reads of an open chain's last page. */
export interface OpenChainEnd {
  /** The continue token the last page answered with ('' none; undefined: the log does not say). */
  lastContinue: string | undefined;
  /** The continue token the last page sent ('' : it was the first page). */
  lastToken: string;
  /** The last page's HTTP status (0: the log does not say). */
  lastCode: number;
  /** The start key of the last token sent (pages start ever later). */
  lastStartKey?: string;
  /** The RV the chain's tokens read at (null: no token seen yet). */
  resourceVersion: string | null;
  /** The limit its pages ask for (undefined: none): client-go's pager sends the same on each. */
  limit?: number;
}

/** A continue token, decoded: the RV it reads at (-1: a 410's inconsistent continuation) and its start key. */
export interface ContinuePoint {
  resourceVersion: string;
  startKey: string;
}

const utf8 = new TextEncoder();

/** etcd's key order: by UTF-8 bytes (-1, 0, 1). */
function compareKeyBytes(x: string, y: string): number {
  const a = utf8.encode(x);
  const b = utf8.encode(y);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** etcd orders keys by their bytes; a chain's pages start at ever later keys. */
export function keyAfter(key: string, previous: string | undefined): boolean {
  return previous === undefined || compareKeyBytes(key, previous) > 0;
}

/** The last page failed or its answer is not in the log: the client may send its token again. */
export function mayRetry(o: OpenChainEnd): boolean {
  return o.lastCode === 0 || o.lastCode >= 300;
}

/**
 * The open chain whose previous page issued `token` (`decoded`: undefined when it does not
 * decode), and how it is known; undefined when none did: the token that chain's last page
 * answered with; else the very token its last page sent, when that page failed or its answer is
 * not in the log (a retry); else, without responses, a chain still taking pages at the token's RV
 * whose last start is before the token's (the nearest: a later chain at the same RV has started
 * fewer keys in), or one that has no RV yet; else a chain that sent the same token (a retry).
 * Without responses, a chain whose pages ask for the page's `limit` goes first: client-go's
 * pager and kubectl --chunk-size send one limit on every page, and one client's chunked LIST
 * and its whole one (get -w's) start at the same RV in an audit log.
 */
export function issuerOf<T extends OpenChainEnd>(
  open: readonly T[],
  token: string,
  decoded: ContinuePoint | undefined,
  limit?: number,
): { o: T; linkedBy: ChainLinkedBy } | undefined {
  const byResponse = open.find((c) => c.lastContinue === token);
  if (byResponse) return { o: byResponse, linkedBy: 'response' };
  const retried = open.find((c) => c.lastToken === token);
  if (retried && mayRetry(retried)) return { o: retried, linkedBy: 'retry' };
  if (decoded === undefined || decoded.resourceVersion === '-1') return undefined;
  const { resourceVersion: rv, startKey } = decoded;
  const candidates = open.filter(
    (c) =>
      c.lastContinue === undefined &&
      c.lastCode < 300 &&
      keyAfter(startKey, c.lastStartKey) &&
      c.lastToken !== token,
  );
  const sameLimit = candidates.filter((c) => limit !== undefined && c.limit === limit);
  const growing = sameLimit.length ? sameLimit : candidates;
  const atRV = growing
    .filter((c) => c.resourceVersion === rv)
    .sort((a, b) => compareKeyBytes(b.lastStartKey ?? '', a.lastStartKey ?? ''))[0];
  if (atRV) return { o: atRV, linkedBy: 'rv' };
  const noRV = [...growing].reverse().find((c) => c.resourceVersion === null);
  if (noRV) return { o: noRV, linkedBy: noRV.lastToken === '' ? 'first-page' : 'rv' };
  if (retried) return { o: retried, linkedBy: 'retry' };
  return undefined;
}
