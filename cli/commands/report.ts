import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';
import { UserError } from '../userError.ts';
import { warehousePath } from '../../worker/paths.ts';
import { shardTaskQueue } from '../../common/shards.ts';

/** Where the report goes: --out, else report.html in the data directory. Checked before any work. */
function outputPath(out: string | undefined, dataDir: string): string {
  if (out !== undefined && !out.trim()) throw new UserError('report: --out needs a file path');
  const path = resolve(out ?? join(dataDir, 'report.html'));
  if (existsSync(path) && statSync(path).isDirectory()) throw new UserError(`report: --out ${path} is a directory; give a file path such as ${join(path, 'report.html')}`);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`report: directory ${dir} does not exist`);
  if (!/\.html?$/i.test(path)) throw new UserError(`report: --out ${path} should end in .html (the report is one HTML page)`);
  return path;
}

/**
 * The worker that owns the warehouse reads the report's data (an activity, like status and verify),
 * so the report works while a worker runs; this process renders the page and writes the file.
 */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('write one self-contained HTML page (charts and tables, works offline) about what the warehouse holds')
    .option('-o, --out <file>', 'where to write the page (default: <dataDir>/report.html)')
    .option('--shard <name>', 'sharded layout: the shard whose warehouse the page is about')
    .option('--json', "print the page's data as JSON (every section, the nights with their rows per table) instead of writing the page")
    .action(withConfig(async (config, opts: { out?: string; shard?: string; json?: boolean }) => {
      // The report reads one warehouse; with shards, name the one (it runs on that shard's queue).
      if (config.shards.length && (!opts.shard || !config.shards.includes(opts.shard))) throw new UserError(`report: the config names shards (${config.shards.join(', ')}): pick one with --shard <name>`);
      if (!config.shards.length && opts.shard) throw new UserError('report: --shard needs a config that names shards');
      // Embedded mode opens the warehouse here: refuse to create an empty one just to report on it.
      const file = warehousePath(config.dataDir);
      if (!config.shards.length && !config.temporalAddress && !existsSync(file)) throw new UserError(`report: no warehouse at ${file}: run backfill first`);
      if (opts.json && opts.out !== undefined) throw new UserError('report: --json prints the data and writes no page: drop --out');
      const out = opts.json ? undefined : outputPath(opts.out, config.dataDir);
      // Loaded when the command runs, like every command's implementation (`--help` stays fast).
      const [{ runMaintenance }, { writeReport }] = await Promise.all([import('../runOnWorker.ts'), import('../report/writeReport.ts')]);
      const data = await runMaintenance(config, 'reportWorkflow', [], opts.shard ? { taskQueue: shardTaskQueue(config.temporal.taskQueue, opts.shard) } : {});
      if (out === undefined) {
        process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        return;
      }
      const bytes = writeReport(data, out);
      process.stdout.write(`report: ${out} (${(bytes / 1024).toFixed(0)} KiB)\n`);
    }));
}
