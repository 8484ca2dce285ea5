import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { applySchema } from '../../activities/warehouse/applySchema.ts';
import { loadReportData } from '../../activities/report/reportData.ts';

/** CU per run and stream: what the runs recorded (retries and 429s included), summed per run and stream. */
describe('report data: compute units', () => {
  it('sums the recorded cu of every partition of a run per stream', async () => {
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    await applySchema(db);
    await db.run(`INSERT INTO _glacier_sync_runs (run_id, partition_id, stream, mode, snapshot_at, started_at, updated_at, pages, rows, done, cu)
                  VALUES ('r1', 'evm.blocks/1', 'evm.blocks', 'backfill', 0, now(), now(), 3, 30, true, 30),
                         ('r1', 'evm.blocks/2', 'evm.blocks', 'backfill', 0, now(), now(), 1, 10, true, 20),
                         ('r1', 'pn.utxos/x', 'pn.utxos', 'backfill', 0, now(), now(), 2, 5, true, 200)`);
    const query = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
    const data = await loadReportData(query, { source: 'test' });
    expect(data.cu).toEqual([
      { run_id: 'r1', stream: 'evm.blocks', pages: 4, cu: 50 },
      { run_id: 'r1', stream: 'pn.utxos', pages: 2, cu: 200 },
    ]);
    db.closeSync();
  });
});
