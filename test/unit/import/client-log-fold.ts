// No upstream counterpart: a test's small fold of one file's fragments into requests (by key,
// `attach: 'last-watch'` to the stream's latest watch of the resource), the first value of each
// field winning as the merger's contract says; enough to read what a parser's fragments tell.
import { readFileSync } from 'fs';
import { join } from 'path';
import {
  isRejected,
  type LineFormat,
  type RequestFields,
  type RequestFragment,
} from '../../../src/import/line-parser';

export const fixtureDir = join(__dirname, '../../../../test/fixtures/import');

export interface FoldedRequest extends RequestFields {
  key: string;
  stream?: string;
  lines: number[];
  complete: boolean;
}

export interface ParsedFile {
  fragments: RequestFragment[];
  rejects: Array<{ line: number; reason: string }>;
  skipped: number;
}

/** Pushes every line of `text` (a fixture's name or the text itself) through a new parser. */
export function parseLines(format: LineFormat, lines: string[], file = 'test.log'): ParsedFile {
  const parser = format.create();
  const result: ParsedFile = { fragments: [], rejects: [], skipped: 0 };
  const take = (rs: ReturnType<typeof parser.push>, line: number): void => {
    for (const r of rs) {
      if (isRejected(r)) result.rejects.push({ line: r.line ?? line, reason: r.reject });
      else result.fragments.push(r);
    }
  };
  lines.forEach((text, i) => {
    const rs = parser.push(text, { file, line: i + 1, year: 2026 });
    if (rs.length === 0) result.skipped++;
    take(rs, i + 1);
  });
  take(parser.end({ file, line: lines.length, year: 2026 }), lines.length);
  return result;
}

export function fixtureLines(name: string): string[] {
  const lines = readFileSync(join(fixtureDir, name), 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function fold(fragments: readonly RequestFragment[]): FoldedRequest[] {
  const byKey = new Map<string, FoldedRequest>();
  const requests: FoldedRequest[] = [];
  for (const f of fragments) {
    let r: FoldedRequest | undefined;
    if (f.attach === 'last-watch') {
      const resource = f.fields.objectRef?.resource;
      r = [...requests]
        .reverse()
        .find(
          (q) =>
            q.stream === f.stream &&
            q.verb === 'watch' &&
            (resource === undefined || q.objectRef?.resource === resource),
        );
      if (!r) continue;
    } else {
      r = byKey.get(f.key!);
      if (!r) {
        r = { key: f.key!, lines: [], complete: false };
        if (f.stream !== undefined) r.stream = f.stream;
        byKey.set(f.key!, r);
        requests.push(r);
      }
    }
    r.lines.push(f.source.line);
    r.complete ||= f.complete;
    const target = r as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(f.fields)) if (target[k] === undefined) target[k] = v;
  }
  return requests;
}

/** One line per request: verb, path (query cut), code, and what else it carries. */
export function summary(r: FoldedRequest): string {
  const path = r.requestURI === undefined ? '?' : r.requestURI.replace(/\?.*$/, '');
  const parts = [r.verb, path === '' ? '(url not logged)' : path, String(r.code ?? '-')];
  if (r.userAgent !== undefined) parts.push('ua');
  if (r.auditID !== undefined) parts.push('audit-id');
  if (r.response?.continue !== undefined) parts.push('continue');
  if (r.response?.items !== undefined) parts.push(`items=${r.response.items}`);
  if (r.status?.reason !== undefined) parts.push(r.status.reason);
  if (r.initialEventsEnd)
    parts.push(
      `listed: ${r.initialEventsEnd.items ?? '?'} items in ${r.initialEventsEnd.durationMs ?? '?'} ms`,
    );
  if (r.watchEnd) parts.push(`ended: ${r.watchEnd.message}`);
  return parts.join(' ');
}
