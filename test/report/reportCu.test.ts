import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { applySchema } from '../../activities/warehouse/applySchema.ts';
import { loadReportData } from '../../activities/report/reportData.ts';
import { STREAMS } from '../../activities/streams/catalog.ts';

/** CU per run and stream: derived from pages x weight today, read from a `cu` column once runs record it. */
describe('report data: compute units', () => {
  it('derives CU from pages x weight, and uses a recorded cu column when the run table has one', async () => {
    const db = await (await DuckDBInstance.create(':memory:')).connect();
    await applySchema(db);
    await db.run(`INSERT INTO _glacier_sync_runs VALUES ('r1', 'evm.blocks/1', 'evm.blocks', 'backfill', 0, now(), now(), 3, 30, true),
                                                        ('r1', 'pn.utxos/x', 'pn.utxos', 'backfill', 0, now(), now(), 2, 5, true)`);
    const query = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
    const derived = await loadReportData(query, { source: 'test' });
    expect(derived.cuSource).toBe('derived');
    expect(derived.cu).toEqual([
      { run_id: 'r1', stream: 'evm.blocks', pages: 3, cu: 3 * STREAMS['evm.blocks'].weight },
      { run_id: 'r1', stream: 'pn.utxos', pages: 2, cu: 2 * STREAMS['pn.utxos'].weight },
    ]);
    await db.run('ALTER TABLE _glacier_sync_runs ADD COLUMN cu BIGINT DEFAULT 7');
    const recorded = await loadReportData(query, { source: 'test' });
    expect(recorded.cuSource).toBe('recorded');
    expect(recorded.cu.map((c) => c.cu)).toEqual([7, 7]);
    db.closeSync();
  });
});
