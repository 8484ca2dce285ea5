import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRetention } from '../../activities/warehouse/retention.ts';
import { openWarehouse, recordRunCost, type Warehouse } from '../../activities/warehouse/warehouse.ts';

/** Retention deletes run records older than warehouse.runRecordsDays and nothing else. */

let dir: string;
let warehouse: Warehouse;

const run = (runId: string) => recordRunCost(warehouse, `p-${runId}`, 'evm.blocks', { runId, mode: 'sync', snapshotAt: 1, pages: 1, rows: 1, done: true });
const runIds = async () => (await warehouse.query('SELECT run_id FROM _glacier_sync_runs ORDER BY run_id')).map((r) => String(r.run_id));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-retention-'));
  warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'));
  for (const id of ['a-old', 'b-edge', 'c-new']) await run(id);
  await warehouse.withWriter(async (w) => {
    await w.run(`UPDATE _glacier_sync_runs SET updated_at = now() - INTERVAL 120 DAY WHERE run_id = 'a-old'`);
    await w.run(`UPDATE _glacier_sync_runs SET updated_at = now() - INTERVAL 89 DAY WHERE run_id = 'b-edge'`);
  });
});

afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('run record retention', () => {
  it('keeps everything at 0 days, and leaves the file checkpointed (no WAL)', async () => {
    expect(warehouse.walBytes()).toBeGreaterThan(0);
    expect(await applyRetention(warehouse, { runRecordsDays: 0 })).toEqual({ runRecords: 0 });
    expect(warehouse.walBytes()).toBe(0);
    expect(await runIds()).toEqual(['a-old', 'b-edge', 'c-new']);
  });

  it('deletes only the records older than the setting', async () => {
    expect(await applyRetention(warehouse, { runRecordsDays: 90 })).toEqual({ runRecords: 1 });
    expect(await runIds()).toEqual(['b-edge', 'c-new']);
    expect(await applyRetention(warehouse, { runRecordsDays: 30 })).toEqual({ runRecords: 1 });
    expect(await runIds()).toEqual(['c-new']);
  });
});
