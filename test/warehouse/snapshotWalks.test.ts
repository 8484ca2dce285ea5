import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAMS } from '../../activities/streams/catalog.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { createVerifier } from '../../activities/verify/verifier.ts';
import { configForWorld } from '../../cli/demoConfig.ts';
import { startSimulator } from '../../tools/simulator/index.ts';
import { resolveConfig } from '../../worker/config.ts';
import { createLogger } from '../../worker/logger.ts';
import type { StreamName } from '../../common/streamNames.ts';
import { compareWithTruth, truthClient } from '../helpers/truthTables.ts';
import { drain, startHarness, type Harness } from './harness.ts';

/**
 * Snapshot-replace streams record every finished walk, empty ones included, and the *_latest views
 * read the last finished walk: a balance, token, atomic-memory entry or pending reward that was there
 * at the backfill and is gone after the world grows reads as gone, and `verify` stays green. The
 * emptied scopes are found on a twin simulator (same seed, grown the same steps), so the test keeps
 * finding real cases if the world generator changes.
 */

const SEED = 7;
const STEPS = 25;
const SNAPSHOT_STREAMS: StreamName[] = ['evm.native_balances', 'evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances', 'metrics.holders', 'pn.balances', 'pn.pending_rewards'];
const STREAMS_SYNCED: StreamName[] = [...SNAPSHOT_STREAMS, 'pn.utxos'];

/** Rows of a partition's own table (not the native balance the ERC lists carry) as the API answers now. */
async function truthRows(sim: Awaited<ReturnType<typeof startSimulator>>, p: PartitionSpec): Promise<number> {
  const stream = STREAMS[p.stream];
  const client = truthClient(sim);
  let n = 0;
  let pageToken: string | null = null;
  do {
    const page = await stream.fetch(client, p, { pageToken, pageSize: 100 });
    n += (page.rows({ partition: p, snapshotAt: 0, runId: 'probe' })[stream.tables[0].name] ?? []).length;
    pageToken = page.nextPageToken ?? null;
  } while (pageToken);
  return n;
}

interface Emptied {
  erc: Map<StreamName, PartitionSpec>;
  pnAddress: string;
  pnChain: string;
  nodeId: string;
}

/** Scopes (one address, one address set, one node id) with rows now and none after STEPS steps. */
async function findEmptied(): Promise<Emptied> {
  const twin = await startSimulator({ seed: SEED, size: 'tiny' });
  try {
    const world = configForWorld(twin.world.describe(), { baseUrl: twin.baseUrl, metricsUrl: twin.metricsUrl, dataDir: '/unused', addressesPerChain: 40 });
    const config = resolveConfig(world, {});
    const net = config.networks[0];
    const candidates: PartitionSpec[] = [
      ...(['evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances'] as const).flatMap((s) => STREAMS[s].partitions(config)),
      ...net.addresses.flatMap((a) =>
        net.chains.map((c): PartitionSpec => ({ stream: 'pn.balances', id: `pn.balances/${c}/${a}`, params: { network: net.network, blockchainId: c, addresses: [a] } })),
      ),
      ...net.nodeIds.map((id): PartitionSpec => ({ stream: 'pn.pending_rewards', id: `pn.pending_rewards/${id}`, params: { network: net.network, nodeIds: [id] } })),
    ];
    const before = await Promise.all(candidates.map((p) => truthRows(twin, p)));
    twin.advance(STEPS);
    const after = await Promise.all(candidates.map((p) => truthRows(twin, p)));
    const emptied = candidates.filter((_, i) => before[i] > 0 && after[i] === 0);
    const first = (s: StreamName) => emptied.find((p) => p.stream === s);
    const erc = new Map<StreamName, PartitionSpec>();
    for (const s of ['evm.erc20_balances', 'evm.erc721_balances', 'evm.erc1155_balances'] as const) if (first(s)) erc.set(s, first(s)!);
    const pn = first('pn.balances');
    const rewards = first('pn.pending_rewards');
    if (!erc.has('evm.erc20_balances') || !pn || !rewards) throw new Error(`the tiny world (seed ${SEED}) empties too little in ${STEPS} steps: ${emptied.map((p) => p.id).join(', ')}`);
    return { erc, pnAddress: (pn.params.addresses as string[])[0], pnChain: String(pn.params.blockchainId), nodeId: (rewards.params.nodeIds as string[])[0] };
  } finally {
    await twin.close();
  }
}

let h: Harness;
let emptied: Emptied;
let partitions: PartitionSpec[];
const S1 = Math.floor(Date.now() / 1000);
const S2 = S1 + 60;

const rowsOf = async (sql: string, params: unknown[] = []) => h.warehouse.query(sql, params as never);
const countOf = async (sql: string, params: unknown[] = []) => Number((await rowsOf(sql, params))[0].n);

async function syncAll(runId: string, snapshotAt: number): Promise<void> {
  for (const p of partitions) await drain(h.core, p, { runId, snapshotAt, maxPages: 2 });
}

beforeAll(async () => {
  emptied = await findEmptied();
  h = await startHarness({
    sim: { seed: SEED, size: 'tiny' },
    config: (sim) => {
      const world = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: '/unused' });
      const byChain = new Map<string, string[]>();
      for (const p of emptied.erc.values()) byChain.set(String(p.params.chainId), [...new Set([...(byChain.get(String(p.params.chainId)) ?? []), String(p.params.address)])]);
      return {
        streams: STREAMS_SYNCED,
        networks: [{ network: 'mainnet', chains: ['p-chain', 'x-chain', 'c-chain'], addresses: [emptied.pnAddress], nodeIds: [emptied.nodeId] }],
        evmChains: world.evmChains
          .filter((c) => byChain.has(c.chainId))
          // Two more addresses per chain: the native-balance walk then spans pages (the half-walk test).
          .map((c) => ({ chainId: c.chainId, addresses: [...new Set([...byChain.get(c.chainId)!, ...c.addresses.slice(0, 2)])], contracts: c.contracts })),
      };
    },
  });
  partitions = await h.core.planPartitions({});
  await syncAll('backfill', S1);
  h.sim.advance(STEPS);
  await syncAll('sync', S2);
}, 300_000);

afterAll(async () => {
  await h?.close();
});

const verify = () =>
  createVerifier({ warehouse: h.warehouse, client: truthClient(h.sim), config: h.config, logger: createLogger({ level: 'silent' }), planPartitions: (input) => h.core.planPartitions(input) }).verify({});

describe('snapshot walks: the latest snapshot is the last finished walk, empty ones included', () => {
  it('records every finished walk with its row count, empty walks too', async () => {
    const walks = await rowsOf('SELECT stream, partition_id, snapshot_at, rows FROM _glacier_snapshot_walks ORDER BY ALL');
    const snapshotPartitions = partitions.filter((p) => STREAMS[p.stream].mode === 'snapshot-replace');
    expect(walks.length).toBe(snapshotPartitions.length * 2);
    for (const p of snapshotPartitions) expect(walks.filter((w) => w.partition_id === p.id).map((w) => Number(w.snapshot_at)), p.id).toEqual([S1, S2]);
    const erc20 = emptied.erc.get('evm.erc20_balances')!;
    // The emptied ERC-20 walk wrote only its native balance row.
    expect(walks.find((w) => w.partition_id === erc20.id && Number(w.snapshot_at) === S2)!.rows).toBe(1n);
  });

  it('ERC balances: tokens held at the backfill and sold off by the sync are gone from the latest views', async () => {
    expect(emptied.erc.size).toBeGreaterThanOrEqual(2);
    for (const [stream, p] of emptied.erc) {
      const table = STREAMS[stream].tables[0].name;
      const args = [String(p.params.chainId), String(p.params.address)];
      expect(await countOf(`SELECT count(*) AS n FROM ${table} WHERE chain_id = $1 AND address = $2 AND snapshot_at = ${S1}`, args), `${stream} backfill`).toBeGreaterThan(0);
      expect(await countOf(`SELECT count(*) AS n FROM v_${table}_latest WHERE chain_id = $1 AND address = $2`, args), `${stream} latest`).toBe(0);
    }
  });

  it('native balances: the latest view reads the sync snapshot for every address (the API always answers a value)', async () => {
    // Versions: each row holds from its snapshot_at (S1 for a balance that did not change) and is still open.
    const stale = await rowsOf(`SELECT chain_id, address FROM v_evm_native_balances_latest WHERE snapshot_at > ${S2} OR valid_to IS NOT NULL`);
    expect(stale).toEqual([]);
    expect(await countOf('SELECT count(*) AS n FROM v_evm_native_balances_latest')).toBe(await countOf(`SELECT count(DISTINCT (chain_id, address)) AS n FROM evm_native_balances`));
  });

  it('pn balances: an address set whose balances all went away has no rows in v_pn_balances_latest', async () => {
    const args = [emptied.pnChain, emptied.pnAddress];
    expect(await countOf(`SELECT count(*) AS n FROM pn_balances WHERE blockchain_id = $1 AND address_set = $2 AND snapshot_at = ${S1}`, args)).toBeGreaterThan(0);
    expect(await countOf('SELECT count(*) AS n FROM v_pn_balances_latest WHERE blockchain_id = $1 AND address_set = $2', args)).toBe(0);
    const [walk] = await rowsOf('SELECT snapshot_at FROM v_pn_balances_latest_walks WHERE blockchain_id = $1 AND address_set = $2', args);
    expect(Number(walk.snapshot_at)).toBe(S2);
  });

  it('pending rewards: rewards of a node id that were pending at the backfill and ended by the sync are gone', async () => {
    expect(await countOf(`SELECT count(*) AS n FROM pn_pending_rewards WHERE node_id = $1 AND snapshot_at = ${S1}`, [emptied.nodeId])).toBeGreaterThan(0);
    expect(await countOf('SELECT count(*) AS n FROM v_pn_pending_rewards_latest WHERE node_id = $1', [emptied.nodeId])).toBe(0);
  });

  it('every latest view equals the API at the sync (holders included), and verify is green', async () => {
    const compared = await compareWithTruth(h.sim, h.warehouse, partitions, { snapshotAt: S2, latest: true });
    expect(compared.map((c) => c.table).sort()).toEqual(
      ['v_evm_erc1155_balances_latest', 'v_evm_erc20_balances_latest', 'v_evm_erc721_balances_latest', 'v_evm_native_balances_latest', 'v_metrics_holders_latest', 'v_pn_balances_latest', 'v_pn_pending_rewards_latest'].sort(),
    );
    const bad = compared.filter((c) => c.lost || c.duplicated);
    expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
    expect(compared.find((c) => c.table === 'v_metrics_holders_latest')!.expected).toBeGreaterThan(0);
    const findings = await verify();
    expect(findings.filter((f) => !f.ok), JSON.stringify(findings, null, 1)).toEqual([]);
    expect(findings.some((f) => f.check.startsWith('pn_balances equal'))).toBe(true);
  });

  it('a walk that stopped half-way never becomes latest; the next finished walk does', async () => {
    // valid_to aside: a half-way walk that saw a value change closes its version at S3, after the latest walk.
    const latestNative = () => rowsOf('SELECT * EXCLUDE (valid_to) FROM v_evm_native_balances_latest ORDER BY ALL');
    const before = await latestNative();
    const S3 = S2 + 60;
    h.sim.advance(5);
    // The native-balance walks (one page per address) stop after their first page: a crash, a run that failed.
    const native = partitions.filter((p) => p.stream === 'evm.native_balances');
    for (const p of native) expect((await h.core.syncBatch({ partition: p, maxPages: 1, mode: 'sync', runId: 'crashed', snapshotAt: S3 })).done, p.id).toBe(false);
    // Their first pages are stored at S3 (the balances that changed open versions there), unfinished: no walk is recorded and the latest view does not move.
    expect(await countOf(`SELECT count(*) AS n FROM _glacier_walk_keys WHERE snapshot_at = ${S3}`)).toBe(native.length);
    expect(await countOf(`SELECT count(*) AS n FROM _glacier_snapshot_walks WHERE snapshot_at = ${S3}`)).toBe(0);
    expect(await latestNative()).toEqual(before);
    // The next run abandons that walk and finishes its own: latest is that run, equal to the API.
    const S4 = S3 + 60;
    await syncAll('next', S4);
    const compared = await compareWithTruth(h.sim, h.warehouse, partitions, { snapshotAt: S4, latest: true });
    expect(compared.filter((c) => c.lost || c.duplicated)).toEqual([]);
    expect(await countOf(`SELECT count(*) AS n FROM v_evm_native_balances_latest WHERE snapshot_at > ${S4} OR valid_to IS NOT NULL`)).toBe(0);
    expect(await countOf('SELECT count(*) AS n FROM _glacier_walk_keys')).toBe(0);
    expect(await countOf(`SELECT count(*) AS n FROM _glacier_snapshot_walks WHERE run_id = 'crashed'`)).toBe(0);
  });

  it('verify flags a finished walk whose record is missing', async () => {
    const check = 'snapshot walks: every finished walk is recorded (latest views read it)';
    expect((await verify()).find((f) => f.check === check)).toMatchObject({ ok: true });
    const erc20 = emptied.erc.get('evm.erc20_balances')!;
    await h.warehouse.withWriter((c) => c.run(`DELETE FROM _glacier_snapshot_walks WHERE partition_id = '${erc20.id}' AND snapshot_at = (SELECT max(snapshot_at) FROM _glacier_snapshot_walks)`));
    const finding = (await verify()).find((f) => f.check === check)!;
    expect(finding.ok).toBe(false);
    expect(finding.detail).toContain(erc20.id);
  });
});
