import type { Command } from 'commander';
import { configFor } from '../globalConfig.ts';
import { parseNonNegativeInt, parsePositiveInt, parseStreams } from '../parsers.ts';
import type { StreamName } from '../../common/streamNames.ts';

interface RunOptions {
  streams?: StreamName[];
  export: boolean;
  detach?: boolean;
  maxPages: number;
  activityBudget: number;
  json?: boolean;
}

function addRunCommand(program: Command, mode: 'backfill' | 'sync', description: string): void {
  program
    .command(mode)
    .description(description)
    .option('--streams <list>', 'comma-separated stream names (default: the config\'s streams)', parseStreams)
    .option('--no-export', 'skip the lake export at the end')
    .option('--detach', 'start the run and return (needs TEMPORAL_ADDRESS and a running worker)')
    .option('--max-pages <n>', 'pages per batch activity', parsePositiveInt, 20)
    .option('--activity-budget <ms>', 'one batch activity keeps committing batches for up to this long (0: one batch per activity)', parseNonNegativeInt, 0)
    .option('--json', 'print the final status as JSON')
    .action(async (opts: RunOptions, command: Command) => {
      const config = await configFor(command);
      // The launcher first: it starts the dev server before the heavy modules load (sessionLauncher.ts).
      const { withSession } = await import('../sessionLauncher.ts');
      await withSession(config, async (session) => {
        const { followPipeline, startPipeline, summarize } = await import('../runPipeline.ts');
        if (opts.detach && session.embedded) throw new Error('--detach needs TEMPORAL_ADDRESS: the embedded worker stops with this process');
        const handle = await startPipeline(session, {
          mode,
          streams: opts.streams ?? config.streams,
          partitionConcurrency: config.partitionConcurrency,
          maxPagesPerBatch: opts.maxPages,
          activityBudgetMs: opts.activityBudget,
          exportParquet: opts.export,
          ...(config.shards.length ? { shards: config.shards } : {}),
        });
        if (session.uiUrl) session.logger.info({ ui: `${session.uiUrl}/namespaces/${config.temporal.namespace}/workflows/${handle.workflowId}` }, 'temporal UI');
        if (opts.detach) {
          process.stdout.write(`started ${handle.workflowId}\n`);
          return;
        }
        const status = await followPipeline(session, handle);
        const summary = summarize(status);
        if (opts.json) process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        else {
          process.stdout.write(`${mode}: ${summary.done}/${summary.partitions} partitions done, ${summary.rows} rows, ${summary.pages} pages` +
            `${summary.failed ? `, ${summary.failed} failed` : ''}${summary.skipped ? `, ${summary.skipped} skipped (already running)` : ''}` +
            `${status.exported ? `; lake: ${status.exported.tables} tables changed, ${status.exported.files} files written` : ''}\n`);
          for (const p of status.partitions.filter((x) => x.state === 'failed')) process.stdout.write(`  failed ${p.partitionId}: ${p.error}\n`);
          if (status.shards) {
            const per = status.shards.map((s) => `${s.shard} ${status.partitions.filter((p) => p.shard === s.shard).length}`);
            process.stdout.write(`  partitions per shard: ${per.join(', ')}\n`);
          }
        }
        if (summary.failed) process.exitCode = 1;
      });
    });
}

export function registerRunCommands(program: Command): void {
  addRunCommand(program, 'backfill', 'load every configured partition from the beginning (resumes a run that was interrupted)');
  addRunCommand(program, 'sync', 'incremental sync: fetch only what is new since the last run');
}
