// No upstream counterpart: Node 22's compile cache (module.enableCompileCache) for the CLI's chunks
// on every Node the CLI supports. Compiling dist/cli-serve.js (1.3 MB) is a third of a server's
// start; V8's code cache of it (its bytecode, with the functions the last run compiled) loads in a
// fraction of that. Node 20 has no such switch, so the chunk is compiled as require does (the same
// wrapper, file name and require), given the cache; if there was none or V8 rejected it (another
// Node, other flags), saveCompileCache writes it once the command has started (serve: after its
// ready line), or the process's exit does. Not later: a cache that holds every function a long run
// compiled takes longer to load than the start it saves.
// The cache lives in a directory only this user can write (bytecode from anyone else would run as
// ours), named after the chunk and a hash of its text (V8 itself checks only the text's length);
// the newest few texts of a chunk keep theirs (two installs or checkouts started in turn must not
// drop each other's). The chunk is read once as bytes: hashed as bytes, and an ASCII chunk (what
// esbuild writes) made a string byte for byte, both far cheaper than reading it as UTF-8 text.
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { isAscii } from 'node:buffer';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';

/** The user's cache directory, made if missing; undefined if it is not safely this user's alone. */
export function compileCacheDirectory(parent = tmpdir()): string | undefined {
  const uid = process.getuid?.();
  const dir = join(parent, `listwatch-compile-cache${uid === undefined ? '' : `-${uid}`}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    // Someone else's directory (made first, in a shared /tmp), a link, or one others may write to.
    if (!st.isDirectory() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0)))
      return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * `require(file)` for a CommonJS chunk, through V8's code cache in `cacheDir`. Without a directory,
 * with source maps on (they hook require's own compile) or on a Node without the default loader
 * for a script's import(), it is require itself.
 */
export function requireWithCompileCache(file: string, cacheDir = compileCacheDirectory()): unknown {
  // Node 20.12 and later (undefined before, whatever the types say).
  const importModuleDynamically = vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER as
    typeof vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER | undefined;
  if (
    cacheDir === undefined ||
    process.sourceMapsEnabled ||
    process.env.NODE_DISABLE_COMPILE_CACHE ||
    importModuleDynamically === undefined
  )
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file);
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const key = createHash('sha1')
    .update(bytes)
    .update(`\0${process.version}\0${process.arch}`)
    .digest('hex');
  const name = basename(file);
  const cacheFile = join(cacheDir, `${name}-${key}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // None yet: this run writes it.
  }
  const script = new Script(Module.wrap(source), {
    filename: file,
    cachedData,
    // The loader require's own compile gives an import(); the chunks never call one (they require
    // their chunks), but a script without it would throw where require's would not.
    importModuleDynamically,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    unsaved.push(() => writeCache(script, cacheDir, name, cacheFile));
    if (unsaved.length === 1) process.once('exit', saveCompileCache);
  }
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return module.exports;
}

/** The caches to write: chunks loaded without a cache V8 took. */
const unsaved: Array<() => void> = [];

/**
 * Writes the caches of the chunks loaded without one, with every function compiled so far (what a
 * start runs); once.
 */
export function saveCompileCache(): void {
  process.removeListener('exit', saveCompileCache);
  for (const write of unsaved.splice(0)) write();
}

/**
 * How many texts of one chunk keep their cache: a few builds or installs side by side (the
 * extension's and a CLI's, two checkouts) each find theirs, and rebuilds do not fill the disk.
 */
export const keptCaches = 8;

/** Writes the cache whole (a temporary file renamed) and drops the chunk's older ones. */
function writeCache(script: Script, cacheDir: string, name: string, cacheFile: string): void {
  try {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, cacheFile);
    const others = readdirSync(cacheDir)
      .filter((f) => f.startsWith(`${name}-`) && join(cacheDir, f) !== cacheFile)
      .map((f) => ({ file: join(cacheDir, f), written: lstatSync(join(cacheDir, f)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const { file } of others.slice(keptCaches - 1)) unlinkSync(file);
  } catch {
    // A cache is an optimisation: the next start compiles again.
  }
}
