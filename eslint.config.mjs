// typescript-eslint flat config; the engine is additionally forbidden from importing vscode.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['vscode', 'fs', 'path', 'os', 'child_process', 'crypto'],
          patterns: ['node:*', '../extension/*', '../cli/*'],
        },
      ],
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval', 'process', 'Buffer'],
    },
  },
);
