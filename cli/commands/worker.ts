import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run a worker: against TEMPORAL_ADDRESS when set, else with the embedded dev server')
    .option('--shard <name>', 'run as this shard (one of the config\'s shards; also GLACIER_SHARD): its own DuckDB file and task queue')
    .action(async (opts: { shard?: string }, command: Command) => {
      if (opts.shard !== undefined) process.env.GLACIER_SHARD = opts.shard;
      const { runWorkerProcess } = await import('../../worker/main.ts');
      await runWorkerProcess(await configFor(command));
    });
}
