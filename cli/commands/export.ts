import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('export the warehouse to hive-partitioned Parquet under <dataDir>/parquet (incremental)')
    .option('--tables <list>', 'comma-separated table names (default: all)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .action(withConfig(async (config, opts: { tables?: string[] }) => {
      const { runMaintenance } = await import('../runOnWorker.ts');
      const result = await runMaintenance(config, 'exportWorkflow', [{ tables: opts.tables }]);
      process.stdout.write(`exported ${result.tables} tables: ${result.files} files written, ${result.unchanged} partitions unchanged, ${result.deleted} removed\n`);
    }));
}
