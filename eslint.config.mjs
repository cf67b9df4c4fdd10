// typescript-eslint flat config, plus the import boundaries of ARCHITECTURE.md and the floors of
// docs/DEVELOPMENT.md written as eslint's built-in no-restricted-imports
// (test/unit/lint/boundaries.test.ts lints a violating snippet for each one). That rule matches the import string, not the file it resolves to, so
// "does not leave src/engine" is written per folder depth: from src/engine/cacher/x.ts, two `..`
// leave it. Path-resolving plugins (eslint-plugin-import's no-restricted-paths, boundaries) would
// need a TypeScript resolver as a further dependency for what a few regexes say here.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Folder depths the boundary rules cover (src/x.ts is depth 0); the lint test checks every file of
// the tree against them.
const depths = [0, 1, 2, 3, 4, 5, 6];

/** The .ts files exactly `depth` folders below root. */
const atDepth = (root, depth) => [`${root}/${'*/'.repeat(depth)}*.ts`];

/** An import string that climbs `ups` folders or more (`../../x`, `..`). */
const climbs = (ups) => `^(?:\\./)*(?:\\.\\.(?:/|$)){${ups}}`;

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const nodeBuiltins = {
  regex: `^(?:node:.*|${builtinModules.map(escape).join('|')})$`,
  message:
    'src/engine runs in a browser too: no Node built-ins (ARCHITECTURE.md boundary 1); take what you need as a parameter.',
};

const vscode = {
  name: 'vscode',
  message: 'src/engine is a library: it never imports vscode (ARCHITECTURE.md boundary 1).',
};

/** From src/engine at `depth`: anything outside src/engine (faces, src/run, test/, bench/…). */
const leavesEngine = (depth) => ({
  regex: climbs(depth + 1),
  message:
    'src/engine is a library the faces use: it imports nothing outside src/engine — not the extension, CLI, server, scenarios, run, trace, import, test/ or bench/ (ARCHITECTURE.md boundary 1).',
});

/** From src at `depth`: test/ or bench/. */
const intoTestOrBench = (depth) => ({
  regex: `${climbs(depth + 1)}(?:test|bench)(?:/|$)`,
  message: 'src/ never imports from test/ or bench/: they use src, not the other way round.',
});

// The floors (docs/DEVELOPMENT.md, "Floors"): a room imports only rooms on lower floors; rooms on one
// floor never import each other, and what two of them share moves down a floor. src/protocol.ts is
// the contract between the extension host and the webview: the one face another face imports.
const floors = [
  ['engine'],
  ['format', 'etcd-client'],
  ['request', 'run'],
  ['sim'],
  ['server', 'scenarios', 'import', 'replay', 'probe', 'conform', 'explain', 'export', 'scan'],
  ['cli', 'extension', 'protocol'],
];
const floorOf = new Map(floors.flatMap((rooms, floor) => rooms.map((room) => [room, floor])));
const floorNames = [
  'engine',
  'text and adapters',
  'shared data',
  'the harness',
  'producers',
  'faces',
];
/** The rooms `room` may not import: its own floor and every floor above (protocol for the extension). */
const notBelow = (room) =>
  [...floorOf]
    .filter(([other, floor]) => other !== room && floor >= floorOf.get(room))
    .filter(([other]) => !(room === 'extension' && other === 'protocol'))
    .map(([other]) => other);
const describeFloor = (room) => `floor ${floorOf.get(room)} (${floorNames[floorOf.get(room)]})`;

/** From src/<room> at `depth` (src/x.ts is 0): an import of src/<other> for each room it may not import. */
const floorPatterns = (room, depth) =>
  notBelow(room).map((other) => ({
    regex: `${climbs(depth)}${escape(other)}(?:\\.ts)?(?:/|$)`,
    message: `Floors (docs/DEVELOPMENT.md): src/${room} is on ${describeFloor(room)} and imports only lower floors; src/${other} is on ${describeFloor(other)}${floorOf.get(other) === floorOf.get(room) ? ' too: rooms on one floor do not import each other (what both need moves down a floor)' : ''}.`,
  }));

/** The .ts files of a room at `depth` below src (a room at the root, like protocol, is its file). */
const roomFiles = (room, depth) =>
  depth === 0 ? [`src/${room}.ts`] : [`src/${room}/${'*/'.repeat(depth - 1)}*.ts`];

// The engine's public surface: index.ts (the library), http-face.ts (what the HTTP face needs
// besides) and etcd-face.ts (what an etcd client implements). test/ and bench/ reach internals by
// path, as Go tests do.
const engineEntries = ['index', 'http-face', 'etcd-face'];
const engineSurfaceMessage =
  "engine's public surface: import src/engine (index.ts), engine/http-face or engine/etcd-face, not engine internals (ARCHITECTURE.md floors).";

/** From src at `depth` (outside src/engine): a path into src/engine that is not an entry module. */
const intoEngineInternals = (depth) => ({
  regex: `^(?:\\./)*(?:\\.\\./){${depth}}engine/(?!(?:${engineEntries.join('|')})$)`,
  message: engineSurfaceMessage,
});

// The same for import() and import('…') types, which no-restricted-imports does not see (esquery
// regexes hold no '/': '.' stands for it).
const engineInternalsSyntax = [
  'error',
  ...['ImportExpression[source.value', 'TSImportType[argument.literal.value'].map((node) => ({
    selector: `${node}=/^(\\.\\.?.)+engine.(?!(${engineEntries.join('|')})$)/]`,
    message: engineSurfaceMessage,
  })),
];

const toolkit = '@vscode/webview-ui-toolkit';

/**
 * webview/ (one flat folder): its own files, src/protocol, src/run/views' shared helpers, the relist rule and src/format's text helpers (the
 * toolkit is a rule of its own).
 */
const outsideWebview = {
  regex: `^(?!(?:\\./\\w[\\w.-]*|\\.\\./src/protocol|\\.\\./src/run/views/[\\w-]+|\\.\\./src/run/relist-rule|\\.\\./src/format/[\\w-]+|${escape(toolkit)})$)`,
  message:
    'webview/ is a renderer: it imports its own files, ../src/protocol (types included: the run model is re-exported there) ../src/run/views/*, ../src/run/relist-rule and ../src/format/* only (ARCHITECTURE.md boundary 5).',
};

const secondToolkitImporter = {
  name: toolkit,
  message:
    'Only webview/toolkit.ts imports the toolkit; use the components it exposes (ARCHITECTURE.md boundary 7).',
};

// A dynamic import() or an import('x') type would slip past no-restricted-imports.
const staticImportsOnly = [
  'error',
  {
    selector: 'ImportExpression',
    message: 'Imports are static here, so the import boundaries can see them.',
  },
  {
    selector: 'TSImportType',
    message: 'Imports are static here, so the import boundaries can see them.',
  },
];

const engineClockMessage =
  'Time comes from the injected Clock and randomness from a SeededRandom (ARCHITECTURE.md boundary 2); RealClock in clock.ts is the one reader of the real clock.';

const serverClockMessage =
  'The server has one clock, registry.clock (wall time included), and the probe its ProbeOptions.clock: read now() from it, not Date.now(), new Date() or performance.';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test-results/**',
      '*.js',
      '*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  ...depths.map((depth) => ({
    files: atDepth('src', depth),
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [intoTestOrBench(depth), intoEngineInternals(depth)] },
      ],
    },
  })),
  // After those: for a file of a room these replace them (test/ and bench/ stay refused).
  ...[...floorOf.keys()]
    .filter((room) => room !== 'engine')
    .flatMap((room) =>
      depths
        .filter((depth) => (room === 'protocol' ? depth === 0 : depth > 0))
        .map((depth) => ({
          files: roomFiles(room, depth),
          rules: {
            'no-restricted-imports': [
              'error',
              {
                patterns: [
                  intoTestOrBench(depth),
                  intoEngineInternals(depth),
                  ...floorPatterns(room, depth),
                ],
              },
            ],
          },
        })),
    ),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**'],
    rules: { 'no-restricted-syntax': engineInternalsSyntax },
  },
  // After the src/ entries: for an engine file these replace them (leavesEngine covers test/ too).
  ...depths.map((depth) => ({
    files: atDepth('src/engine', depth),
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [vscode], patterns: [nodeBuiltins, leavesEngine(depth)] },
      ],
    },
  })),
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-syntax': staticImportsOnly,
      'no-restricted-globals': [
        'error',
        ...[
          'setTimeout',
          'setInterval',
          'setImmediate',
          'clearTimeout',
          'clearInterval',
          'clearImmediate',
          'performance',
        ].map((name) => ({ name, message: engineClockMessage })),
        ...['process', 'Buffer', 'global', '__dirname', '__filename'].map((name) => ({
          name,
          message:
            'src/engine runs in a browser too: no Node globals (ARCHITECTURE.md boundary 1).',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...[
          ['Date', 'now'],
          ['Math', 'random'],
          ['globalThis', 'setTimeout'],
          ['globalThis', 'setInterval'],
          ['globalThis', 'performance'],
        ].map(([object, property]) => ({ object, property, message: engineClockMessage })),
      ],
    },
  },
  {
    files: ['src/engine/clock.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['src/server/**/*.ts', 'src/probe/probe-run.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'performance', message: serverClockMessage }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: serverClockMessage },
      ],
      'no-restricted-syntax': [
        ...engineInternalsSyntax,
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: serverClockMessage,
        },
      ],
    },
  },
  {
    files: ['webview/**/*.ts'],
    ignores: ['webview/toolkit.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [secondToolkitImporter], patterns: [outsideWebview] },
      ],
      'no-restricted-syntax': staticImportsOnly,
    },
  },
  {
    files: ['webview/toolkit.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [outsideWebview] }],
      'no-restricted-syntax': staticImportsOnly,
    },
  },
);
