import type { Command } from 'commander';
import type { ScheduleDescription, ScheduleHandle } from '@temporalio/client';
import { configFor } from '../globalConfig.ts';
import { parseStreams } from '../parsers.ts';
import type { Session } from '../session.ts';
import { UserError } from '../userError.ts';
import type { ResolvedConfig } from '../../worker/config.ts';
import type { StreamName } from '../../common/streamNames.ts';

const DEFAULT_ID = 'glacier-nightly-sync';

/** The session module (Temporal client, worker, DuckDB) loads only when a schedule command runs. */
async function withSession<T>(config: ResolvedConfig, fn: (session: Session) => Promise<T>): Promise<T> {
  const { withSession: open } = await import('../sessionLauncher.ts');
  return open(config, fn);
}

function parseDuration(value: string): string {
  if (!/^\d+(ms|s|m|h|d)$/.test(value)) throw new UserError(`--catchup-window: expected a duration like 30m, 6h or 1d, got "${value}"`);
  return value;
}

function checkCron(flag: string, cron: string): string {
  if (cron.trim().split(/\s+/).length < 5 && !cron.startsWith('@')) throw new UserError(`${flag}: expected 5 fields like "0 3 * * *", got "${cron}"`);
  return cron;
}

function describeSchedule(d: ScheduleDescription): string {
  const spec = typeof d.memo?.cron === 'string' ? `cron "${d.memo.cron}"` : 'custom spec';
  const next = d.info.nextActionTimes[0]?.toISOString() ?? '-';
  const last = d.info.recentActions.at(-1)?.takenAt.toISOString() ?? '-';
  return `${d.scheduleId}  ${spec}  next ${next}  last ${last}${d.state.paused ? '  (paused)' : ''}`;
}

/** The subcommands that make one call on a schedule's handle: `schedule delete|trigger <id>`. */
const HANDLE_COMMANDS: { verb: string; description: string; past: string; act: (handle: ScheduleHandle) => Promise<void> }[] = [
  { verb: 'delete', description: 'delete a schedule', past: 'deleted', act: (handle) => handle.delete() },
  { verb: 'trigger', description: "run a schedule's action now", past: 'triggered', act: (handle) => handle.trigger() },
];

/**
 * Nightly syncs come from Temporal Schedules: overlap SKIP (a slow run never stacks up) and a
 * catch-up window (runs missed while the server was down are made up, within the window).
 */
export function registerScheduleCommand(program: Command): void {
  const schedule = program.command('schedule').description('manage Temporal Schedules that run incremental syncs');

  schedule
    .command('create')
    .description('create a schedule that runs `sync` on a cron expression')
    .requiredOption('--cron <expr>', 'cron expression, e.g. "0 3 * * *" (UTC)')
    .option('--id <id>', 'schedule id', DEFAULT_ID)
    .option('--streams <list>', 'streams to sync (default: the config\'s)', parseStreams)
    .option('--catchup-window <duration>', 'how far back missed runs are made up', '6h')
    .option('--max-pages <n>', 'pages per batch activity', '20')
    .option('--no-export', 'skip the lake export at the end of each run (a warehouse without a lake)')
    .option('--no-verify', 'skip the nightly checks of what the run committed (verify --changed) after the export')
    .option('--full-verify-cron <expr>', 'also create "<id>-full-verify", a schedule running the full verify (every row) on this cron; "none" for no such schedule', '0 4 * * 0')
    .action(async (opts: { cron: string; id: string; streams?: StreamName[]; catchupWindow: string; maxPages: string; export: boolean; verify: boolean; fullVerifyCron: string }, command: Command) => {
      const config = await configFor(command);
      const catchupWindow = parseDuration(opts.catchupWindow);
      checkCron('--cron', opts.cron);
      const fullVerifyCron = opts.fullVerifyCron === 'none' ? undefined : checkCron('--full-verify-cron', opts.fullVerifyCron);
      const [{ ScheduleOverlapPolicy }, { pipelineWorkflow }, { verifyWorkflow }, { pipelineWorkflowId }] = await Promise.all([
        import('@temporalio/client'),
        import('../../workflows/pipeline.ts'),
        import('../../workflows/maintenance.ts'),
        import('../../workflows/workflowIds.ts'),
      ]);
      await withSession(config, async (session) => {
        try {
          await session.client.schedule.create({
            scheduleId: opts.id,
            memo: { cron: opts.cron },
            spec: { cronExpressions: [opts.cron] },
            policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow },
            action: {
              type: 'startWorkflow',
              workflowType: pipelineWorkflow,
              taskQueue: session.taskQueue,
              workflowId: pipelineWorkflowId('sync', session.taskQueue),
              args: [
                {
                  mode: 'sync',
                  streams: opts.streams ?? config.streams,
                  partitionConcurrency: config.partitionConcurrency,
                  maxPagesPerBatch: Number(opts.maxPages),
                  exportParquet: opts.export,
                  ...(opts.verify ? { verify: 'changed' } : {}),
                  ...(config.shards.length ? { shards: config.shards } : {}),
                },
              ],
            },
          });
          // The full verify reads every row: weekly by default, off the nightly path (docs/nights.md).
          if (fullVerifyCron && !config.shards.length) {
            await session.client.schedule.create({
              scheduleId: `${opts.id}-full-verify`,
              memo: { cron: fullVerifyCron },
              spec: { cronExpressions: [fullVerifyCron] },
              policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow },
              action: { type: 'startWorkflow', workflowType: verifyWorkflow, taskQueue: session.taskQueue, workflowId: `${opts.id}-full-verify`, args: [{ mode: 'full' }] },
            });
          }
        } catch (error) {
          throw new UserError(`schedule create: ${(error as Error).message.split('\n')[0]}`);
        }
        process.stdout.write(`${describeSchedule(await session.client.schedule.getHandle(opts.id).describe())}\n`);
        if (fullVerifyCron && !config.shards.length) process.stdout.write(`${describeSchedule(await session.client.schedule.getHandle(`${opts.id}-full-verify`).describe())}\n`);
      });
    });

  schedule
    .command('list')
    .description('list schedules')
    .action(async (_opts, command: Command) => {
      await withSession(await configFor(command), async (session) => {
        let any = false;
        for await (const summary of session.client.schedule.list()) {
          any = true;
          process.stdout.write(`${describeSchedule(await session.client.schedule.getHandle(summary.scheduleId).describe())}\n`);
        }
        if (!any) process.stdout.write('no schedules\n');
      });
    });

  for (const { verb, description, past, act } of HANDLE_COMMANDS) {
    schedule
      .command(`${verb} <id>`)
      .description(description)
      .action(async (id: string, _opts, command: Command) => {
        await withSession(await configFor(command), async (session) => {
          await act(session.client.schedule.getHandle(id)).catch((error: Error) => {
            throw new UserError(`schedule ${verb} ${id}: ${error.message.split('\n')[0]}`);
          });
          process.stdout.write(`${past} ${id}\n`);
        });
      });
  }
}
