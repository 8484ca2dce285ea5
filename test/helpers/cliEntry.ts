import { fileURLToPath } from 'node:url';

/**
 * How tests start the CLI as a child process: the TypeScript sources through tsx, so a test always
 * runs the code it sits next to (bin/glacier-etl.js runs the compiled dist/, which is only as new
 * as the last build). test/cli/compiledCli.test.ts covers the compiled entry itself.
 */
export function cliArgv(args: string[]): string[] {
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../../cli/main.ts', import.meta.url)), ...args];
}
