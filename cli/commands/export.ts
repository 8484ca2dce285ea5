import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('export the warehouse to hive-partitioned Parquet under <dataDir>/parquet (incremental)')
    .option('--tables <list>', 'comma-separated table names (default: all)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .action(async (opts: { tables?: string[] }, command: Command) => {
      const config = await configFor(command);
      const [{ withSession }, { runOnWorker }, { exportWorkflow }] = await Promise.all([import('../session.ts'), import('../runOnWorker.ts'), import('../../workflows/maintenance.ts')]);
      await withSession(config, async (session) => {
        const result = await runOnWorker(session, exportWorkflow, 'glacier-export', [{ tables: opts.tables }]);
        process.stdout.write(`exported ${result.tables} tables: ${result.files} files written, ${result.unchanged} partitions unchanged, ${result.deleted} removed\n`);
      });
    });
}
