import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.ts';
import { checkStreams } from './parsers.ts';
import { UserError } from './userError.ts';

/**
 * glacier-etl command line. commander parses arguments (well kept, typed, generates --help);
 * every failure is printed as one line `glacier-etl: <problem>` with a non-zero exit code.
 */
const program = new Command('glacier-etl')
  .description('Copy the Avalanche Data API into a DuckDB warehouse and a DuckLake, orchestrated by Temporal')
  .option('-c, --config <file>', 'pipeline config file (YAML or JSON)', process.env.GLACIER_CONFIG)
  // No usage hint after errors: every failure stays one line (commander's `error: …`).
  .showHelpAfterError(false)
  .exitOverride()
  // Stream names are the catalog's: checked before any command given --streams runs.
  .hook('preAction', (_program, command) => checkStreams(command));

registerCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version exit 0; commander already printed usage errors.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof UserError || error instanceof (await import('../worker/config.ts')).ConfigError) {
    // (The config module, zod and yaml, loads lazily: only a failed command pays for it here.)
    process.stderr.write(`glacier-etl: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`glacier-etl: ${message.split('\n')[0]}\n`);
    if (process.env.GLACIER_DEBUG) console.error(error);
    process.exitCode = 1;
  }
}
