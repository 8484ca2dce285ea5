import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run a worker: against TEMPORAL_ADDRESS when set, else with the embedded dev server')
    .action(async (_opts, command: Command) => {
      const { runWorkerProcess } = await import('../../worker/main.ts');
      await runWorkerProcess(await configFor(command));
    });
}
