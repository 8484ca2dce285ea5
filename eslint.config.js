// Lint rules that protect the two things that are easy to break silently:
// unawaited promises anywhere, and non-determinism (Node built-ins, I/O libraries) in workflows.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', '.tools/', 'bin/', 'dist/', '.dist-next/', 'eslint.config.js', 'vitest.config.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Plain-JavaScript Node scripts (the build runs before anything is compiled).
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['@duckdb/*', 'apache-arrow', 'pino', 'undici', 'p-limit', '@temporalio/client', '@temporalio/worker'], message: 'Workflows do no I/O.' },
            { group: ['../activities/*', '../activities/**', '../worker/**', '../simulator/**'], message: 'Workflows import activities as types only.', allowTypeImports: true },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'fetch', 'process', 'setInterval', 'require'],
    },
  },
);
