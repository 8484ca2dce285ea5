import type { ExportSummary, StorageVersions, VerifyFinding } from '../activities/ports.ts';
import type { CheckpointView } from '../activities/sync/types.ts';
import type { StreamCost } from '../activities/sync/streamCosts.ts';
import type { ShardHoldings } from '../activities/shards/shardLedger.ts';
import type { StreamName } from '../common/streamNames.ts';
import { patched, workflowInfo } from '@temporalio/workflow';
import { STORAGE_VERSIONS_PATCH } from './patches.ts';
import { isStartTimeout, shardActivities } from './shardRouter.ts';

/**
 * `status`, `verify` and `export` over every shard (sharded layout): one workflow on the shared
 * queue asks each shard on its own queue, in parallel, and combines. A shard whose worker does not
 * take the question within `ANSWER_WITHIN` is reported as not answering instead of holding up the rest.
 */
const ANSWER_WITHIN = '20 seconds';

export type ShardAnswer<T> = { shard: string; answered: true; value: T } | { shard: string; answered: false; reason: string };

async function askEach<T>(shards: string[], ask: (acts: ReturnType<typeof shardActivities>) => Promise<T>): Promise<ShardAnswer<T>[]> {
  const { taskQueue } = workflowInfo();
  return Promise.all(
    shards.map(async (shard): Promise<ShardAnswer<T>> => {
      try {
        return { shard, answered: true, value: await ask(shardActivities(taskQueue, shard, ANSWER_WITHIN)) };
      } catch (error) {
        const reason = isStartTimeout(error) ? `no worker of shard ${shard} answered within ${ANSWER_WITHIN} (down?)` : rootMessage(error);
        return { shard, answered: false, reason };
      }
    }),
  );
}

function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

export interface ShardStatus {
  checkpoints: CheckpointView[];
  costs: StreamCost[];
  storage?: StorageVersions;
}

/** Each shard's checkpoints, CU accounting and (since 0.2.0, patched) stored data's versions, for `status`. */
export async function shardedStatusWorkflow(input: { shards: string[] }): Promise<ShardAnswer<ShardStatus>[]> {
  const withVersions = patched(STORAGE_VERSIONS_PATCH);
  return askEach(input.shards, async (acts) => {
    const checkpoints = await acts.listCheckpoints();
    const costs = await acts.streamCosts();
    return withVersions ? { checkpoints, costs, storage: await acts.storageVersions() } : { checkpoints, costs };
  });
}

/** Every shard exports its own files into the one lake. */
export async function shardedExportWorkflow(input: { shards: string[]; tables?: string[]; full?: boolean }): Promise<ShardAnswer<ExportSummary>[]> {
  return askEach(input.shards, (acts) => acts.exportParquet({ tables: input.tables, ...(input.full ? { full: true } : {}) }));
}

/**
 * `verify` over all shards: each shard's own checks (prefixed with its name), then what only the
 * union can tell: every configured partition synced on some shard, no partition and no placement
 * group on two shards. A shard that does not answer is a problem: its share cannot be verified.
 */
export async function shardedVerifyWorkflow(input: { shards: string[]; streams?: StreamName[]; mode?: 'full' | 'changed' }): Promise<VerifyFinding[]> {
  const answers = await askEach(input.shards, async (acts) => ({ findings: await acts.verify({ streams: input.streams, scope: 'shard', ...(input.mode ? { mode: input.mode } : {}) }), holdings: await acts.shardHoldings() }));
  const findings: VerifyFinding[] = [];
  const holdings: ShardHoldings[] = [];
  for (const a of answers) {
    if (!a.answered) {
      findings.push({ check: `shard ${a.shard}: answers`, ok: false, detail: a.reason });
      continue;
    }
    holdings.push(a.value.holdings);
    for (const f of a.value.findings) findings.push({ ...f, check: `[shard ${a.shard}] ${f.check}` });
  }
  const up = answers.find((a) => a.answered);
  if (!up) return findings;
  const { taskQueue } = workflowInfo();
  const planned = await shardActivities(taskQueue, up.shard, ANSWER_WITHIN).planPartitions({ streams: input.streams });
  const where = new Map<string, string[]>();
  for (const h of holdings) for (const p of h.partitions) where.set(p, [...(where.get(p) ?? []), h.shard]);
  const everyShardAnswered = holdings.length === input.shards.length;
  const missing = planned.filter((p) => !where.has(p.id));
  findings.push({
    check: 'partitions: every configured partition synced (all shards)',
    ok: missing.length === 0 && everyShardAnswered,
    detail: missing.length
      ? `never synced on any shard that answered: ${missing.map((p) => p.id).join(', ')}`
      : `all ${planned.length} configured partitions have a checkpoint on a shard${everyShardAnswered ? '' : ' (not every shard answered)'}`,
  });
  const twice = [...where].filter(([, shards]) => shards.length > 1);
  findings.push({
    check: 'partitions: each on one shard',
    ok: twice.length === 0,
    detail: twice.length ? `on several shards: ${twice.map(([p, s]) => `${p} (${s.join(', ')})`).join('; ')}` : `${where.size} partitions, each on one shard`,
  });
  const groups = new Map<string, string[]>();
  for (const h of holdings) for (const g of h.groups) groups.set(g, [...(groups.get(g) ?? []), h.shard]);
  const split = [...groups].filter(([, shards]) => shards.length > 1);
  findings.push({
    check: 'placement groups: each on one shard',
    ok: split.length === 0,
    detail: split.length
      ? `split: ${split.map(([g, s]) => `${g} (${s.join(', ')})`).join('; ')}`
      : [...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([g, [s]]) => `${g} on ${s}`).join(', ') || 'no groups held yet',
  });
  return findings;
}
