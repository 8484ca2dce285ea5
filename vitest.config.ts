import { existsSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { LONG_TESTS, TEST_FILES } from './test/tiers.ts';

const long = Object.keys(LONG_TESTS);
const missing = long.filter((file) => !existsSync(file));
if (missing.length) throw new Error(`test/tiers.ts names test files that do not exist: ${missing.join(', ')}`);

/** `npm test`: every test but test/tiers.ts's long ones; `npm run test:long` (GLACIER_TESTS=long) runs those. */
const tier = process.env.GLACIER_TESTS === 'long' ? 'long' : 'default';

export default defineConfig({
  test: {
    include: tier === 'long' ? long : TEST_FILES,
    exclude: tier === 'long' ? configDefaults.exclude : [...configDefaults.exclude, ...long],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
