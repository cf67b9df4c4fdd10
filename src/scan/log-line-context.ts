// No upstream counterpart: what one log line says about the LIST request a continue token belongs
// to. Formats: klog headers (kubectl -v=6..9 from 1.20 to 1.33: `GET <url>`, `curl … '<url>'`,
// `"Request" verb="GET" url="<url>"`, `Response Body: …`, `"Response Body" body=…`), audit.k8s.io
// events (requestURI, objectRef) and any URL path on the line.
import type { ListScope } from '../request/storage-key-prefix';
import { parseListPath, type ListPath } from '../request/list-path';

/** A klog line's header: `I0312 10:15:07.146378   17122 round_trippers.go:527] message`. */
export interface KlogHeader {
  /** The process (thread) id klog prints: one kubectl run. */
  pid: string;
  message: string;
}

const klogRe = /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d+\s+(\d+) [^\]\s]+\] (.*)$/;

export function parseKlogHeader(line: string): KlogHeader | undefined {
  const m = klogRe.exec(line);
  return m ? { pid: m[1], message: m[2] } : undefined;
}

/** A request line's URL (kubectl's round_trippers.go), or undefined when the message is not one. */
export function requestLineUrl(message: string): string | undefined {
  // 1.27+: "Request" verb="GET" url="…" (also "Response" verb="GET" url="…" at -v=6).
  const structured = /^"(?:Request|Response)"\s.*?\burl="((?:[^"\\]|\\.)*)"/.exec(message);
  if (structured) return unescapeGoQuoted(structured[1]);
  // 1.20–1.26: GET https://…[ 200 OK in 5 milliseconds]
  const plain = /^(?:GET|LIST|WATCH)\s+(\S+)/.exec(message);
  if (plain) return plain[1];
  // -v=9: curl -v -XGET  -H "…" 'https://…'
  const curl = /^curl\s.*-XGET\b.*'([^']+)'\s*$/.exec(message);
  if (curl) return curl[1];
  return undefined;
}

/** True for a klog message that logs a response body (kubectl -v=8 and above). */
export function isResponseBodyMessage(message: string): boolean {
  return /^(?:Response Body:|"Response Body"\s)/.test(message);
}

/** A klog structured value continued on the following lines (`body=<` … ` >`). */
export function opensKlogBlock(message: string): boolean {
  return /=<\s*$/.test(message);
}

function unescapeGoQuoted(s: string): string {
  try {
    return JSON.parse(`"${s}"`) as string;
  } catch {
    return s;
  }
}

/** What an audit.k8s.io event line says about its request. */
export interface AuditRequest {
  /** objectRef's resource, apiGroup and namespace, when it names a resource. */
  objectRef?: ListScope;
  /** requestURI as a LIST path, when it is one. */
  requestUri?: ListPath;
}

const auditRe = /"apiVersion"\s*:\s*"audit\.k8s\.io\/|"auditID"\s*:/;
const objectRefRe = /"objectRef"\s*:\s*(\{[^{}]*\})/;
const requestUriRe = /"requestURI"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/** The request of an audit event printed as one JSON line; undefined for other lines. */
export function auditRequest(line: string): AuditRequest | undefined {
  if (!auditRe.test(line)) return undefined;
  const result: AuditRequest = {};
  const ref = objectRefRe.exec(line);
  if (ref) {
    try {
      const o = JSON.parse(ref[1]) as {
        resource?: unknown;
        apiGroup?: unknown;
        namespace?: unknown;
      };
      if (typeof o.resource === 'string' && o.resource !== '') {
        result.objectRef = {
          group: typeof o.apiGroup === 'string' ? o.apiGroup : '',
          resource: o.resource,
        };
        if (typeof o.namespace === 'string' && o.namespace !== '')
          result.objectRef.namespace = o.namespace;
      }
    } catch {
      // Not JSON after all: the requestURI may still say.
    }
  }
  const uri = requestUriRe.exec(line);
  if (uri) {
    const path = parseListPath(unescapeGoQuoted(uri[1]));
    if (path) result.requestUri = path;
  }
  return result.objectRef || result.requestUri ? result : undefined;
}

/** A LIST URL or path on a line, with where it starts and ends. */
export interface LineUrl {
  list: ListPath;
  start: number;
  end: number;
}

// A URL (scheme://host/…) or a rooted path containing /api/ or /apis/, up to a quote, space or
// the \u0026 escape Go's JSON encoder writes for '&'.
const urlRe = /(?:[a-z][a-z0-9+.-]*:\/\/[^\s"'<>/]+)?(?:\/[^\s"'<>?#/\\]+)*\/apis?\/[^\s"'<>\\]*/gi;

/** Every LIST URL or path on the line, in order. */
export function listUrlsOnLine(line: string): LineUrl[] {
  const found: LineUrl[] = [];
  for (const m of line.matchAll(urlRe)) {
    const list = parseListPath(m[0]);
    if (list) found.push({ list, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  }
  return found;
}
