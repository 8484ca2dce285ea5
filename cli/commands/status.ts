import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('per partition: rows, cursor, last run, lag; per stream: CU per 1,000 items against the optimum, and what the last run cost')
    .option('--json', 'machine-readable output')
    .action(withConfig(async (config, opts: { json?: boolean }) => {
      const [{ runMaintenance }, { costTable }] = await Promise.all([import('../runOnWorker.ts'), import('../costTable.ts')]);
      const { checkpoints, costs } = await runMaintenance(config, 'statusWorkflow', []);
      const now = Date.now();
      const rows = checkpoints.map((c) => ({
        partition: c.partitionId,
        stream: c.stream,
        rows: c.rows,
        pages: c.pages,
        complete: c.complete,
        cursor: c.cursor,
        lastRun: c.updatedAt,
        lagSeconds: Math.max(0, Math.round((now - Date.parse(c.updatedAt)) / 1000)),
      }));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ partitions: rows, costs }, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) {
        process.stdout.write('no partitions synced yet\n');
        return;
      }
      const width = Math.max(...rows.map((r) => r.partition.length));
      process.stdout.write(`${'partition'.padEnd(width)}  ${'rows'.padStart(10)}  ${'pages'.padStart(7)}  state     last run                  lag\n`);
      for (const r of rows) {
        process.stdout.write(`${r.partition.padEnd(width)}  ${String(r.rows).padStart(10)}  ${String(r.pages).padStart(7)}  ${(r.complete ? 'complete' : 'partial').padEnd(8)}  ${r.lastRun.padEnd(24)}  ${r.lagSeconds}s\n`);
      }
      if (costs.length > 0) process.stdout.write(`\ncompute units per stream (optimum: weight x ceil(items / largest page) per walk)\n${costTable(costs)}`);
    }));
}
