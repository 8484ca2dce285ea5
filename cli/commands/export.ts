import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('export the warehouse to hive-partitioned Parquet under <dataDir>/parquet (incremental)')
    .option('--tables <list>', 'comma-separated table names (default: all)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .action(async (opts: { tables?: string[] }, command: Command) => {
      const config = await configFor(command);
      const [{ withSession }, { runOnWorker }, { exportWorkflow }, { shardedExportWorkflow }] = await Promise.all([
        import('../session.ts'),
        import('../runOnWorker.ts'),
        import('../../workflows/maintenance.ts'),
        import('../../workflows/shards.ts'),
      ]);
      await withSession(config, async (session) => {
        const line = (r: { tables: number; files: number; unchanged: number; deleted: number }) => `exported ${r.tables} tables: ${r.files} files written, ${r.unchanged} partitions unchanged, ${r.deleted} removed`;
        if (!config.shards.length) {
          const result = await runOnWorker(session, exportWorkflow, 'glacier-export', [{ tables: opts.tables }]);
          process.stdout.write(`${line(result)}\n`);
          return;
        }
        // Sharded: every shard writes its own files (data-<shard>.parquet) into the one lake.
        for (const a of await runOnWorker(session, shardedExportWorkflow, 'glacier-export', [{ shards: config.shards, tables: opts.tables }])) {
          process.stdout.write(a.answered ? `shard ${a.shard}: ${line(a.value)}\n` : `shard ${a.shard}: not exported: ${a.reason}\n`);
          if (!a.answered) process.exitCode = 1;
        }
      });
    });
}
