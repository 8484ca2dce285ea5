import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';

export function registerConfigCommand(program: Command): void {
  const config = program.command('config').description('inspect the pipeline configuration');
  config
    .command('check')
    .description('validate the config file and environment overrides; prints the resolved config (no secrets)')
    .action(async (_opts, command: Command) => {
      const resolved = await configFor(command);
      process.stdout.write(`${JSON.stringify(resolved, null, 2)}\n`);
    });
}
