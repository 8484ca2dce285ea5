import type { Command } from 'commander';
import { withConfig } from '../globalConfig.ts';
import type { CheckpointView } from '../../activities/sync/types.ts';
import type { StreamCost } from '../../activities/sync/streamCosts.ts';
import type { StorageVersions } from '../../activities/ports.ts';

/** One line: the stored data's versions against the ones this build's worker writes (docs/upgrading.md). */
export function describeVersions(storage: StorageVersions | null): string {
  if (!storage) return 'warehouse schema version: unknown (the worker predates 0.2.0)';
  const { warehouse, lake } = storage;
  const lakeText = 'format' in lake ? `lake: ${lake.format === 'ducklake' ? 'DuckLake' : lake.format} (catalog ${lake.catalog})` : `lake layout version ${lake.version} (worker writes ${lake.current})`;
  return `warehouse schema version ${warehouse.version ?? 'none'} (worker writes ${warehouse.current}), ${lakeText}`;
}
import type { DriftRow } from '../../activities/warehouse/warehouse.ts';
import { driftLines } from '../driftLines.ts';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('per partition: rows, cursor, last run, lag; per stream: CU per 1,000 items against the optimum, and what the last run cost')
    .option('--json', 'machine-readable output')
    .action(withConfig(async (config, opts: { json?: boolean }) => {
      const [{ runMaintenance }, { costTable }, { mergeStreamCosts }] = await Promise.all([import('../runOnWorker.ts'), import('../costTable.ts'), import('../shardAnswers.ts')]);
      // Sharded: every shard answers for its own warehouse; a shard that does not answer is named.
      const sharded = config.shards.length > 0;
      const answers = sharded ? await runMaintenance(config, 'shardedStatusWorkflow', [{ shards: config.shards }]) : [];
      const unanswered = answers.flatMap((a) => (a.answered ? [] : [{ shard: a.shard, reason: a.reason }]));
      const { checkpoints, costs, storage, drift = [] }: { checkpoints: (CheckpointView & { shard?: string })[]; costs: StreamCost[]; storage?: StorageVersions; drift?: DriftRow[] } = sharded
        ? {
            checkpoints: answers.flatMap((a) => (a.answered ? a.value.checkpoints.map((c) => ({ ...c, shard: a.shard })) : [])),
            costs: mergeStreamCosts(answers.flatMap((a) => (a.answered ? [a.value.costs] : []))),
          }
        : await runMaintenance(config, 'statusWorkflow', []);
      // A worker older than 0.2.0 answers without versions.
      const versions = sharded
        ? answers.flatMap((a) => (a.answered ? [{ shard: a.shard, storage: a.value.storage ?? null }] : []))
        : [{ shard: undefined, storage: storage ?? null }];
      const now = Date.now();
      const rows = checkpoints.map((c) => ({
        partition: c.partitionId,
        ...(c.shard ? { shard: c.shard } : {}),
        stream: c.stream,
        rows: c.rows,
        pages: c.pages,
        complete: c.complete,
        cursor: c.cursor,
        lastRun: c.updatedAt,
        lagSeconds: Math.max(0, Math.round((now - Date.parse(c.updatedAt)) / 1000)),
      }));
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ partitions: rows, costs, drift, discoveredChains: discovered(drift, config), storage: sharded ? Object.fromEntries(versions.map((v) => [v.shard, v.storage])) : versions[0].storage, ...(sharded ? { shards: answers.map((a) => ({ shard: a.shard, answered: a.answered, ...(a.answered ? { partitions: a.value.checkpoints.length } : { reason: a.reason }) })) } : {}) }, null, 2)}\n`);
        if (unanswered.length) process.exitCode = 1;
        return;
      }
      for (const v of versions) process.stdout.write(`${v.shard ? `shard ${v.shard}: ` : ''}${describeVersions(v.storage)}\n`);
      for (const u of unanswered) process.stdout.write(`shard ${u.shard}: not listed: ${u.reason}\n`);
      if (unanswered.length) process.exitCode = 1;
      if (rows.length === 0) {
        process.stdout.write('no partitions synced yet\n');
        return;
      }
      const width = Math.max(...rows.map((r) => r.partition.length));
      const shardWidth = sharded ? Math.max(5, ...config.shards.map((n) => n.length)) : 0;
      const shardCell = (r: { shard?: string }) => (sharded ? `${(r.shard ?? '').padEnd(shardWidth)}  ` : '');
      process.stdout.write(`${'partition'.padEnd(width)}  ${sharded ? `${'shard'.padEnd(shardWidth)}  ` : ''}${'rows'.padStart(10)}  ${'pages'.padStart(7)}  state     last run                  lag\n`);
      for (const r of rows) {
        process.stdout.write(`${r.partition.padEnd(width)}  ${shardCell(r)}${String(r.rows).padStart(10)}  ${String(r.pages).padStart(7)}  ${(r.complete ? 'complete' : 'partial').padEnd(8)}  ${r.lastRun.padEnd(24)}  ${r.lagSeconds}s\n`);
      }
      if (costs.length > 0) process.stdout.write(`\ncompute units per stream (optimum: weight x ceil(items / largest page) per walk)\n${costTable(costs)}`);
      if (drift.length > 0) process.stdout.write(`\n${driftLines(drift, discovered(drift, config))}`);
    }));
}

/** Chains the API lists that are new since the first run and that the config does not name (new_chain drift). */
function discovered(drift: readonly DriftRow[], config: { evmChains: { chainId: string }[] }): DriftRow[] {
  const configured = new Set(config.evmChains.map((c) => c.chainId));
  return drift.filter((d) => d.kind === 'new_chain' && !configured.has(d.path));
}
