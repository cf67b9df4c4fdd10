// The replay tests' hand-built audit logs: each ImportedRequest as the audit importer makes it of
// one event (Metadata level unless `o` adds more), numbered in file order from 1 after restart().
import type { ImportedRequest } from '../../../src/run/imported-request';

export interface AuditLogRequests {
  /** A request received `at` units after t0 (seconds by default), answered 200. */
  req(verb: string, uri: string, at: number, o?: Partial<ImportedRequest>): ImportedRequest;
  /** The next request is line 1 again (a new log). */
  restart(): void;
}

export function auditLogRequests(options: {
  t0: number;
  userAgent: string;
  idPrefix?: string;
  /** Milliseconds per unit of `at`: 1000 (seconds) unless given. */
  unitMs?: number;
  /** The time each request took, in ms. */
  tookMs?: number;
}): AuditLogRequests {
  const { t0, userAgent, idPrefix = 'audit', unitMs = 1000, tookMs = 40 } = options;
  let seq = 0;
  return {
    req(verb, uri, at, o = {}) {
      const id = `${idPrefix}-${++seq}`;
      return {
        id,
        auditID: id,
        sources: [{ file: 'audit.log', line: seq, format: 'audit' }],
        verb,
        requestURI: uri,
        userAgent,
        receivedAt: t0 + at * unitMs,
        completedAt: t0 + at * unitMs + tookMs,
        startInFile: true,
        endInFile: true,
        code: 200,
        ...o,
      };
    },
    restart() {
      seq = 0;
    },
  };
}
