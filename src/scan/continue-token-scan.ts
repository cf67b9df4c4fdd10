// Finds continue tokens in one line of log text: kubectl -v=8 request URLs (1.20 and 1.33 formats),
// audit-log requestURIs, JSON/YAML list metadata, and bare tokens. Works per line with bounded cost.
import { rawUrlEncoding, decodeUtf8 } from '../engine/http-face';

export type ContinueTokenKind = 'query' | 'json' | 'yaml' | 'bare';

/** A token found in a line: start/end are UTF-16 offsets of the raw text in the line (end exclusive). */
export interface FoundContinueToken {
  /** The value the apiserver would see (query: percent-decoded; JSON/YAML: unescaped). */
  token: string;
  start: number;
  end: number;
  kind: ContinueTokenKind;
  /**
   * Set when kubectl cut the logged body inside the token (client-go's truncateBody: at most 1024
   * bytes of a body at -v=8, 10240 at -v=9, then " [truncated N chars]"): the N characters cut.
   */
  truncated?: number;
}

/** Lines are scanned up to this many characters; longer lines are cut (see lineScanTruncated). */
export const maxScanLineLength = 64 * 1024;

/** True when a line is longer than the scanned part, so tokens after maxScanLineLength are missed. */
export function lineScanTruncated(line: string): boolean {
  return line.length > maxScanLineLength;
}

// `continue=` as a query parameter: after ?, & or ;, or at the start of the text (a bare query).
// The value ends at a backslash too: Go's JSON encoder writes '&' as \u0026 in audit logs.
const queryRe = /(?:^|[?&;])continue=([^&#\s"'<>\\]*)/g;
// "continue": "…" / "_continue": "…" in JSON, incl. JSON embedded in a quoted log string (\"continue\":\"…\").
const jsonRe = /"_?continue"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const escapedJsonRe = /\\"_?continue\\"\s*:\s*\\"([^"\\]*)\\"/g;
// The same fields cut by client-go's truncateBody: the value runs into " [truncated N chars]".
const truncatedJsonRe = /"_?continue"\s*:\s*"([A-Za-z0-9_+/=-]*) \[truncated (\d+) chars\]/g;
const truncatedEscapedJsonRe =
  /\\"_?continue\\"\s*:\s*\\"([A-Za-z0-9_+/=-]*) \[truncated (\d+) chars\]/g;
// YAML `continue: …` (optionally quoted), possibly as a list item.
const yamlRe =
  /^(\s*(?:-\s+)?_?continue:[ \t]*)(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#"'][^\s#]*))/;
// Bare tokens: base64url (or damaged, standard-alphabet/padded) text starting with `eyJ` = `{"`.
const bareRe = /(?<![A-Za-z0-9_+/=-])eyJ[A-Za-z0-9_+/-]{4,}={0,2}(?![A-Za-z0-9_+/=-])/g;

/** Go's url.QueryUnescape: '+' is a space and %XX a byte; undefined when an escape is malformed. */
function queryUnescape(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function jsonUnescape(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** A bare candidate counts only if it (leniently) decodes to a JSON object with a "v" key. */
function looksLikeContinueToken(candidate: string): boolean {
  const cleaned = candidate.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  try {
    const parsed: unknown = JSON.parse(decodeUtf8(rawUrlEncoding.decodeString(cleaned)));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && 'v' in parsed;
  } catch {
    return false;
  }
}

/** Every continue token in one line, in order of position; overlapping finds keep the first, most specific one. */
export function findContinueTokens(line: string): FoundContinueToken[] {
  const text = line.length > maxScanLineLength ? line.slice(0, maxScanLineLength) : line;
  const found: FoundContinueToken[] = [];
  for (const m of text.matchAll(queryRe)) {
    const raw = m[1];
    if (raw === '') continue;
    const start = (m.index ?? 0) + m[0].length - raw.length;
    found.push({ token: queryUnescape(raw) ?? raw, start, end: start + raw.length, kind: 'query' });
  }
  for (const re of [jsonRe, escapedJsonRe]) {
    for (const m of text.matchAll(re)) {
      const raw = m[1];
      if (raw === '') continue;
      const start = (m.index ?? 0) + m[0].length - raw.length - (re === jsonRe ? 1 : 2);
      found.push({ token: jsonUnescape(raw) ?? raw, start, end: start + raw.length, kind: 'json' });
    }
  }
  for (const re of [truncatedJsonRe, truncatedEscapedJsonRe]) {
    for (const m of text.matchAll(re)) {
      const raw = m[1];
      if (raw === '') continue;
      const marker = ` [truncated ${m[2]} chars]`;
      const start = (m.index ?? 0) + m[0].length - marker.length - raw.length;
      found.push({ token: raw, start, end: start + raw.length, kind: 'json', truncated: +m[2] });
    }
  }
  const y = yamlRe.exec(text);
  if (y) {
    const raw = y[2] ?? y[3] ?? y[4] ?? '';
    if (raw !== '' && raw !== '""' && raw !== "''") {
      const quoted = y[4] === undefined;
      const start = y[1].length + (quoted ? 1 : 0);
      const token =
        y[2] !== undefined
          ? (jsonUnescape(raw) ?? raw)
          : y[3] !== undefined
            ? raw.replace(/''/g, "'")
            : raw;
      found.push({ token, start, end: start + raw.length, kind: 'yaml' });
    }
  }
  for (const m of text.matchAll(bareRe)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (found.some((f) => start < f.end && end > f.start)) continue;
    if (looksLikeContinueToken(m[0])) found.push({ token: m[0], start, end, kind: 'bare' });
  }
  found.sort((a, b) => a.start - b.start);
  // Drop overlaps (e.g. a JSON field whose value is also a query string).
  const result: FoundContinueToken[] = [];
  for (const f of found) {
    const last = result[result.length - 1];
    if (last && f.start < last.end) continue;
    result.push(f);
  }
  return result;
}

/** The token whose range covers column `character` (end inclusive, so a cursor just after it counts). */
export function tokenAt(line: string, character: number): FoundContinueToken | undefined {
  return findContinueTokens(line).find((t) => character >= t.start && character <= t.end);
}
