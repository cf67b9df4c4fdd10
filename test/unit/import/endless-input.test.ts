// Tests for endless and line-less input to src/import/import-files.ts: a file whose first line
// has no end within the longest line read is refused (NoLineEndError, naming the file and the
// byte), an input without a size reports progress with no total, and cancelling stops a read that
// would never end. /dev/zero and a FIFO are real inputs, as a user gives them.
import * as assert from 'assert';
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importFiles, NoLineEndError } from '../../../src/import/import-files';

const none = { request: () => undefined, reject: () => undefined };
const mib = 1024 * 1024;

describe('import: endless and line-less input', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'listwatch-endless-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('refuses a file with no line end in its first maxLineBytes', () => {
    // [name, file (made in dir), maxLineBytes, message]
    const cases: Array<[string, (dir: string) => string, number, RegExp]> = [
      [
        '/dev/zero',
        () => '/dev/zero',
        2 * mib,
        /^\/dev\/zero: no line end in its first 2 MiB \(line 1 still open at byte \d+\): not a log of lines; the longest line the import reads is 2 MiB$/,
      ],
      [
        'a file of 3 MiB without a newline',
        (d) => {
          writeFileSync(join(d, 'blob'), Buffer.alloc(3 * mib, 0x41));
          return join(d, 'blob');
        },
        mib,
        /\/blob: no line end in its first 1 MiB \(line 1 still open at byte \d+\)/,
      ],
    ];
    for (const [name, make, maxLineBytes, message] of cases) {
      it(name, async () => {
        const path = make(dir);
        await assert.rejects(
          importFiles([{ path }], { maxLineBytes }, none),
          (e: unknown) => e instanceof NoLineEndError && message.test(e.message),
        );
      });
    }
  });

  it('still reads a file whose later line is overlong (rejected, not refused)', async () => {
    const path = join(dir, 'log');
    writeFileSync(path, 'first\n' + 'x'.repeat(2 * mib) + '\nlast\n');
    const rejected: string[] = [];
    const r = await importFiles(
      [{ path }],
      { maxLineBytes: mib },
      {
        request: () => undefined,
        reject: (l) => rejected.push(`${l.line}: ${l.reason}`),
      },
    );
    assert.strictEqual(r.lines, 3);
    assert.ok(
      rejected.includes(`2: line is longer than ${mib} bytes (${2 * mib} bytes); not read`),
    );
  });

  it('reports no total for an input without a size, and a cancel stops the endless read', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    // An endless writer of log-shaped lines: it never ends, so only the cancel can.
    const writer = createWriteStream(fifo);
    const line = Buffer.from('not a log line\n'.repeat(4096));
    let writing = true;
    const pump = (): void => {
      while (writing && writer.write(line));
      if (writing) writer.once('drain', pump);
    };
    writer.on('error', () => undefined);
    pump();
    const ctl = new AbortController();
    const totals: Array<number | undefined> = [];
    let read = 0;
    try {
      await assert.rejects(
        importFiles(
          [{ path: fifo }],
          {
            signal: ctl.signal,
            onProgress: (bytes, total) => {
              totals.push(total);
              read = bytes;
              if (bytes >= 8 * mib) ctl.abort(new Error('cancelled'));
            },
          },
          none,
        ),
        /cancelled/,
      );
    } finally {
      writing = false;
      writer.destroy();
    }
    assert.ok(read >= 8 * mib);
    assert.ok(
      totals.every((t) => t === undefined),
      `totals ${JSON.stringify(totals.slice(0, 3))}`,
    );
  });
});
