// No upstream counterpart: `listwatch conform`'s report as a markdown document (VS Code's *Check
// List/Watch Conformance…*): a table with a row per check, then each failure with its rule, what
// was expected, what came and what a client does about it.
import { countsLine } from './conform-report-text';
import type { ConformReport } from './conform-check';

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

const statusMark = { pass: '✅ pass', fail: '❌ fail', skip: '➖ skip' } as const;

export function conformReportMarkdown(r: ConformReport): string {
  const lines = [
    `# List/Watch conformance of ${r.server}`,
    '',
    countsLine(r),
    '',
    '| status | check | title | got |',
    '|---|---|---|---|',
    ...r.checks.map(
      (c) => `| ${statusMark[c.status]} | \`${c.id}\` | ${cell(c.title)} | ${cell(c.got)} |`,
    ),
  ];
  const failed = r.checks.filter((c) => c.status === 'fail');
  if (failed.length) {
    lines.push('', '## Failures');
    for (const c of failed)
      lines.push(
        '',
        `### \`${c.id}\`: ${c.title}`,
        '',
        `- **rule:** ${c.rule}`,
        `- **expected:** ${c.expected}`,
        `- **got:** ${c.got}`,
        `- **impact:** ${c.impact}`,
      );
  }
  return lines.join('\n') + '\n';
}
