// Explains a continue token as pkg/storage/continue.go (release-1.36) judges it; used by every face
// (hover, decoder view, CLI). Plain data only, so it can cross to a webview or be printed as JSON.
import { goJsonMarshal } from '../encoding/go-json';
import {
  type ContinueTokenErrorReason,
  type ContinueTokenFailureStage,
  inspectContinue,
  pathClean,
} from './continue';

/** Something Node (or a person) would accept but the apiserver refuses, or a traversal attempt. */
export interface ContinueTokenWarning {
  kind:
    | 'empty'
    | 'padding'
    | 'non-url-alphabet'
    | 'whitespace'
    | 'line-break'
    | 'percent-encoded'
    | 'non-ascii'
    | 'traversal';
  message: string;
}

/** Plain data: safe to send to a webview, print as JSON, or render as markdown/text. */
export interface ContinueTokenExplanation {
  /** The token exactly as given. */
  token: string;
  keyPrefix: string;
  /** True when decodeContinue accepts the token for keyPrefix. */
  valid: boolean;
  /** Upstream's error when invalid; message is exactly the Go error string. */
  error?: {
    reason: ContinueTokenErrorReason;
    message: string;
    /** errors.Is(err, ErrGenericInvalidKey): true only for base64, JSON and traversal failures. */
    wrapsGenericInvalidKey: boolean;
    /** Which wrapping site failed, for GenericInvalidKey. */
    stage?: ContinueTokenFailureStage;
    /** The wrapped detail (base64/JSON error text, the offending start key, or the version). */
    cause?: string;
  };
  /** The base64-decoded bytes as text (each invalid UTF-8 byte shown as U+FFFD); absent when base64 failed. */
  decodedJson?: string;
  /** The struct as Go's json.Unmarshal filled it (rv as an exact decimal string); absent when JSON failed. */
  fields?: { v: string; rv: string; start: string };
  /** fields.v, for convenience. */
  version?: string;
  /** What the rv means for the next page. */
  rvMeaning?: string;
  /** The start key relative to keyPrefix (as encoded) and absolute (as the apiserver reads it); only when valid. */
  startKey?: { relative: string; absolute: string };
  /** Where the next page starts; `display` shows a trailing NUL (and other control characters) visibly, e.g. ␀. */
  resumePoint?: { key: string; display: string; inclusive: boolean; description: string };
  warnings: ContinueTokenWarning[];
  /**
   * When the token text itself is damaged (padding, '+'/'/', whitespace, percent-encoding): the
   * corrected token and how the apiserver would judge that one.
   */
  repair?: { token: string; valid: boolean; message?: string };
  /** The HTTP status a list request with this token gets from token validation alone (200 = accepted). */
  httpStatus: 200 | 400;
  /** For 400: the exact Status body the apiserver sends (Go JSON, ending in a newline). */
  statusBody?: string;
  /** One line: what the apiserver will do with this token, or the 400 message. */
  apiserverSays: string;
}

/** Control characters made visible with the Control Pictures block (NUL -> ␀, DEL -> ␡). */
export function visibleKey(key: string): string {
  let out = '';
  for (const ch of key) {
    const c = ch.charCodeAt(0);
    out += c < 0x20 ? String.fromCharCode(0x2400 + c) : c === 0x7f ? '\u2421' : ch;
  }
  return out;
}

/** Index of the first character outside printable ASCII, or -1. */
function firstNonAscii(s: string): number {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7e) return i;
  return -1;
}

function describeRv(rv: bigint): string {
  if (rv > 0n) {
    return (
      `pinned: every page is served at revision ${rv} (the first page's resourceVersion), from a ` +
      'watch-cache snapshot or from etcd; once etcd has compacted that revision the apiserver ' +
      'answers 410 Expired with a fresh rv -1 token'
    );
  }
  if (rv === -1n)
    return 'inconsistent continue: resume at the latest revision (issued by a 410 Expired response)';
  if (rv < 0n) return `negative (${rv}): treated like -1, resume at the latest revision`;
  return 'zero: not allowed, the apiserver rejects the token';
}

/** Why a start key is not a clean path: the segments path.Clean would remove. */
function traversalWarnings(start: string): ContinueTokenWarning[] {
  const rooted = start.startsWith('/') ? start : '/' + start;
  if (pathClean(rooted) === rooted) return [];
  const segs = rooted.split('/').slice(1);
  const found: string[] = [];
  if (segs.includes('..')) found.push("'..' (parent) segments");
  if (segs.includes('.')) found.push("'.' segments");
  if (segs.slice(0, -1).includes('')) found.push("empty ('//') segments");
  if (segs.length > 1 && segs[segs.length - 1] === '') found.push('a trailing slash');
  return [
    {
      kind: 'traversal',
      message:
        `start key ${JSON.stringify(start)} is not a clean path (it has ${found.join(', ')}): ` +
        'the apiserver refuses it as a path-traversal attempt, because path.Clean would change it',
    },
  ];
}

/** Token-text warnings: what Node's lenient base64url would take but Go's RawURLEncoding refuses. */
function textWarnings(token: string): ContinueTokenWarning[] {
  const w: ContinueTokenWarning[] = [];
  const at = (re: RegExp): number => token.search(re);
  if (token === '') {
    w.push({
      kind: 'empty',
      message:
        'the token is empty: the apiserver ignores an empty continue parameter and lists from the beginning',
    });
    return w;
  }
  if (/%[0-9A-Fa-f]{2}/.test(token)) {
    w.push({
      kind: 'percent-encoded',
      message: `percent-encoding left in at character ${at(/%[0-9A-Fa-f]{2}/)}: URL-decode the query parameter first (the apiserver sees the decoded value)`,
    });
  }
  if (token.includes('=')) {
    w.push({
      kind: 'padding',
      message: `'=' padding at character ${token.indexOf('=')}: Go's base64.RawURLEncoding has no padding and rejects it (Node's base64url accepts it); strip the trailing '='`,
    });
  }
  if (/[+/]/.test(token)) {
    w.push({
      kind: 'non-url-alphabet',
      message: `'${token[at(/[+/]/)]}' at character ${at(/[+/]/)} is from the standard base64 alphabet: the apiserver only accepts '-' and '_' (Node accepts both)`,
    });
  }
  if (/[ \t\f\v]/.test(token)) {
    w.push({
      kind: 'whitespace',
      message: `whitespace at character ${at(/[ \t\f\v]/)}: Go rejects it (only line breaks are skipped)`,
    });
  }
  if (/[\r\n]/.test(token)) {
    w.push({
      kind: 'line-break',
      message: `line break at character ${at(/[\r\n]/)}: Go silently skips '\\r' and '\\n', so this alone does not invalidate the token`,
    });
  }
  if (firstNonAscii(token) >= 0) {
    w.push({
      kind: 'non-ascii',
      message: `non-ASCII character at character ${firstNonAscii(token)}: not base64; the apiserver reports its UTF-8 byte offset`,
    });
  }
  return w;
}

/** Undo the usual copy/paste damage; only offered when the result decodes. */
function repair(token: string): string {
  let t = token;
  try {
    if (/%[0-9A-Fa-f]{2}/.test(t)) t = decodeURIComponent(t);
  } catch {
    // Not decodable percent-encoding: leave it, the result simply will not decode.
  }
  return t.replace(/\s+/g, '').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Everything every face shows about a continue token, judged for keyPrefix. Never throws. */
export function explainContinueToken(token: string, keyPrefix: string): ContinueTokenExplanation {
  const r = inspectContinue(token, keyPrefix);
  const warnings = textWarnings(token);
  const e: ContinueTokenExplanation = {
    token,
    keyPrefix,
    valid: !r.error,
    warnings,
    httpStatus: r.error ? 400 : 200,
    apiserverSays: '',
  };
  if (r.text !== undefined) e.decodedJson = r.text;
  if (r.token) {
    e.fields = { v: r.token.v, rv: r.token.rv.toString(), start: r.token.start };
    e.version = r.token.v;
    e.rvMeaning = describeRv(r.token.rv);
    warnings.push(...traversalWarnings(r.token.start));
  }
  if (r.error) {
    const err = r.error;
    e.error = {
      reason: err.reason,
      message: err.message,
      wrapsGenericInvalidKey: err.wrapsGenericInvalidKey,
    };
    if (err.stage) e.error.stage = err.stage;
    if (err.cause !== undefined) e.error.cause = err.cause;
    const message = `invalid continue token: ${err.message}`;
    e.statusBody =
      goJsonMarshal({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'BadRequest',
        code: 400,
      }) + '\n';
    e.apiserverSays =
      token === ''
        ? 'an empty continue parameter is not a token: the apiserver ignores it and lists from the beginning'
        : `400 Bad Request: ${message}`;
    if (err.stage === 'base64') {
      const fixed = repair(token);
      if (fixed !== token && fixed !== '') {
        const again = inspectContinue(fixed, keyPrefix);
        e.repair = again.error
          ? { token: fixed, valid: false, message: again.error.message }
          : { token: fixed, valid: true };
      }
    }
    return e;
  }
  const result = r.result as { fromKey: string; resourceVersion: number | bigint };
  const tok = r.token as { v: string; rv: bigint; start: string };
  e.startKey = { relative: tok.start, absolute: result.fromKey };
  const exclusive = result.fromKey.endsWith('\x00');
  const after = result.fromKey.slice(0, -1);
  e.resumePoint = {
    key: result.fromKey,
    display: visibleKey(result.fromKey),
    inclusive: !exclusive,
    description: exclusive
      ? `just after ${visibleKey(after)} (the last item of the previous page; the trailing NUL makes the range start at the next key)`
      : `at ${visibleKey(result.fromKey)}, inclusive`,
  };
  const where =
    tok.rv > 0n ? `at resourceVersion ${tok.rv}` : 'at the latest revision (inconsistent continue)';
  e.apiserverSays =
    `continues the list ${exclusive ? `just after ${visibleKey(after)}` : `at ${visibleKey(result.fromKey)} (inclusive)`} ${where}; ` +
    'the request must not also set resourceVersion (other than "0") and must use the same path';
  return e;
}
