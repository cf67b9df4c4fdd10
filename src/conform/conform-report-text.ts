// No upstream counterpart: `listwatch conform`'s text report: a row per check grouped by family
// (a skipped row says why), the counts, then each failure with its rule, what was expected, what
// came and what a client does about it.
import { familyOf, type CheckResult, type ConformReport } from './conform-check';

const familyTitles: Record<string, string> = {
  discovery: 'DISCOVERY',
  list: 'LIST',
  watch: 'WATCH',
  watchlist: 'WATCHLIST',
  format: 'FORMATS',
};

/** The families in the order they are printed (any other after them, in order of appearance). */
const familyOrder = Object.keys(familyTitles);

/** `pass  list.paging  limit and continue: …` (a skip with its reason). */
export function checkRow(c: CheckResult, idWidth: number): string {
  const why = c.status === 'skip' ? ` (skipped: ${c.got})` : '';
  return `  ${c.status.padEnd(4)}  ${c.id.padEnd(idWidth)}  ${c.title}${why}`;
}

/** `15 passed, 1 failed, 2 skipped`. */
export function countsLine(r: ConformReport): string {
  return `${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`;
}

/** The whole text report, lines without their line breaks. */
export function conformReportText(r: ConformReport): string[] {
  const lines = [`listwatch conform: ${r.server}`];
  const idWidth = Math.max(0, ...r.checks.map((c) => c.id.length));
  const families = [...new Set(r.checks.map((c) => familyOf(c.id)))].sort(
    (a, b) => rank(a) - rank(b),
  );
  for (const f of families) {
    lines.push('', familyTitles[f] ?? f.toUpperCase());
    for (const c of r.checks) if (familyOf(c.id) === f) lines.push(checkRow(c, idWidth));
  }
  lines.push('', countsLine(r));
  const failed = r.checks.filter((c) => c.status === 'fail');
  if (failed.length) {
    lines.push('', 'Failures');
    for (const c of failed)
      lines.push(
        '',
        `  ${c.id}: ${c.title}`,
        `    rule:     ${c.rule}`,
        `    expected: ${c.expected}`,
        `    got:      ${c.got}`,
        `    impact:   ${c.impact}`,
      );
  }
  return lines;
}

function rank(family: string): number {
  const i = familyOrder.indexOf(family);
  return i < 0 ? familyOrder.length : i;
}
