// Lint rules that protect the things that are easy to break silently: unawaited promises anywhere,
// non-determinism (Node built-ins, I/O libraries) in workflows, and the direction of imports between
// layers (common/ is the shared kernel and imports no layer; activities import no outer layer; the
// simulator in tools/ and the product import nothing of each other, but for the CLI's one loader).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

// The folders (and top-level files) of activities/, lowest first: each imports only what comes
// before it (and common/, below them all). The Data API client knows no table; the warehouse knows
// no stream; a stream knows no sync core; the sync core knows no orchestration.
const ACTIVITY_LAYERS = ['api', 'warehouse', 'streams', 'sync', 'report', 'shards', 'ports.ts', 'observe', 'verify', 'temporalFailure.ts', 'batchRun.ts', 'index.ts'];
const layerZones = ACTIVITY_LAYERS.slice(0, -1).map((layer, i) => ({
  target: `./activities/${layer}`,
  from: ACTIVITY_LAYERS.slice(i + 1).map((above) => `./activities/${above}`),
  message: `activities/${layer} sits below ${ACTIVITY_LAYERS.slice(i + 1).join(', ')} (eslint.config.js, ACTIVITY_LAYERS): move the shared part down, into this folder or common/.`,
}));

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
    // The shared kernel: names every layer may import. It imports none of them, and stays free of
    // Node built-ins and I/O libraries because the workflow bundle loads parts of it.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'The shared kernel is loaded by workflows: no Node built-ins.' })),
          patterns: [
            { regex: '^(\\.\\./)+(activities|workflows|worker|cli|tools)(/|$)', message: 'The shared kernel imports no layer: move the shared name into common/.' },
            { group: ['@duckdb/*', 'apache-arrow', 'pino', 'undici', 'p-limit', '@temporalio/*'], message: 'The shared kernel does no I/O (types only).', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // The order of activities/' folders, and no import cycle inside activities/ (eslint-plugin-import-x,
    // resolving the .ts specifiers with the TypeScript resolver).
    files: ['activities/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts'], 'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] }, 'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${import.meta.dirname}/tsconfig.json` })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layerZones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Activities are an inner layer: the worker composes them, workflows call them; they take shared
    // names from the kernel (common/), never from the worker, the workflows or the CLI.
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(worker|workflows|cli)(/|$)', message: 'Activities import no outer layer: shared names live in common/.' },
            { regex: '^(\\.\\./)+tools(/|$)', message: 'The product does not import the simulator (it is left out of the worker image).' },
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts', 'test/helpers/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflows must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['@duckdb/*', 'apache-arrow', 'pino', 'undici', 'p-limit', '@temporalio/client', '@temporalio/worker'], message: 'Workflows do no I/O.' },
            { group: ['../activities/*', '../activities/**'], message: 'Workflows import activities as types only.', allowTypeImports: true },
            { group: ['../worker/**', '../cli/**', '../tools/**'], message: 'Workflows import only the shared kernel (common/) and activity types.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'fetch', 'process', 'setInterval', 'require'],
    },
  },
  {
    // The worker and the CLI leave the simulator alone: it is a tool beside the product, absent from
    // the worker image. The CLI's `demo` and `simulator` reach it through cli/simulatorLoader.ts only.
    files: ['worker/**/*.ts', 'cli/**/*.ts'],
    ignores: ['cli/simulatorLoader.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+tools(/|$)', message: 'The product does not import the simulator: go through cli/simulatorLoader.ts (demo and simulator only).' }] },
      ],
    },
  },
  {
    // The simulator is its own unit (its tests included): it imports nothing of the product, its
    // tests or its benchmarks, so it can ship, move or be left out alone.
    files: ['tools/simulator/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(common|activities|workflows|worker|cli|test|bench)(/|$)', message: 'The simulator imports nothing of the product: it is a tool beside it.' }] },
      ],
    },
  },
);
