// Tests for src/cli/compile-cache.ts: a chunk required through V8's code cache behaves as require
// does, the cache is written once and taken after, a cache V8 rejects or a changed chunk is written
// again, and a cache directory anyone else could write is never used.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  compileCacheDirectory,
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

  it('a changed chunk (the same length) gets a cache of its own; the old one is dropped', () => {
    load();
    saveCompileCache();
    const [before] = cacheFiles();
    fs.writeFileSync(chunk, fs.readFileSync(chunk, 'utf8').replace('42', '43'));
    assert.strictEqual(load().answer, 43, 'the changed chunk runs, not the cached bytecode');
    saveCompileCache();
    const after = cacheFiles();
    assert.strictEqual(after.length, 1);
    assert.notStrictEqual(after[0], before);
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
