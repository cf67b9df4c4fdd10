// No upstream counterpart: one check of `listwatch conform` and the report of a run, the shape
// `--json` prints (exactly these fields), and how a check records what it saw.

export type CheckStatus = 'pass' | 'fail' | 'skip';

/** One row of the battery: what upstream does, what the server did, and what a client does about it. */
export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  /** The upstream rule: file and function at release-1.36. */
  rule: string;
  expected: string;
  got: string;
  /** What clients (client-go's reflector by version, client-node's informer) do about what was seen. */
  impact: string;
}

export interface ConformReport {
  /** The server graded (its URL). */
  server: string;
  checks: CheckResult[];
  passed: number;
  failed: number;
  skipped: number;
}

/** A check's fixed words: its id, title, rule, and what a client does about it. */
export interface CheckDefinition {
  id: string;
  title: string;
  rule: string;
  impact: string;
}

/** The result of `d` with what was expected and got. */
export function resultOf(
  d: CheckDefinition,
  status: CheckStatus,
  expected: string,
  got: string,
): CheckResult {
  return { id: d.id, title: d.title, status, rule: d.rule, expected, got, impact: d.impact };
}

/** The report of `checks`, its counts and `server`, in the order `--json` prints the fields. */
export function conformReport(server: string, checks: readonly CheckResult[]): ConformReport {
  const count = (s: CheckStatus): number => checks.filter((c) => c.status === s).length;
  return {
    server,
    checks: checks.map((c) => ({
      id: c.id,
      title: c.title,
      status: c.status,
      rule: c.rule,
      expected: c.expected,
      got: c.got,
      impact: c.impact,
    })),
    passed: count('pass'),
    failed: count('fail'),
    skipped: count('skip'),
  };
}

/** A check's id for one of several resources: `list.paging[pods]`; for one resource, as is. */
export function checkId(base: string, resource: string, several: boolean): string {
  return several ? `${base}[${resource}]` : base;
}

/** The family of a check (its id up to the first dot), for grouping rows. */
export function familyOf(id: string): string {
  const dot = id.indexOf('.');
  return dot < 0 ? id : id.slice(0, dot);
}
