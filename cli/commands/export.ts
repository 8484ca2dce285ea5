import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('export the warehouse to hive-partitioned Parquet under <dataDir>/parquet (incremental)')
    .option('--tables <list>', 'comma-separated table names (default: all)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--full', 'fingerprint every partition of every table instead of rewriting only the partitions commits marked (repairs a lake edited by hand)')
    .action(withConfig(async (config, opts: { tables?: string[]; full?: boolean }) => {
      const input = { tables: opts.tables, ...(opts.full ? { full: true } : {}) };
      const { runMaintenance } = await import('../runOnWorker.ts');
      const line = (r: { tables: number; files: number; unchanged: number; deleted: number }) => `exported ${r.tables} tables: ${r.files} files written, ${r.unchanged} partitions unchanged, ${r.deleted} removed`;
      if (!config.shards.length) {
        process.stdout.write(`${line(await runMaintenance(config, 'exportWorkflow', [input]))}
`);
        return;
      }
      // Sharded: every shard writes its own files (data-<shard>.parquet) into the one lake.
      for (const a of await runMaintenance(config, 'shardedExportWorkflow', [{ shards: config.shards, ...input }])) {
        process.stdout.write(a.answered ? `shard ${a.shard}: ${line(a.value)}
` : `shard ${a.shard}: not exported: ${a.reason}
`);
        if (!a.answered) process.exitCode = 1;
      }
    }));
}
