// typescript-eslint flat config, plus the import boundaries of ARCHITECTURE.md written as
// eslint's built-in no-restricted-imports (test/unit/lint/boundaries.test.ts lints a violating
// snippet for each one). That rule matches the import string, not the file it resolves to, so
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

// The engine's public surface: index.ts (the library), http-face.ts (what the HTTP face needs
// besides) and etcd-face.ts (what an etcd client implements). test/ and bench/ reach internals by
// path, as Go tests do; src/extension is exempt until its last deep import goes.
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
 * webview/ (one flat folder): its own files, src/protocol, src/run/views' shared helpers and the relist rule (the
 * toolkit is a rule of its own).
 */
const outsideWebview = {
  regex: `^(?!(?:\\./\\w[\\w.-]*|\\.\\./src/protocol|\\.\\./src/run/views/[\\w-]+|\\.\\./src/run/relist-rule|${escape(toolkit)})$)`,
  message:
    'webview/ is a renderer: it imports its own files, ../src/protocol (types included: the run model is re-exported there) ../src/run/views/* and ../src/run/relist-rule only (ARCHITECTURE.md boundary 5).',
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
  // src/extension still has a deep engine import (server-settings.ts' parseSemantic): exempt from
  // the engine's surface until it goes.
  ...depths.slice(1).map((depth) => ({
    files: atDepth('src/extension', depth - 1),
    rules: {
      'no-restricted-imports': ['error', { patterns: [intoTestOrBench(depth)] }],
    },
  })),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/engine/**', 'src/extension/**'],
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
