import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import { openWarehouse, rowsToColumns } from '../../activities/warehouse/index.ts';
import type { CellValue, Row, TableDef } from '../../activities/warehouse/tableDef.ts';

/**
 * Rows committed since the last checkpoint hold a buffer block per column of every table they
 * touched, so a night that writes every table needs more buffer to checkpoint than the 64MB sync
 * limit: DuckDB's own checkpoint at a commit failed FATAL there, and the reopened file failed the same
 * way at the next commit (the nights stalled). The warehouse checkpoints itself first, with room.
 */

const ROWS = 150;
const value = (type: string, i: number, round: number): CellValue => {
  switch (type) {
    case 'VARCHAR':
    case 'JSON':
      return type === 'JSON' ? `{"i":${i}}` : `v${i}-${round}`;
    case 'VARCHAR[]':
      return [`a${i}`, `b${round}`];
    case 'BOOLEAN':
      return i % 2 === 0;
    case 'DOUBLE':
      return i + 0.5;
    case 'INTEGER':
      return i;
    default:
      return BigInt(1_700_000_000 + i * 3_600 + round);
  }
};
/** Every column filled (valid_to aside); keys overlap the previous round by half (so merges delete stored rows too). */
const rowsOf = (def: TableDef, round: number): Row[] =>
  Array.from({ length: ROWS }, (_, k) => {
    const i = round * (ROWS / 2) + k;
    // valid_to of a versioned table is the merge's own (a page never carries it): left NULL as a page leaves it.
    return Object.fromEntries(def.columns.map((c) => [c.name, c.name === 'valid_to' ? null : value(c.type, i, def.primaryKey.includes(c.name) ? 0 : round)]));
  });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-checkpoint-room-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkpoints under the 64MB sync limit', () => {
  it('commits nights that write every table, checkpointing with room, and reopens the file with every row', async () => {
    const path = join(dir, 'warehouse.duckdb');
    const tables = allTables().filter((t) => !t.scd2);
    let wh = await openWarehouse(path, { memoryLimit: '64MB' });
    // 60 rounds: the old code (DuckDB checkpointing at its threshold under 64MB) failed FATAL on its second checkpoint here.
    const rounds = 60;
    try {
      for (let round = 0; round < rounds; round++) {
        // One commit per table, as a night's partitions commit their pages.
        for (const t of tables) await wh.commitBatch([rowsToColumns(t, rowsOf(t, round))], { partitionId: t.name, stream: 'evm.blocks', pageToken: null, cursor: { round }, rows: round, pages: round, complete: true });
      }
      expect(wh.reopened).toBe(0);
      expect(wh.checkpointed).toBeGreaterThan(0);
    } finally {
      await wh.close();
    }
    wh = await openWarehouse(path, { memoryLimit: '64MB' });
    try {
      for (const t of tables) {
        const [row] = await wh.query(`SELECT count(*) AS n FROM ${t.name}`);
        expect(Number(row.n), t.name).toBe((t.pruneBy ? 2 * rounds : rounds + 1) * (ROWS / 2));
      }
    } finally {
      await wh.close();
    }
    // 60 rounds of every table: about 75 s on a quiet 2-core machine, 165-185 s beside other jobs (DuckDB 1.5.5 and 1.5.6 alike).
  }, 600_000);
});
