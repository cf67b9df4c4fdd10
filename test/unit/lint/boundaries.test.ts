// eslint.config.mjs's boundaries (ARCHITECTURE.md 1, 2, 5 and 7, and the engine's public surface):
// a table of violating and allowed snippets linted through ESLint's Node API as if they were the
// named file, and a check that the per-depth rules cover every file of the tree. No upstream
// counterpart.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ESLint } from 'eslint';

// Compiled into out/test/unit/lint/: the project is four folders up.
const root = path.resolve(__dirname, '../../../..');

interface Case {
  name: string;
  /** The file the snippet is linted as, relative to the project root. */
  file: string;
  code: string;
  /** The one rule that must report, or undefined for an allowed snippet. */
  rule?: string;
  /** A phrase the report's message must contain. */
  says?: string;
}

/** A module that imports `source` and uses what it imported. */
const uses = (source: string) => `import { x } from '${source}';\nexport const y = x;\n`;

const imports = 'no-restricted-imports';
const cacherFile = 'src/engine/cacher/new-mechanism.ts';
const webviewFile = 'webview/new-view.ts';

const cases: Case[] = [
  // src/engine: a library (boundary 1).
  {
    name: 'engine -> vscode',
    file: cacherFile,
    code: uses('vscode'),
    rule: imports,
    says: 'vscode',
  },
  {
    name: 'engine -> vscode, type only',
    file: cacherFile,
    code: "import type { Uri } from 'vscode';\nexport type U = Uri;\n",
    rule: imports,
  },
  {
    name: 'engine -> typeof import(vscode)',
    file: cacherFile,
    code: "export type V = typeof import('vscode');\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'engine -> dynamic import()',
    file: cacherFile,
    code: "export const m = import('../storage/objects');\n",
    rule: 'no-restricted-syntax',
  },
  ...[
    '../../extension/x',
    '../../cli/main',
    '../../server/x',
    '../../scenarios/x',
    '../../run/run-model',
    '../../trace/x',
    '../../import/x',
    '../../protocol',
    '../..',
    './../../extension/x',
    '../../../test/unit/x',
    '../../../bench/main',
  ].map((source) => ({
    name: `engine (cacher/) -> ${source}`,
    file: cacherFile,
    code: uses(source),
    rule: imports,
    says: 'nothing outside src/engine',
  })),
  {
    name: 'engine (top level) -> ../extension/x',
    file: 'src/engine/new-mechanism.ts',
    code: uses('../extension/x'),
    rule: imports,
  },
  {
    name: 'engine (cacher/delegator/) -> ../../../cli/main',
    file: 'src/engine/cacher/delegator/x.ts',
    code: uses('../../../cli/main'),
    rule: imports,
  },
  ...['node:fs', 'fs', 'fs/promises', 'path', 'crypto', 'node:test'].map((source) => ({
    name: `engine -> ${source}`,
    file: cacherFile,
    code: uses(source),
    rule: imports,
    says: 'Node built-ins',
  })),
  {
    name: 'engine re-exports os',
    file: cacherFile,
    code: "export * from 'os';\n",
    rule: imports,
  },
  ...[
    'setTimeout(() => {}, 1);',
    'clearTimeout(undefined);',
    'void process.env;',
    "void Buffer.from('');",
    'void performance;',
  ].map((code) => ({
    name: `engine uses the global in ${code}`,
    file: cacherFile,
    code,
    rule: 'no-restricted-globals',
  })),
  ...['void Date.now();', 'void Math.random();', 'globalThis.setTimeout(() => {}, 1);'].map(
    (code) => ({
      name: `engine calls ${code}`,
      file: cacherFile,
      code,
      rule: 'no-restricted-properties',
      says: 'injected Clock',
    }),
  ),
  { name: 'RealClock reads the real clock', file: 'src/engine/clock.ts', code: 'void Date.now();' },
  ...[
    ['void Date.now();', 'no-restricted-properties'],
    ['void new Date();', 'no-restricted-syntax'],
    ['void performance.now();', 'no-restricted-globals'],
  ].flatMap(([code, rule]) =>
    ['src/server/handlers/new-handler.ts', 'src/probe/probe-run.ts'].map((file) => ({
      name: `${file} reads the real clock: ${code}`,
      file,
      code,
      rule,
      says: 'registry.clock',
    })),
  ),
  {
    name: 'the server formats a time it was given',
    file: 'src/server/new-mechanism.ts',
    code: 'export const t = (ms: number): string => new Date(ms).toISOString();\n',
  },
  { name: 'engine -> its own folder', file: cacherFile, code: uses('./cache-watcher') },
  { name: 'engine -> a sibling folder', file: cacherFile, code: uses('../storage/objects') },
  { name: 'engine -> its index', file: cacherFile, code: uses('..') },
  {
    name: 'engine (cacher/delegator/) -> ../../storage/versioner',
    file: 'src/engine/cacher/delegator/x.ts',
    code: uses('../../storage/versioner'),
  },
  {
    name: 'engine (top level) -> ./etcd3/store',
    file: 'src/engine/new-mechanism.ts',
    code: uses('./etcd3/store'),
  },

  // src/: never test/ or bench/.
  ...[
    ['src/cli/x.ts', '../../test/unit/cli/x'],
    ['src/extension/tokens/x.ts', '../../../bench/main'],
    ['src/x.ts', '../test/harness/x'],
    ['src/x.ts', '../bench'],
  ].map(([file, source]) => ({
    name: `${file} -> ${source}`,
    file,
    code: uses(source),
    rule: imports,
    says: 'test/ or bench/',
  })),
  { name: 'cli -> the engine', file: 'src/cli/x.ts', code: uses('../engine/index') },
  { name: 'cli -> a file named test-…', file: 'src/cli/x.ts', code: uses('./test-command') },
  { name: 'cli -> fs', file: 'src/cli/x.ts', code: uses('fs') },
  { name: 'extension -> vscode', file: 'src/extension/x.ts', code: uses('vscode') },

  // Outside src/engine: the engine's public surface only (ARCHITECTURE.md floors). test/ and
  // bench/ reach internals by path.
  ...[
    ['src/server/x.ts', '../engine/cacher/cacher'],
    ['src/server/handlers/x.ts', '../../engine/storage/errors'],
    ['src/run/views/x.ts', '../../engine/inspect/events'],
    ['src/x.ts', './engine/clock'],
    ['src/sim/x.ts', './../engine/etcd/kv'],
    ['src/request/x.ts', '../engine/cacher/index'],
  ].map(([file, source]) => ({
    name: `${file} -> ${source}`,
    file,
    code: uses(source),
    rule: imports,
    says: "engine's public surface",
  })),
  {
    name: 'server -> engine internals, type only',
    file: 'src/server/x.ts',
    code: "import type { Cacher } from '../engine/cacher/cacher';\nexport type C = Cacher;\n",
    rule: imports,
    says: "engine's public surface",
  },
  {
    name: 'server re-exports engine internals',
    file: 'src/server/x.ts',
    code: "export { Channel } from '../engine/cacher/channel';\n",
    rule: imports,
  },
  ...[
    "export const m = import('../engine/cacher/cacher');\n",
    "export type C = typeof import('../engine/cacher/cacher');\n",
  ].map((code) => ({
    name: `server: ${code.trim()}`,
    file: 'src/server/x.ts',
    code,
    rule: 'no-restricted-syntax',
    says: "engine's public surface",
  })),
  ...[
    ['src/server/x.ts', '../engine'],
    ['src/cli/x.ts', '../engine/index'],
    ['src/server/handlers/x.ts', '../../engine/http-face'],
    ['src/etcd-client/x.ts', '../engine/etcd-face'],
    ['src/protocol.ts', './engine'],
    ['src/run/views/x.ts', '../../engine'],
  ].map(([file, source]) => ({
    name: `${file} -> the entry module ${source}`,
    file,
    code: uses(source),
  })),
  {
    name: 'server: typeof import() of the engine index',
    file: 'src/server/x.ts',
    code: "export type E = typeof import('../engine');\n",
  },
  {
    name: 'server -> its etcd client chunk, import()',
    file: 'src/server/x.ts',
    code: "export const m = import('../etcd-client');\n",
  },
  {
    name: 'extension -> engine internals',
    file: 'src/extension/x.ts',
    code: uses('../engine/etcd3/feature-support-checker'),
    rule: imports,
  },
  {
    name: 'a test -> engine internals, by path',
    file: 'test/unit/cacher/x.test.ts',
    code: uses('../../../src/engine/cacher/cacher'),
  },
  {
    name: 'a bench -> engine internals, by path',
    file: 'bench/x.ts',
    code: uses('../src/engine/cacher/cacher'),
  },

  // webview/: a renderer (boundary 5); one toolkit importer (boundary 7).
  ...[
    '../src/engine/storage/objects',
    '../src/run/run-model',
    '../src/extension/x',
    './../src/engine/index',
    './..',
    'vscode',
    'fs',
  ].map((source) => ({
    name: `webview -> ${source}`,
    file: webviewFile,
    code: uses(source),
    rule: imports,
    says: 'renderer',
  })),
  {
    name: 'webview -> the run model, type only',
    file: webviewFile,
    code: "import type { RunModel } from '../src/run/run-model';\nexport type R = RunModel;\n",
    rule: imports,
  },
  {
    name: 'webview -> dynamic import()',
    file: webviewFile,
    code: "export const m = import('./dom');\n",
    rule: 'no-restricted-syntax',
  },
  {
    name: 'a second toolkit importer',
    file: webviewFile,
    code: uses('@vscode/webview-ui-toolkit'),
    rule: imports,
    says: 'Only webview/toolkit.ts',
  },
  {
    name: 'toolkit.ts -> the toolkit',
    file: 'webview/toolkit.ts',
    code: uses('@vscode/webview-ui-toolkit'),
  },
  {
    name: 'toolkit.ts -> the engine',
    file: 'webview/toolkit.ts',
    code: uses('../src/engine/index'),
    rule: imports,
  },
  // The floors (docs/DEVELOPMENT.md): a room imports only lower floors.
  ...(
    [
      ['src/run/new-fold.ts', '../import/import-report', 'src/import is on floor 4'],
      ['src/run/fold/new-fold.ts', '../../scenarios/scenario', 'src/scenarios is on floor 4'],
      ['src/run/views/new-view.ts', '../../server/api-server', 'src/server is on floor 4'],
      ['src/import/new-detector.ts', '../server/status', 'src/server is on floor 4'],
      ['src/import/new-detector.ts', '../explain/explain-request', 'src/explain is on floor 4'],
      ['src/extension/new-command.ts', '../cli/serve-command', 'src/cli is on floor 5'],
      ['src/extension/server/new-command.ts', '../../cli/args', 'src/cli is on floor 5'],
      ['src/cli/new-command.ts', '../extension/extension', 'src/extension is on floor 5'],
      ['src/request/new-parser.ts', '../run/run-model', 'src/run is on floor 2'],
      ['src/sim/new-harness.ts', '../scenarios/runner', 'src/scenarios is on floor 4'],
      ['src/format/new-text.ts', '../run/run-model', 'src/run is on floor 2'],
      ['src/protocol.ts', './extension/extension', 'src/extension is on floor 5'],
    ] as const
  ).map(([file, source, says]) => ({
    name: `${file} -> ${source}`,
    file,
    code: uses(source),
    rule: imports,
    says,
  })),
  ...(
    [
      ['src/run/new-fold.ts', '../engine/index'],
      ['src/run/new-fold.ts', '../format/visible-text'],
      ['src/sim/new-harness.ts', '../run/trace/trace-format'],
      ['src/import/new-detector.ts', '../run/import-report'],
      ['src/import/new-detector.ts', '../request/request-info'],
      ['src/replay/new-step.ts', '../sim/scenario-run'],
      ['src/extension/new-command.ts', '../protocol'],
      ['src/extension/new-command.ts', '../server/seed-counts'],
      ['src/protocol.ts', './run/run-model'],
    ] as const
  ).map(([file, source]) => ({ name: `${file} -> ${source}`, file, code: uses(source) })),
  { name: 'webview -> the protocol', file: webviewFile, code: uses('../src/protocol') },
  {
    name: 'webview -> the run model views shared with the host',
    file: webviewFile,
    code: uses('../src/run/views/watcher-states'),
  },
  { name: 'webview -> its own file', file: webviewFile, code: uses('./dom') },
  { name: 'webview -> its stylesheet', file: webviewFile, code: "import './inspector.css';\n" },
];

/** The rule ids and messages ESLint reports for code linted as file. */
async function lint(eslint: ESLint, file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

/** Every .ts file under dir (relative to the project root), with its depth below dir. */
function tsFiles(dir: string): Array<{ file: string; depth: number }> {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `${dir}/${f}`, depth: f.split(path.sep).length - 1 }));
}

describe('eslint import boundaries', () => {
  const eslint = new ESLint({ cwd: root });

  for (const c of cases) {
    it(c.rule ? `${c.name}: ${c.rule}` : `${c.name}: allowed`, async () => {
      const found = await lint(eslint, c.file, c.code);
      assert.deepStrictEqual(
        found.map((m) => m.rule),
        c.rule ? [c.rule] : [],
        `${c.name}: ${JSON.stringify(found)}`,
      );
      if (c.says) assert.ok(found[0].message.includes(c.says), `${c.name}: ${found[0].message}`);
    });
  }

  // The rules that say where an import leads are written per folder depth: each file of the tree
  // must be at a depth they cover.
  const climb = (depth: number) => '../'.repeat(depth + 1);
  it('covers every file of src/: none reaches test/', async () => {
    const files = tsFiles('src');
    assert.ok(files.length > 50, `${files.length} files under src/`);
    for (const { file, depth } of files) {
      const found = await lint(eslint, file, `import '${climb(depth)}test/x';\n`);
      assert.deepStrictEqual(
        found.map((m) => m.rule),
        [imports],
        `${file}: ${JSON.stringify(found)}`,
      );
    }
  });
  it('covers every file of src/ outside the engine: each is in a room on a floor', async () => {
    const files = tsFiles('src').filter(({ file }) => !file.startsWith('src/engine/'));
    assert.ok(files.length > 50, `${files.length} files under src/`);
    for (const { file, depth } of files) {
      const face = file.startsWith('src/cli/') ? 'extension' : 'cli';
      const up = depth === 0 ? './' : '../'.repeat(depth);
      const found = await lint(eslint, file, `import '${up}${face}/x';\n`);
      assert.deepStrictEqual(
        found.map((m) => m.rule),
        [imports],
        `${file}: ${JSON.stringify(found)}`,
      );
      assert.ok(
        found[0].message.includes('Floors (docs/DEVELOPMENT.md)'),
        `${file}: ${found[0].message}`,
      );
    }
  });
  it('covers every file of src/ outside the engine: none reaches engine internals', async () => {
    const files = tsFiles('src').filter(({ file }) => !file.startsWith('src/engine/'));
    assert.ok(files.length > 100, `${files.length} files under src/`);
    for (const { file, depth } of files) {
      const found = await lint(
        eslint,
        file,
        `import '${'../'.repeat(depth) || './'}engine/cacher/cacher';\n`,
      );
      assert.deepStrictEqual(
        found.map((m) => m.rule),
        [imports],
        `${file}: ${JSON.stringify(found)}`,
      );
    }
  });
  it('covers every file of src/engine: none leaves it', async () => {
    const files = tsFiles('src/engine');
    assert.ok(files.length > 30, `${files.length} files under src/engine/`);
    for (const { file, depth } of files) {
      const found = await lint(eslint, file, `import '${climb(depth)}extension/x';\n`);
      assert.deepStrictEqual(
        found.map((m) => m.rule),
        [imports],
        `${file}: ${JSON.stringify(found)}`,
      );
    }
  });
});
