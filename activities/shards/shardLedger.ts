import { placementGroup } from '../../common/shards.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';
import { sqlFile } from '../warehouse/sqlFile.ts';
import { storedValidatorNodeIds } from '../streams/shared/storedValidators.ts';

/** What one shard holds: the placement groups of its checkpoints and claims, and its partitions. */
export interface ShardHoldings {
  shard: string;
  /** Placement groups (common/shards.ts) this shard holds, sorted. */
  groups: string[];
  /** Partitions with a checkpoint in this shard's warehouse, sorted. */
  partitions: string[];
}

/** The shard-side activities of the sharded layout: what it holds, claiming groups, what it discovered. */
export interface ShardPort {
  holdings(): Promise<ShardHoldings>;
  /** Records that these placement groups belong to this shard (idempotent). */
  claim(groups: string[], runId: string): Promise<void>;
  /** Validators' node ids stored here, per network (derived reward partitions are planned from all shards'). */
  validatorNodeIds(): Promise<Record<string, string[]>>;
}

/**
 * A shard's ledger is its own warehouse: the checkpoints say which partitions it walked, and
 * _glacier_shard_claims which groups it was given before their first commit. Both are durable in
 * the same file as the rows, so the answer survives any crash and every pipeline run.
 */
export function createShardLedger(warehouse: Warehouse, shard: string): ShardPort {
  return {
    async holdings() {
      const checkpoints = await warehouse.listCheckpoints();
      const claims = await warehouse.query('SELECT placement_group FROM _glacier_shard_claims');
      const groups = new Set(claims.map((c) => String(c.placement_group)));
      for (const c of checkpoints) groups.add(placementGroup(c.partitionId, c.stream));
      return { shard, groups: [...groups].sort(), partitions: checkpoints.map((c) => c.partitionId).sort() };
    },
    async claim(groups, runId) {
      if (groups.length === 0) return;
      await warehouse.withWriter(async (connection) => {
        await connection.run('BEGIN TRANSACTION');
        try {
          for (const group of groups) await connection.run(sqlFile('ops/claimPlacementGroup.sql'), [group, shard, runId]);
          await connection.run('COMMIT');
        } catch (error) {
          await connection.run('ROLLBACK');
          throw error;
        }
      });
    },
    validatorNodeIds: () => storedValidatorNodeIds(warehouse),
  };
}
