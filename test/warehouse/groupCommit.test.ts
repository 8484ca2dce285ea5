import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMIT_MAX_CELLS, takeGroup } from '../../activities/warehouse/commitGroup.ts';
import { concatUnique, openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';
import type { RunCost, RunRecord } from '../../activities/warehouse/warehouse.ts';
import { tableByName } from '../../activities/streams/catalog.ts';
import type { TableDef } from '../../activities/warehouse/tableDef.ts';
import type { StreamName } from '../../common/streamNames.ts';

const blocks = tableByName('evm_blocks')!;
const block = (n: number, hash = `0x${n.toString(16)}`) => ({ chain_id: '43114', block_number: BigInt(n), block_hash: hash, block_timestamp: 1_700_000_000n + BigInt(n) });
const batch = (rows: ReturnType<typeof block>[], table: TableDef = blocks) => ({ tables: [rowsToColumns(table, rows)] });
const checkpoint = (partitionId: string, rows: number) => ({ partitionId, stream: 'evm.blocks' as StreamName, pageToken: `t-${rows}`, cursor: { n: rows }, rows, pages: 1, complete: false });

describe('takeGroup / concatUnique', () => {
  it('takes waiting batches in order up to the cell limit, always at least one', () => {
    const big = { tables: [{ table: blocks, columns: [], rows: Math.ceil(COMMIT_MAX_CELLS / blocks.columns.length) }] };
    const small = batch([block(1)]);
    const waiting = [small, small, big, small];
    expect(takeGroup(waiting)).toHaveLength(2);
    expect(takeGroup(waiting)).toEqual([big]);
    expect(takeGroup(waiting)).toEqual([small]);
    expect(takeGroup(waiting)).toEqual([]);
  });

  it('keeps an SCD2 table to one batch per group', () => {
    const history = tableByName('pn_validator_status_history')!;
    expect(history.merge).toBe('scd2');
    const member = { tables: [{ table: history, columns: [], rows: 3 }] };
    const waiting = [member, batch([block(1)]), member];
    expect(takeGroup(waiting)).toHaveLength(2);
    expect(waiting).toEqual([member]);
  });

  it('keeps a versioned table to one snapshot per group (many walks of one snapshot share it)', () => {
    const native = tableByName('evm_native_balances')!;
    expect(native.merge).toBe('versions');
    const at = (snapshot: number, address: string) => ({ tables: [rowsToColumns(native, [{ chain_id: '43114', address, snapshot_at: BigInt(snapshot), balance: '1' }])] });
    const waiting = [at(100, '0xa'), at(100, '0xb'), at(200, '0xa'), at(200, '0xc')];
    expect(takeGroup(waiting)).toHaveLength(2);
    expect(takeGroup(waiting)).toHaveLength(2);
    expect(waiting).toEqual([]);
  });

  it('concatenates in arrival order and keeps the later row of a repeated key', () => {
    const { columns, rows } = concatUnique(blocks, [rowsToColumns(blocks, [block(1, '0xold'), block(2)]), rowsToColumns(blocks, []), rowsToColumns(blocks, [block(3), block(1, '0xnew')])]);
    expect(rows).toBe(3);
    const hash = blocks.columns.findIndex((c) => c.name === 'block_hash');
    expect(columns[hash]).toEqual(['0x2', '0x3', '0xnew']);
  });

  it('dedupes within one batch too (a key repeated across its pages): last occurrence wins', () => {
    const { columns, rows } = concatUnique(blocks, [rowsToColumns(blocks, [block(1, '0xa'), block(2), block(1, '0xb')])]);
    expect(rows).toBe(2);
    expect(columns[blocks.columns.findIndex((c) => c.name === 'block_hash')]).toEqual(['0x2', '0xb']);
  });
});

describe('group commit', () => {
  let dir: string;
  let wh: Warehouse;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'glacier-group-'));
    wh = await openWarehouse(join(dir, 'w.duckdb'));
  });
  afterAll(async () => {
    await wh.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits concurrent batches together, each with its checkpoint, later rows winning', async () => {
    let commits = 0;
    wh.faultHook = (step) => {
      if (step === 'before-commit') commits++;
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => wh.commitBatch(batch([block(i), block(100, `0xv${i}`)]).tables, checkpoint(`p${i}`, i + 1))));
    wh.faultHook = undefined;
    expect(commits).toBeLessThan(8); // the first commits alone, the seven that waited share the next
    const rows = await wh.query('SELECT block_number, block_hash FROM evm_blocks ORDER BY block_number');
    expect(rows).toHaveLength(9);
    expect(rows.at(-1)).toEqual({ block_number: 100n, block_hash: '0xv7' });
    for (let i = 0; i < 8; i++) expect((await wh.readCheckpoint(`p${i}`))?.rows).toBe(i + 1);
    const stored = await wh.query("SELECT partition_id, rows FROM _glacier_checkpoints WHERE partition_id LIKE 'p%' ORDER BY partition_id");
    expect(stored.map((r) => Number(r.rows))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('holds no committed batch while the commit tasks of its group wait on the write queue', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const blocker = wh.withWriter(() => gate);
    // Made in a function of their own, so that only the warehouse can keep the batches alive.
    const submit = (from: number) => {
      const { tables } = batch([block(from), block(from + 1)]);
      return { ref: new WeakRef(tables[0].columns), done: wh.commitBatch(tables, checkpoint(`queued-${from}`, 2)) };
    };
    const first = submit(20);
    // Queued between the first batch's commit task and the others': they wait behind it after the
    // first task has committed every batch waiting then (one group).
    let later!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const held = wh.withWriter(
      () =>
        new Promise<void>((resolve) => {
          later = resolve;
          started(); // the first task, which committed every batch, has ended
        }),
    );
    const rest = [22, 24, 26, 28].map(submit);
    release();
    try {
      await Promise.all([blocker, first.done, ...rest.map((r) => r.done)]);
      await running;
      gc();
      expect(rest.map((r) => r.ref.deref() === undefined)).toEqual([true, true, true, true]);
    } finally {
      later();
      await held;
    }
  });

  it('a batch that fails the shared transaction fails alone; the others commit', async () => {
    const first = wh.commitBatch(batch([block(200)]).tables, checkpoint('q0', 1)); // occupies the writer
    const good = wh.commitBatch(batch([block(201)]).tables, checkpoint('q1', 1));
    // A NULL in a primary-key column: DuckDB refuses the whole INSERT.
    const bad = wh.commitBatch(batch([{ ...block(202), block_hash: null as never, chain_id: null as never }]).tables, checkpoint('q2', 1)).catch((e: unknown) => e);
    const alsoGood = wh.commitBatch(batch([block(203)]).tables, checkpoint('q3', 1));
    await expect(Promise.all([first, good, alsoGood])).resolves.toBeDefined();
    expect(String(await bad)).toMatch(/NOT NULL constraint failed/);
    const rows = await wh.query('SELECT block_number FROM evm_blocks WHERE block_number >= 200 ORDER BY 1');
    expect(rows.map((r) => Number(r.block_number))).toEqual([200, 201, 203]);
    expect(await wh.readCheckpoint('q2')).toBeUndefined();
    expect((await wh.readCheckpoint('q3'))?.pageToken).toBe('t-1');
  });

  it("writes each member's checkpoint, run record and walk as its own, NULLs included, when the group writes them in one statement per kind", async () => {
    // A null weight stands for a record that stored none (weight and page_limit are nullable columns).
    const cost = (requests: number, weight: number | null): RunCost => ({ requests, cu: requests * 2, rejected429: 0, items: requests * 3, weight: weight as number, pageLimit: weight === null ? null : 100, cutPages: 1, cutItems: 4 });
    const run = (rows: number, weight: number | null, done: boolean, fields?: [string, number, boolean][]): RunRecord => ({
      runId: 'r-group',
      mode: 'sync',
      snapshotAt: 1_700_000_000,
      pages: 1,
      rows,
      done,
      cost: cost(rows, weight),
      ...(fields ? { fields: new Map(fields.map(([path, items, always]) => [path, { items, always }])) } : {}),
    });
    const walk = (rows: number) => ({ snapshotAt: 1_700_000_000, runId: 'r-group', params: { address: `a${rows}` }, rows, pages: 1 });
    const commits: string[] = [];
    wh.faultHook = (step) => {
      if (step === 'before-commit') commits.push(step);
    };
    // Batches that reach the warehouse together commit together. The first value of each list is NULL
    // where it can be (page token, weight, page limit): the lists must keep the later values.
    await Promise.all([
      wh.commitBatch([], { ...checkpoint('g1', 10), pageToken: null, complete: true }, run(10, null, true, [['a', 10, true], ['b', 4, false]]), walk(10)),
      wh.commitBatch([], { ...checkpoint('g0', 1), pageToken: 'busy' }, run(1, 5, false)),
      wh.commitBatch(batch([block(300)]).tables, { ...checkpoint('g2', 20), cursor: { from: 'x', n: [1, 2] } }, run(20, 7, false, [['a', 20, true]])),
      wh.commitBatch([], { ...checkpoint('g3', 30), pageToken: null, complete: true }, run(30, 9, true), walk(30)),
    ]);
    // The same partition a second time in one group (a retried batch): its run record adds up.
    await Promise.all([wh.commitBatch([], checkpoint('g4', 1), run(1, 5, false)), wh.commitBatch([], checkpoint('g5', 2), run(2, 5, false, [['a', 2, true]])), wh.commitBatch([], checkpoint('g5', 3), run(3, 6, true, [['a', 5, false]]))]);
    wh.faultHook = undefined;
    expect(commits.length).toBeLessThan(4);
    const cps = await wh.query("SELECT partition_id, page_token, cursor::VARCHAR AS cursor, rows, complete FROM _glacier_checkpoints WHERE partition_id LIKE 'g%' ORDER BY 1");
    expect(cps.map((r) => [r.partition_id, r.page_token, JSON.parse(String(r.cursor)), Number(r.rows), r.complete])).toEqual([
      ['g0', 'busy', { n: 1 }, 1, false],
      ['g1', null, { n: 10 }, 10, true],
      ['g2', 't-20', { from: 'x', n: [1, 2] }, 20, false],
      ['g3', null, { n: 30 }, 30, true],
      ['g4', 't-1', { n: 1 }, 1, false],
      ['g5', 't-3', { n: 3 }, 3, false],
    ]);
    const runs = await wh.query("SELECT partition_id, pages, rows, done, requests, cu, items, weight, page_limit, cut_pages, cut_items FROM _glacier_sync_runs WHERE run_id = 'r-group' ORDER BY 1");
    expect(runs.map((r) => Object.values(r).map((v) => (typeof v === 'bigint' ? Number(v) : v)))).toEqual([
      ['g0', 1, 1, false, 1, 2, 3, 5, 100, 1, 4],
      ['g1', 1, 10, true, 10, 20, 30, null, null, 1, 4],
      ['g2', 1, 20, false, 20, 40, 60, 7, 100, 1, 4],
      ['g3', 1, 30, true, 30, 60, 90, 9, 100, 1, 4],
      ['g4', 1, 1, false, 1, 2, 3, 5, 100, 1, 4],
      ['g5', 2, 5, true, 5, 10, 15, 6, 100, 2, 8],
    ]);
    // Field records: each member's own, the later batch of a partition last.
    const fields = await wh.query("SELECT scope, path, items, always, first_run FROM _glacier_stream_fields WHERE scope LIKE 'g%' ORDER BY 1, 2");
    expect(fields.map((r) => [r.scope, r.path, Number(r.items), r.always, r.first_run])).toEqual([
      ['g1', 'a', 10, true, 'r-group'],
      ['g1', 'b', 4, false, 'r-group'],
      ['g2', 'a', 20, true, 'r-group'],
      ['g5', 'a', 5, false, 'r-group'],
    ]);
    const walks = await wh.query("SELECT partition_id, params::VARCHAR AS params, rows FROM _glacier_snapshot_walks WHERE run_id = 'r-group' ORDER BY 1");
    expect(walks.map((r) => [r.partition_id, JSON.parse(String(r.params)), Number(r.rows)])).toEqual([
      ['g1', { address: 'a10' }, 10],
      ['g3', { address: 'a30' }, 30],
    ]);
  });
});
