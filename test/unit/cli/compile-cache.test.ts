// Tests for src/cli/compile-cache.ts: a chunk required through V8's code cache behaves as require
// does, the cache is written once and taken after, a cache V8 rejects or a changed chunk is written
// again, and a cache directory anyone else could write is never used.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  compileCacheDirectory,
  keptCaches,
  requireWithCompileCache,
  saveCompileCache,
} from '../../../src/cli/compile-cache';

describe('compile cache', () => {
  let dir: string;
  let cacheDir: string;
  let chunk: string;
  const sourceMaps = process.sourceMapsEnabled;
  const cacheFiles = (): string[] => fs.readdirSync(cacheDir).sort();
  const load = (file = chunk): { answer: number; file: string; dir: string; helper: string } =>
    requireWithCompileCache(file, cacheDir) as ReturnType<typeof load>;
  // V8 keeps what an isolate compiled (by text and file name) and does not look at the code cache
  // of a script it compiled before: a second load in one process is of a copy, as a new process's.
  let copies = 0;
  const copyOfChunk = (): string => {
    const copy = path.join(dir, `copy-${++copies}`);
    fs.mkdirSync(copy);
    for (const f of ['chunk.js', 'helper.js'])
      fs.copyFileSync(path.join(dir, f), path.join(copy, f));
    return path.join(copy, 'chunk.js');
  };

  beforeEach(() => {
    // Source maps make it require itself (they hook require's compile); these tests need the cache.
    process.setSourceMapsEnabled(false);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-compile-cache-test-'));
    cacheDir = path.join(dir, 'cache');
    fs.mkdirSync(cacheDir, { mode: 0o700 });
    chunk = path.join(dir, 'chunk.js');
    fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = "helped";\n');
    // A text of its own per test (see copyOfChunk).
    fs.writeFileSync(
      chunk,
      `// ${path.basename(dir)}\nmodule.exports = { answer: 42, file: __filename, dir: __dirname, helper: require("./helper.js") };\n`,
    );
  });
  afterEach(() => {
    saveCompileCache();
    process.setSourceMapsEnabled(sourceMaps);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the chunk as require does: its exports, __filename, __dirname, its require', () => {
    assert.deepStrictEqual(load(), {
      answer: 42,
      file: chunk,
      dir,
      helper: 'helped',
    });
  });

  it('writes the cache once the command started, then takes it without writing it again', () => {
    load();
    assert.deepStrictEqual(cacheFiles(), [], 'nothing written before saveCompileCache');
    saveCompileCache();
    const written = cacheFiles();
    assert.strictEqual(written.length, 1);
    assert.match(written[0], /^chunk\.js-[0-9a-f]{40}\.bin$/);
    assert.strictEqual(load(copyOfChunk()).answer, 42);
    // Taken: nothing left to write (the file, removed now, is not written again).
    fs.rmSync(path.join(cacheDir, written[0]));
    saveCompileCache();
    assert.deepStrictEqual(cacheFiles(), [], 'a cache V8 took is not written again');
  });

  it('a cache V8 rejects (not its bytecode) is written again', () => {
    load();
    saveCompileCache();
    const [file] = cacheFiles();
    fs.writeFileSync(path.join(cacheDir, file), Buffer.from('not a code cache'));
    assert.strictEqual(load(copyOfChunk()).answer, 42);
    saveCompileCache();
    assert.notDeepStrictEqual(
      fs.readFileSync(path.join(cacheDir, file)),
      Buffer.from('not a code cache'),
    );
  });

  it('a changed chunk (the same length) gets a cache of its own', () => {
    load();
    saveCompileCache();
    const [before] = cacheFiles();
    fs.writeFileSync(chunk, fs.readFileSync(chunk, 'utf8').replace('42', '43'));
    assert.strictEqual(load().answer, 43, 'the changed chunk runs, not the cached bytecode');
    saveCompileCache();
    const after = cacheFiles();
    assert.strictEqual(after.length, 2);
    assert.ok(after.includes(before));
  });

  it('caches of other texts of the chunk (another build or install beside this one) are kept', () => {
    // Two checkouts or an extension and a CLI of other versions, started in turn: each start found
    // the other's cache in the one slot, V8 took neither and each start compiled the chunk again.
    load();
    saveCompileCache();
    const [ours] = cacheFiles();
    const others: string[] = [];
    for (const answer of [43, 44, 45]) {
      const other = copyOfChunk();
      fs.writeFileSync(other, fs.readFileSync(other, 'utf8').replace('42', String(answer)));
      assert.strictEqual(load(other).answer, answer);
      saveCompileCache();
      others.push(...cacheFiles().filter((f) => f !== ours && !others.includes(f)));
    }
    assert.deepStrictEqual(cacheFiles(), [ours, ...others].sort(), 'every text keeps its cache');
    assert.strictEqual(load(copyOfChunk()).answer, 42);
    fs.rmSync(path.join(cacheDir, ours));
    saveCompileCache();
    assert.ok(!cacheFiles().includes(ours), 'ours was taken: not written again');
  });

  it(`keeps the ${keptCaches} newest caches of a chunk and drops the older ones`, () => {
    const answers = Array.from({ length: keptCaches + 2 }, (_, k) => 100 + k);
    const answerOf = new Map<string, number>();
    for (const [k, answer] of answers.entries()) {
      const other = copyOfChunk();
      fs.writeFileSync(other, fs.readFileSync(other, 'utf8').replace('42', String(answer)));
      load(other);
      saveCompileCache();
      const file = cacheFiles().find((f) => !answerOf.has(f));
      assert.ok(file !== undefined, `the cache of ${answer} is written`);
      answerOf.set(file, answer);
      // Written a minute after the one before (the order is the files' mtimes, whatever the
      // file system's clock granularity).
      const at = new Date(Date.now() - (answers.length - k) * 60_000);
      fs.utimesSync(path.join(cacheDir, file), at, at);
    }
    assert.deepStrictEqual(
      cacheFiles()
        .map((f) => answerOf.get(f) ?? 0)
        .sort((a, b) => a - b),
      answers.slice(-keptCaches),
      'the newest are kept',
    );
  });

  it('a chunk whose text is not ASCII runs as require reads it (UTF-8)', () => {
    fs.writeFileSync(
      chunk,
      'module.exports = { answer: "\u00e9t\u00e9 \u2713 \u{1F600}".length, text: "été ✓ 😀" };\n',
    );
    const got = load() as unknown as { answer: number; text: string };
    assert.deepStrictEqual(got, { answer: 8, text: 'été ✓ 😀' });
  });

  describe('the cache directory', () => {
    const cases: Array<[string, (parent: string) => void, boolean]> = [
      ['made, this user only', () => undefined, true],
      [
        'one others may write to',
        (parent) =>
          fs.mkdirSync(path.join(parent, `listwatch-compile-cache-${process.getuid?.()}`), {
            mode: 0o777,
          }),
        false,
      ],
      [
        'a symbolic link',
        (parent) => {
          fs.mkdirSync(path.join(parent, 'elsewhere'), { mode: 0o700 });
          fs.symlinkSync(
            path.join(parent, 'elsewhere'),
            path.join(parent, `listwatch-compile-cache-${process.getuid?.()}`),
          );
        },
        false,
      ],
    ];
    for (const [name, prepare, usable] of cases) {
      it(`${name}: ${usable ? 'used' : 'not used'}`, () => {
        const parent = path.join(dir, 'tmp');
        fs.mkdirSync(parent);
        const umask = process.umask(0);
        try {
          prepare(parent);
        } finally {
          process.umask(umask);
        }
        const got = compileCacheDirectory(parent);
        assert.strictEqual(got !== undefined, usable, `${name}: ${got}`);
        if (got) assert.strictEqual(fs.statSync(got).mode & 0o777, 0o700, name);
      });
    }
  });
});
