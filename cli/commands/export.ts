import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';
import type { ExportSummary } from '../../activities/ports.ts';

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('apply what the warehouse changed since the last export to the lake, in one lake transaction')
    .option('--tables <list>', 'comma-separated table names (default: all)', (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .option('--full', 'compare every table whole instead of only the partitions commits marked (repairs a lake edited by hand)')
    .action(withConfig(async (config, opts: { tables?: string[]; full?: boolean }) => {
      const input = { tables: opts.tables, ...(opts.full ? { full: true } : {}) };
      const { runMaintenance } = await import('../runOnWorker.ts');
      const line = (r: ExportSummary) =>
        `exported ${r.tables} changed tables${r.snapshot === undefined ? '' : ` in lake snapshot ${r.snapshot}`}: ${r.inserted ?? 0} rows inserted, ${r.deleted} deleted, ${r.files} files written, ${r.unchanged} marked partitions unchanged`;
      if (!config.shards.length) {
        process.stdout.write(`${line(await runMaintenance(config, 'exportWorkflow', [input]))}
`);
        return;
      }
      // Sharded: every shard applies its own rows to the one lake.
      for (const a of await runMaintenance(config, 'shardedExportWorkflow', [{ shards: config.shards, ...input }])) {
        process.stdout.write(a.answered ? `shard ${a.shard}: ${line(a.value)}
` : `shard ${a.shard}: not exported: ${a.reason}
`);
        if (!a.answered) process.exitCode = 1;
      }
    }));
}
