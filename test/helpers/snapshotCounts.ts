import { STREAMS } from '../../activities/streams/catalog.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { truthClient, type TruthSource } from './truthTables.ts';

/**
 * Rows each snapshot-replace partition's own table gets from the API now (the native balance that
 * the ERC lists carry aside), by partition id: taken before and after the world grows, they show
 * which snapshots became empty.
 */
export async function snapshotRowCounts(sim: TruthSource, partitions: readonly PartitionSpec[]): Promise<Map<string, number>> {
  const client = truthClient(sim);
  const counts = new Map<string, number>();
  for (const p of partitions) {
    const stream = STREAMS[p.stream];
    if (stream.mode !== 'snapshot-replace') continue;
    let n = 0;
    let pageToken: string | null = null;
    do {
      const page = await stream.fetch(client, p, { pageToken, pageSize: 100 });
      n += (page.rows({ partition: p, snapshotAt: 0, runId: 'count' })[stream.tables[0].name] ?? []).length;
      pageToken = page.nextPageToken ?? null;
    } while (pageToken);
    counts.set(p.id, n);
  }
  return counts;
}

/** Partitions with rows in `before` and none in `after`. */
export function emptiedBetween(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...before].filter(([id, n]) => n > 0 && after.get(id) === 0).map(([id]) => id);
}
