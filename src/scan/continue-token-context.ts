// No upstream counterpart: finds continue tokens in log text line by line (continue-token-scan.ts)
// and tells, for each, the key prefix of the LIST it belongs to, read from the request itself as
// the apiserver would have it (storage-key-prefix.ts): the token's URL or another LIST URL on the
// line, an audit event's objectRef, the request line a kubectl `Response Body` answers, or the
// list object the token sits in. When nothing says, the configured prefix is used and the result
// says so (keyPrefixSource "setting": an assumed key).
import type { KeyPrefixSource } from '../format/explanation';
import { rawUrlEncoding, decodeUtf8 } from '../engine/http-face';
import {
  findContinueTokens,
  maxScanLineLength,
  type FoundContinueToken,
} from './continue-token-scan';
import { ListDocumentTracker, listFactsOf, type ListDocumentFacts } from './list-document';
import {
  auditRequest,
  isResponseBodyMessage,
  listUrlsOnLine,
  opensKlogBlock,
  parseKlogHeader,
  requestLineUrl,
} from './log-line-context';
import {
  defaultEtcdPrefix,
  listKeyPrefix,
  listKindResource,
  resourceKeyPrefix,
  type ListScope,
} from '../request/storage-key-prefix';
import { parseListPath, type ListPath } from '../request/list-path';

/** The key prefix a token is decoded against, and what said so. */
export interface KeyPrefixContext {
  keyPrefix: string;
  keyPrefixSource: KeyPrefixSource;
  /** The resource (and namespace) the source names; absent for "setting". */
  scope?: ListScope;
  /** For people: the URL path, objectRef, request or list kind that gave the prefix. */
  detail: string;
  /** 1-based line of the request or list the prefix came from, when that is not the token's line. */
  fromLine?: number;
}

/** A token found in the text, with its 0-based line and its key prefix. */
export interface ContextualToken extends FoundContinueToken, KeyPrefixContext {
  line: number;
}

export interface TokenContextOptions {
  /** The prefix to assume when nothing says (the setting, or the CLI's --prefix). */
  fallbackPrefix: string;
  /** Describes the fallback in `detail`, e.g. "listwatch.keyPrefix" or "--prefix". */
  fallbackName: string;
  /** kube-apiserver's --etcd-prefix (default "/registry"). */
  etcdPrefix?: string;
}

interface RequestSeen {
  line: number;
  list?: ListPath;
}

interface Pending {
  token: FoundContinueToken;
  line: number;
  document?: number;
  resolved?: ContextualToken;
}

/** The start key a token's JSON holds, read leniently (the token may be damaged); undefined if unreadable. */
function peekStart(token: string): string | undefined {
  const cleaned = token.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  try {
    const parsed: unknown = JSON.parse(decodeUtf8(rawUrlEncoding.decodeString(cleaned)));
    const start = (parsed as { start?: unknown } | null)?.start;
    return typeof start === 'string' ? start : undefined;
  } catch {
    return undefined;
  }
}

function describeScope(scope: ListScope): string {
  const gr = scope.group ? `${scope.resource}.${scope.group}` : scope.resource;
  return scope.namespace ? `${gr} in namespace ${scope.namespace}` : `${gr}, all namespaces`;
}

/**
 * The prefix a list object implies. The object does not record its request's namespace, and a
 * cluster-wide LIST may return items of one namespace only, so the items alone do not decide. The
 * token does: a namespaced resource's keys are <prefix><namespace>/<name>, so a cluster-wide
 * LIST's start key is "<namespace>/<name>…" and a namespaced LIST's is a bare "<name>…" (names hold
 * no "/"). A bare start with the items' one namespace is that namespace's LIST; a bare start of a
 * cluster-scoped resource (or of items without namespace) is the resource prefix; otherwise (no
 * items, or a token that does not decode) the list cannot say.
 */
export function listContext(
  facts: ListDocumentFacts,
  token: string,
  etcdPrefix = defaultEtcdPrefix,
): Omit<KeyPrefixContext, 'fromLine'> | undefined {
  if (!facts.kind) return undefined;
  const resource = listKindResource(facts.apiVersion, facts.kind);
  if (!resource) return undefined;
  const gr = { group: resource.group, resource: resource.resource };
  const kind = `${facts.kind}${facts.apiVersion ? ` (${facts.apiVersion})` : ''}`;
  const whole = (why: string): Omit<KeyPrefixContext, 'fromLine'> => ({
    keyPrefix: resourceKeyPrefix(gr, etcdPrefix),
    keyPrefixSource: 'list',
    scope: gr,
    detail: `${kind}: ${why}`,
  });
  if (resource.namespaced === false) return whole('a cluster-scoped resource');
  const start = peekStart(token);
  if (start === undefined) return undefined;
  const relative = start.replace(/^\/+/, '');
  if (relative.includes('/'))
    return whole('the start key names its namespace, so the LIST was cluster-wide');
  if (facts.itemNamespaces.size === 1) {
    const [namespace] = facts.itemNamespaces;
    const scope = { ...gr, namespace };
    return {
      keyPrefix: listKeyPrefix(scope, etcdPrefix),
      keyPrefixSource: 'list',
      scope,
      detail: `${kind}: a bare start key, items in namespace ${namespace}, so a LIST of that namespace`,
    };
  }
  if (facts.items > 0 && facts.itemNamespaces.size === 0)
    return whole('items without a namespace (a cluster-scoped resource)');
  return undefined;
}

/**
 * Reads text line by line (push, then end) and hands back each token with its key prefix, in
 * order of position. A token inside a multi-line list object waits until the object ends (its kind
 * or items may come after it); everything after it waits too, so the order never changes.
 */
export class ContinueTokenContextScanner {
  private readonly opts: Required<TokenContextOptions>;
  private lineNo: number;
  /** The last request line of each klog pid ("" for lines without a pid). */
  private readonly requests = new Map<string, RequestSeen>();
  /** Inside a klog multi-line value: whether it is a response body, and for which request. */
  private block: { responseTo?: RequestSeen } | undefined;
  private readonly documents = new ListDocumentTracker();
  private readonly queue: Pending[] = [];

  /** `firstLine`: the 0-based number of the first line pushed (when reading from the middle of a text). */
  constructor(opts: TokenContextOptions, firstLine = 0) {
    this.opts = { etcdPrefix: defaultEtcdPrefix, ...opts };
    this.lineNo = firstLine - 1;
  }

  /** Reads the next line; returns the tokens whose prefix is now known (possibly from earlier lines). */
  push(rawLine: string): ContextualToken[] {
    // Only the scanned part of a very long line counts (see maxScanLineLength), for every rule.
    const text = rawLine.length > maxScanLineLength ? rawLine.slice(0, maxScanLineLength) : rawLine;
    this.lineNo++;
    const line = this.lineNo;
    const found = findContinueTokens(text);
    const klog = parseKlogHeader(text);
    if (klog) {
      this.block = undefined;
      this.endDocument(this.documents.end());
      const request = this.requests.get(klog.pid);
      const responseTo = isResponseBodyMessage(klog.message) ? request : undefined;
      this.resolveLine(found, line, text, responseTo);
      const url = requestLineUrl(klog.message);
      if (url !== undefined) {
        const list = parseListPath(url);
        this.requests.set(klog.pid, list ? { line, list } : { line });
      }
      if (opensKlogBlock(klog.message)) this.block = responseTo ? { responseTo } : {};
      return this.flush();
    }
    if (this.block && text.startsWith('\t')) {
      this.resolveLine(found, line, text, this.block.responseTo);
      return this.flush();
    }
    if (this.block && /^ >/.test(text)) {
      this.block = undefined;
      this.resolveLine(found, line, text, undefined);
      return this.flush();
    }
    this.block = undefined;
    const structure = this.documents.push(text);
    this.endDocument(structure.ended);
    const inList =
      structure.document !== undefined &&
      structure.path?.length === 2 &&
      structure.path[0] === 'metadata' &&
      (structure.path[1] === 'continue' || structure.path[1] === '_continue');
    const bare = this.sameLineContext(text, found, undefined);
    for (const [i, token] of found.entries()) {
      const context = bare[i];
      if (context.keyPrefixSource === 'setting' && inList) {
        this.queue.push({ token, line, document: structure.document });
      } else {
        this.queue.push({ token, line, resolved: { ...token, ...context, line } });
      }
    }
    return this.flush();
  }

  /** The end of the text: tokens still waiting on a list object get what it says, or the fallback. */
  end(): ContextualToken[] {
    this.endDocument(this.documents.end());
    return this.flush();
  }

  private resolveLine(
    found: FoundContinueToken[],
    line: number,
    text: string,
    responseTo: RequestSeen | undefined,
  ): void {
    const contexts = this.sameLineContext(text, found, responseTo);
    for (const [i, token] of found.entries())
      this.queue.push({ token, line, resolved: { ...token, ...contexts[i], line } });
  }

  /** What the line (and the request it answers, if any) says about each token on it. */
  private sameLineContext(
    text: string,
    found: FoundContinueToken[],
    responseTo: RequestSeen | undefined,
  ): KeyPrefixContext[] {
    if (found.length === 0) return [];
    const etcd = this.opts.etcdPrefix;
    const audit = auditRequest(text);
    const urls = audit ? [] : listUrlsOnLine(text);
    let oneLineList: ListDocumentFacts | undefined;
    if (!audit && /^\s*\{.*\}\s*$/.test(text)) {
      try {
        oneLineList = listFactsOf(JSON.parse(text));
      } catch {
        oneLineList = undefined;
      }
    }
    const fromUrl = (list: ListPath, detail: string): KeyPrefixContext => ({
      keyPrefix: listKeyPrefix(list, etcd),
      keyPrefixSource: 'url',
      scope: list,
      detail,
    });
    return found.map((t): KeyPrefixContext => {
      if (audit?.objectRef) {
        return {
          keyPrefix: listKeyPrefix(audit.objectRef, etcd),
          keyPrefixSource: 'objectRef',
          scope: audit.objectRef,
          detail: `audit event objectRef: ${describeScope(audit.objectRef)}`,
        };
      }
      if (audit?.requestUri)
        return fromUrl(audit.requestUri, `audit event requestURI ${audit.requestUri.path}`);
      const own = urls.find((u) => t.start >= u.start && t.end <= u.end);
      if (own) return fromUrl(own.list, `the request URL ${own.list.path}`);
      if (responseTo?.list) {
        return {
          keyPrefix: listKeyPrefix(responseTo.list, etcd),
          keyPrefixSource: 'request',
          scope: responseTo.list,
          detail: `the response to GET ${responseTo.list.path} (line ${responseTo.line + 1})`,
          fromLine: responseTo.line + 1,
        };
      }
      if (urls.length > 0)
        return fromUrl(urls[0].list, `the URL on this line, ${urls[0].list.path}`);
      const fromList = oneLineList && listContext(oneLineList, t.token, etcd);
      return fromList ?? this.fallback();
    });
  }

  private fallback(): KeyPrefixContext {
    return {
      keyPrefix: this.opts.fallbackPrefix,
      keyPrefixSource: 'setting',
      detail: `assumed: ${this.opts.fallbackName}`,
    };
  }

  private endDocument(ended: { document: number; facts: ListDocumentFacts } | undefined): void {
    if (!ended) return;
    for (const p of this.queue) {
      if (p.resolved || p.document !== ended.document) continue;
      const fromList = listContext(ended.facts, p.token.token, this.opts.etcdPrefix);
      p.resolved = { ...p.token, ...(fromList ?? this.fallback()), line: p.line };
    }
  }

  private flush(): ContextualToken[] {
    const ready: ContextualToken[] = [];
    while (this.queue.length > 0 && this.queue[0].resolved) {
      ready.push((this.queue.shift() as Pending).resolved as ContextualToken);
    }
    return ready;
  }
}

/** Every token in `lines` with its key prefix, in order. */
export function scanWithContext(
  lines: Iterable<string>,
  opts: TokenContextOptions,
): ContextualToken[] {
  const scanner = new ContinueTokenContextScanner(opts);
  const out: ContextualToken[] = [];
  for (const line of lines) out.push(...scanner.push(line));
  out.push(...scanner.end());
  return out;
}
