import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables, tableByName } from '../../activities/streams/catalog.ts';
import { rowsToColumns } from '../../activities/warehouse/columnBatch.ts';
import { exportLake } from '../../activities/lake/export.ts';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import { lakeOf } from '../../worker/paths.ts';
import { liveLakeFiles } from '../helpers/lakeCompare.ts';
import { applyRetention } from '../../activities/warehouse/retention.ts';
import { recordRunSize } from '../../activities/warehouse/runSizes.ts';
import { openWarehouse, type Warehouse } from '../../activities/warehouse/warehouse.ts';

/** The size record a pipeline run writes at its end (activities/warehouse/runSizes.ts), on a real DuckDB file and lake. */

let dir: string;
let lake: LakeSettings;
let warehouse: Warehouse;
const tables = allTables().map((t) => t.name);
let stored = 0;

const block = (n: number) => ({
  chain_id: '43114',
  block_number: BigInt(n),
  block_hash: `0x${n.toString(16).padStart(64, '0')}`,
  block_timestamp: BigInt(1_780_000_000 + n * 3_600),
  parent_hash: `0x${(n - 1).toString(16).padStart(64, '0')}`,
  tx_count: 0,
  gas_used: 8_000_000n,
  gas_limit: 15_000_000n,
  base_fee: '25000000000',
  base_fee_num: 25000000000n,
});

/** One run committing `count` new blocks in one batch, with its run record (pages 1, requests 1, 10 CU). */
async function commitRun(runId: string, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => block(stored + i));
  stored += count;
  await warehouse.commitBatch(
    [rowsToColumns(tableByName('evm_blocks')!, rows)],
    { partitionId: 'test/blocks', stream: 'evm.blocks', pageToken: null, cursor: { hwm: stored }, rows: stored, pages: 1, complete: true },
    { runId, mode: 'sync', snapshotAt: 1, pages: 1, rows: count, done: true, cost: { requests: 1, cu: 10, rejected429: 0, items: count, weight: 10, pageLimit: 100, cutPages: 0, cutItems: 0 } },
  );
}

const record = async (runId: string) => (await warehouse.query('SELECT *, CAST(table_rows AS VARCHAR) AS per_table FROM _glacier_run_sizes WHERE run_id = $1', [runId]))[0];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-runsizes-'));
  lake = lakeOf({ dataDir: dir });
  warehouse = await openWarehouse(join(dir, 'warehouse.duckdb'));
});

afterAll(async () => {
  await warehouse?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('run size records', () => {
  it('a run that did not export: exact rows per table, the file bytes, the run cost, no lake figures', async () => {
    await commitRun('pipeline-1/a', 30);
    const walBytes = () => {
      try {
        return statSync(`${warehouse.path}.wal`).size;
      } catch {
        return 0;
      }
    };
    // The bytes on disk when the sizes are measured (the record's own insert comes after).
    const before = statSync(warehouse.path).size + walBytes();
    const size = await recordRunSize(warehouse, { runId: 'pipeline-1/a', tables });
    const row = await record('pipeline-1/a');
    expect(row).toMatchObject({ mode: 'sync', partitions: 1n, pages: 1n, requests: 1n, cu: 10n, rows_written: 30n, rows_stored: 30n, lake_files: null, lake_bytes: null });
    const perTable = JSON.parse(String(row.per_table)) as Record<string, number>;
    expect(Object.keys(perTable).sort()).toEqual([...tables].sort());
    expect(perTable.evm_blocks).toBe(30);
    expect(Object.entries(perTable).filter(([t, n]) => t !== 'evm_blocks' && n !== 0)).toEqual([]);
    expect(before).toBeGreaterThan(0);
    expect(size.warehouse.bytes).toBe(before);
    expect(Number(row.warehouse_bytes)).toBe(before);
    expect(size.lake).toBeUndefined();
  });

  it('a run that exported: the lake’s live files and bytes (from its catalog); rows stored grow with the runs', async () => {
    await commitRun('pipeline-2/b', 20);
    await exportLake(warehouse, allTables(), lake);
    // A file of an export that died before its commit is in the data path but in no snapshot: not part of the lake.
    writeFileSync(join(dir, 'lake', 'data', 'half-written.parquet'), Buffer.alloc(100));
    const expected = await liveLakeFiles(lake);
    expect(expected.files).toBeGreaterThan(0);
    const size = await recordRunSize(warehouse, { runId: 'pipeline-2/b', tables });
    expect(size.lake).toEqual(expected);
    expect(await record('pipeline-2/b')).toMatchObject({ rows_written: 20n, rows_stored: 50n, lake_files: BigInt(expected.files), lake_bytes: BigInt(expected.bytes) });
    const [{ synced_at, recorded_at, started_at }] = await warehouse.query('SELECT epoch(synced_at) AS synced_at, epoch(recorded_at) AS recorded_at, epoch(started_at) AS started_at FROM _glacier_run_sizes WHERE run_id = $1', ['pipeline-2/b']);
    expect(Number(started_at)).toBeLessThanOrEqual(Number(synced_at));
    expect(Number(synced_at)).toBeLessThanOrEqual(Number(recorded_at));
  });

  it('a retried activity replaces its record; a run with no partitions still records the size', async () => {
    await recordRunSize(warehouse, { runId: 'pipeline-2/b', tables });
    expect(await warehouse.query('SELECT count(*)::INTEGER AS n FROM _glacier_run_sizes WHERE run_id = $1', ['pipeline-2/b'])).toEqual([{ n: 1 }]);
    await recordRunSize(warehouse, { runId: 'pipeline-3/empty', tables });
    expect(await record('pipeline-3/empty')).toMatchObject({ mode: null, partitions: 0n, cu: 0n, rows_written: 0n, rows_stored: 50n, lake_files: null });
  });

  it('outlives the run records: retention prunes _glacier_sync_runs, the size record keeps the run cost', async () => {
    await warehouse.withWriter((w) => w.run(`UPDATE _glacier_sync_runs SET updated_at = now() - INTERVAL 120 DAY WHERE run_id = 'pipeline-1/a'`));
    expect(await applyRetention(warehouse, { runRecordsDays: 90 })).toEqual({ runRecords: 1 });
    expect(await warehouse.query(`SELECT count(*)::INTEGER AS n FROM _glacier_sync_runs WHERE run_id = 'pipeline-1/a'`)).toEqual([{ n: 0 }]);
    expect(await record('pipeline-1/a')).toMatchObject({ cu: 10n, rows_written: 30n, rows_stored: 30n });
  });
});
