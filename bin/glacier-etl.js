#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm install` through the `prepare` script, or by
// `npm run build`): no TypeScript compiler at run time, so `--help` answers in a fraction of a second.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('glacier-etl: the CLI is not built (no dist/): run `npm run build` (npm install does it)\n');
  process.exit(1);
}
await import(main.href);
