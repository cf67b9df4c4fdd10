// Tests for src/cli/run-report.ts reportCell: a table cell of `listwatch report` on one line, at
// most 72 characters, keeping both ends of a longer one (the process after a client's User-Agent).
import * as assert from 'assert';
import { reportCell } from '../../../src/cli/run-report';

describe('listwatch report: one cell', () => {
  const client =
    'kubectl.1.33/v1.33.1 (linux/amd64) kubernetes/8adc0f0 · /tmp/logs/w-wl33.log pid 2997';
  const cases: { name: string; in: string | number; want: string }[] = [
    { name: 'a short one as is', in: 'kubectl/v1.35.2', want: 'kubectl/v1.35.2' },
    { name: 'whitespace on one line', in: 'a\n  b', want: 'a b' },
    { name: 'an integer', in: 42, want: '42' },
    { name: 'a fraction to 3 places', in: 0.12345, want: '0.123' },
    {
      name: 'a long client keeps its process (two processes of one kubectl stay apart)',
      in: client,
      want: 'kubectl.1.33/v1.33.1 (linux/amd64) k…0f0 · /tmp/logs/w-wl33.log pid 2997',
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = reportCell(c.in);
      assert.strictEqual(got, c.want);
      assert.ok(got.length <= 72, `${got.length} characters`);
    });
});
