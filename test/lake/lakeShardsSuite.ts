import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LakeSettings } from '../../activities/lake/settings.ts';
import { openWarehouse } from '../../activities/warehouse/warehouse.ts';
import { createSyncCore } from '../../activities/sync/index.ts';
import { createLogger } from '../../worker/logger.ts';
import { differing, lakeDifferences, readLakeElsewhere } from '../helpers/lakeCompare.ts';
import { runNode } from '../helpers/runCli.ts';
import { runWaves, startHarness, type Harness } from '../warehouse/harness.ts';

/**
 * Shards: two workers, each with its own warehouse (one the EVM chain, one the primary network: the
 * placement groups of common/shards.ts), export into ONE lake at the same moment, from two processes:
 * the lake equals the union of their warehouses, row for row, after the build and after a night.
 * Commits that meet are retried, never lost; no per-shard file names. Run for a DuckLake with a SQLite
 * catalog (lakeShards.test.ts) and an Iceberg REST catalog read by pyiceberg (lakeShardsIceberg.test.ts).
 */
export interface LakeShardsOptions {
  read?: (lake: LakeSettings) => Promise<{ file: string; close: () => void }>;
}

export function lakeShardsSuite(name: string, lakeFor: (shared: string) => LakeSettings | Promise<LakeSettings>, options: LakeShardsOptions = {}): void {
  const read = options.read ?? ((l: LakeSettings) => readLakeElsewhere(l));
  const tsx = import.meta.resolve('tsx');
  const exporter = new URL('../helpers/lakeExporter.ts', import.meta.url).pathname;

  let shards: { name: string; h: Harness }[];

  /** Opens a shard's warehouse file again (a child process had it), with a sync core over it. */
  async function reopen(h: Harness, path: string): Promise<void> {
    h.warehouse = await openWarehouse(path);
    h.core = createSyncCore({ client: h.client, warehouse: h.warehouse, config: h.config, logger: createLogger({ level: 'silent' }) });
  }
  let lake: LakeSettings;
  let shared: string;

  async function exportAtOnce(): Promise<void> {
    const paths = shards.map((s) => s.h.warehouse.path);
    await Promise.all(shards.map((s) => s.h.warehouse.close()));
    try {
      const run = (i: number) => runNode(['--import', tsx, exporter, paths[i], JSON.stringify(lake), '', shards[i].name], { timeoutMs: 300_000 });
      const runs = await Promise.all(shards.map((_, i) => run(i)));
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const results = runs.map((r) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { attempts: number; repaired?: number });
      console.log(`shards ${shards.map((s) => s.name).join(', ')} exported at once: ${results.map((r) => r.attempts).join(' and ')} attempt(s), ${results.map((r) => r.repaired ?? 0).join(' and ')} row(s) repaired`);
    } finally {
      for (const [i, s] of shards.entries()) await reopen(s.h, paths[i]);
    }
  }

  async function expectLakeEqualsUnion(): Promise<void> {
    const [a, b] = shards.map((s) => s.h);
    const bPath = b.warehouse.path;
    await b.warehouse.close();
    const copy = await read(lake);
    try {
      const diff = await lakeDifferences(a.warehouse, copy.file, { others: [bPath], format: lake.format });
      expect(differing(diff)).toEqual({});
      // Each shard's rows are there: a table only one shard fills, and the table both fill.
      expect(diff.evm_blocks.rows).toBeGreaterThan(0);
      expect(diff.pn_transactions.rows).toBeGreaterThan(0);
      const [walks] = await a.warehouse.query(`SELECT count(*) AS n FROM _glacier_snapshot_walks`);
      expect(diff._glacier_snapshot_walks.rows).toBeGreaterThan(Number(walks.n));
    } finally {
      copy.close();
      await reopen(b, bPath);
    }
  }

  beforeAll(async () => {
    shared = mkdtempSync(join(tmpdir(), 'glacier-lake-shards-'));
    lake = await lakeFor(shared);
    const evm = await startHarness({
      sim: { size: 'tiny' },
      config: (sim) => {
        const w = sim.world.describe().evm as unknown as { chains: { chainId: string }[]; addresses: string[]; contracts: { chainId: string; address: string }[] };
        const chainId = w.chains[0].chainId;
        return { streams: ['evm.blocks', 'evm.transactions', 'evm.erc20_balances'], evmChains: [{ chainId, addresses: w.addresses.slice(0, 2), contracts: w.contracts.filter((c) => c.chainId === chainId).map((c) => c.address) }] };
      },
    });
    const pn = await startHarness({
      sim: { size: 'tiny' },
      config: (sim) => {
        const p = (sim.world.describe().primary as Record<string, { addresses: string[] }>).mainnet;
        return { streams: ['pn.transactions', 'pn.utxos', 'pn.balances'], networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], addresses: p.addresses.slice(0, 4) }] };
      },
    });
    shards = [
      { name: 'a', h: evm },
      { name: 'b', h: pn },
    ];
    for (const s of shards) await runWaves(s.h, 'backfill', 'b', 1);
  }, 600_000);

  afterAll(async () => {
    for (const s of shards ?? []) await s.h.close();
    rmSync(shared, { recursive: true, force: true });
  });

  describe(name, () => {
    it('two shard workers exporting at the same moment: the lake equals the union of their warehouses, after the build and after a night', async () => {
      await exportAtOnce();
      await expectLakeEqualsUnion();
      for (const s of shards) {
        s.h.sim.advance(60);
        await runWaves(s.h, 'sync', 'n1', 10);
      }
      await exportAtOnce();
      await expectLakeEqualsUnion();
    }, 900_000);
  });
}
