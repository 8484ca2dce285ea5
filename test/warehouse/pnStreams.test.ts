import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import { utxoBalanceFindings } from '../../activities/verify/utxoBalances.ts';
import { sqlFile } from '../../activities/warehouse/sqlFile.ts';
import { drain, drainAll, sorted, startHarness, truth, type Harness } from './harness.ts';
import { DEFAULT_STREAMS } from '../../activities/streams/catalog.ts';

/**
 * Every primary-network stream, from the real simulator over HTTP into a real DuckDB file through
 * syncBatch, compared with ground truth: keys row for row, amounts exactly.
 */

let h: Harness;
let addresses: string[];
let nodeIds: string[];
let partitions: PartitionSpec[];
let derived: PartitionSpec[];
const NET = 'mainnet';
const CHAINS = ['p-chain', 'x-chain', 'c-chain'];
const SNAPSHOT = 1_800_000_000;

const q = (sql: string, params: unknown[] = []) => h.warehouse.query(sql, params as never);
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

beforeAll(async () => {
  h = await startHarness({
    config: (sim) => {
      const p = (sim.world.describe().primary as Record<string, { addresses: string[]; nodeIds: string[] }>)[NET];
      addresses = [...p.addresses.slice(0, 3)].sort();
      nodeIds = p.nodeIds.slice(0, 2);
      return {
        streams: DEFAULT_STREAMS.filter((name) => name.startsWith('pn.')),
        networks: [{ network: NET, chains: CHAINS, addresses, nodeIds, rewardsForDiscoveredValidators: true }],
      };
    },
  });
  partitions = await drainAll(h, h.config.streams, { snapshotAt: SNAPSHOT });
  derived = await h.core.planPartitions({ discovered: true });
  for (const p of derived) await drain(h.core, p, { snapshotAt: SNAPSHOT });
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('primary-network streams against ground truth', () => {
  it('pn.transactions chain-wide: every transaction with its UTXOs and amounts', async () => {
    for (const chain of CHAINS) {
      const expected = await truth(h.sim, `/v1/networks/${NET}/blockchains/${chain}/transactions`);
      expect(expected.length, chain).toBeGreaterThan(0);
      const rows = await q('SELECT tx_hash, tx_type, consumed_utxo_count, emitted_utxo_count FROM pn_transactions WHERE network = $1 AND blockchain_id = $2', [NET, chain]);
      const byHash = new Map(rows.map((r) => [r.tx_hash, r]));
      for (const t of expected) {
        const r = byHash.get(t.txHash);
        expect(r, `${chain} ${String(t.txHash)}`).toBeDefined();
        expect(r!.tx_type).toBe(t.txType ?? null);
        expect(r!.consumed_utxo_count).toBe((t.consumedUtxos as unknown[] | undefined)?.length ?? null);
        expect(r!.emitted_utxo_count).toBe((t.emittedUtxos as unknown[] | undefined)?.length ?? null);
        const emitted = await q("SELECT utxo_id, amount::VARCHAR AS amount FROM pn_transaction_utxos WHERE network = $1 AND blockchain_id = $2 AND tx_hash = $3 AND direction = 'emitted' ORDER BY item_index", [
          NET,
          chain,
          t.txHash,
        ]);
        // X/C-chain UTXOs (generic shape) carry the amount only in asset.amount: it lands in the same column.
        expect(emitted.map((u) => `${String(u.utxo_id)}=${text(u.amount)}`)).toEqual(
          ((t.emittedUtxos as { utxoId: string; amount?: string; asset: { amount: string } }[] | undefined) ?? []).map((u) => `${u.utxoId}=${text(u.amount ?? u.asset.amount)}`),
        );
        const burned = await q("SELECT amount::VARCHAR AS amount FROM pn_transaction_amounts WHERE network = $1 AND blockchain_id = $2 AND tx_hash = $3 AND kind = 'amount_burned' ORDER BY item_index", [NET, chain, t.txHash]);
        expect(burned.map((a) => a.amount)).toEqual(((t.amountBurned as { amount: string }[] | undefined) ?? []).map((a) => text(a.amount)));
      }
      const [{ n }] = await q('SELECT count(*) AS n FROM pn_transactions WHERE network = $1 AND blockchain_id = $2', [NET, chain]);
      expect(Number(n)).toBeGreaterThanOrEqual(expected.length);
    }
  });

  it('X-chain transactions of both formats and C-chain atomic transactions land with their time, block and variant fields', async () => {
    const x = await q(
      "SELECT chain_format, count(*) AS n, count(block_timestamp) AS ts, count(block_number) AS bn, count(vertices) AS vs FROM pn_transactions WHERE network = $1 AND blockchain_id = 'x-chain' GROUP BY ALL ORDER BY 1",
      [NET],
    );
    expect(x.map((r) => r.chain_format)).toEqual(['linear', 'non-linear']);
    for (const r of x) expect(r.ts).toBe(r.n);
    const [linear, nonLinear] = x;
    expect([linear.bn, linear.vs]).toEqual([linear.n, 0n]);
    expect([nonLinear.bn, nonLinear.vs]).toEqual([0n, nonLinear.n]);
    const c = await q(
      "SELECT tx_type, count(*) AS n, count(block_number) AS bn, count(evm_inputs) AS ins, count(evm_outputs) AS outs FROM pn_transactions WHERE network = $1 AND blockchain_id = 'c-chain' GROUP BY ALL ORDER BY 1",
      [NET],
    );
    expect(c.map((r) => [r.tx_type, r.bn === r.n, Number(r.ins) > 0, Number(r.outs) > 0])).toEqual([
      ['ExportTx', true, true, false],
      ['ImportTx', true, false, true],
    ]);
    const [{ missing }] = await q(
      "SELECT count(*) AS missing FROM pn_utxos WHERE blockchain_id IN ('x-chain', 'c-chain') AND (amount IS NULL OR tx_hash IS NULL OR block_timestamp IS NULL OR output_index IS NULL OR asset_id IS NULL)",
    );
    expect(missing).toBe(0n);
  });

  it('pn.transactions per address set: the link table matches the address list', async () => {
    for (const chain of CHAINS) {
      const expected = await truth(h.sim, `/v1/networks/${NET}/blockchains/${chain}/transactions`, { addresses: addresses.join(','), startTimestamp: '0' });
      const rows = await q('SELECT tx_hash FROM pn_address_transactions WHERE network = $1 AND blockchain_id = $2', [NET, chain]);
      expect(sorted(rows.map((r) => r.tx_hash)), chain).toEqual(sorted([...new Set(expected.map((t) => t.txHash))]));
    }
  });

  it('pn.utxos: every UTXO of the addresses, spent ones with their consuming tx, amounts exact', async () => {
    for (const chain of CHAINS) {
      const expected = await truth(h.sim, `/v1/networks/${NET}/blockchains/${chain}/utxos`, { includeSpent: 'true' }, 'POST', { addresses: addresses.join(',') });
      const rows = await q('SELECT utxo_id, amount::VARCHAR AS amount, consuming_tx_hash, addresses FROM pn_utxos WHERE network = $1 AND blockchain_id = $2', [NET, chain]);
      expect(rows.length, chain).toBe(expected.length);
      const byId = new Map(rows.map((r) => [r.utxo_id, r]));
      for (const u of expected) {
        const r = byId.get(u.utxoId);
        expect(r, String(u.utxoId)).toBeDefined();
        expect(r!.amount).toBe(text(u.amount ?? (u.asset as { amount: string }).amount));
        expect(r!.consuming_tx_hash ?? null).toBe(u.consumingTxHash ?? null);
        expect(r!.addresses).toEqual(u.addresses ?? null);
      }
    }
    const [{ n }] = await q('SELECT count(*) AS n FROM pn_utxos');
    expect(Number(n)).toBeGreaterThan(0);
  });

  it('pn.balances: every balance entry per kind, amounts exact', async () => {
    for (const chain of CHAINS) {
      const [expected] = await truth(h.sim, `/v1/networks/${NET}/blockchains/${chain}/balances`, { addresses: addresses.join(',') });
      const balances = expected.balances as Record<string, { assetId: string; amount: string }[]>;
      const want = Object.entries(balances).flatMap(([kind, list]) => (Array.isArray(list) ? list.map((b) => `${kind}/${b.assetId}=${b.amount}`) : []));
      const rows = await q('SELECT kind, asset_id, amount::VARCHAR AS amount FROM pn_balances WHERE network = $1 AND blockchain_id = $2 AND snapshot_at = $3', [NET, chain, SNAPSHOT]);
      expect(sorted(rows.map((r) => `${String(r.kind)}/${String(r.asset_id)}=${String(r.amount)}`)), chain).toEqual(sorted(want));
    }
  });

  it("verify's UTXO/balance check holds on every chain, X and C included (their generic UTXOs carry amounts)", async () => {
    const rows = await q(sqlFile('verify/utxoBalances.sql'), [0n]);
    for (const chain of CHAINS) expect(rows.filter((r) => r.blockchain_id === chain && BigInt(String(r.balance)) > 0n).length, chain).toBeGreaterThan(0);
    expect(rows.filter((r) => String(r.balance) !== String(r.from_utxos))).toEqual([]);
    const [finding] = await utxoBalanceFindings(h.warehouse);
    expect(finding.ok, finding.detail).toBe(true);
  });

  it('pn.validators: every validation (every uptime), stake exact, per-status fields, status history opened', async () => {
    const expected = await truth(h.sim, `/v1/networks/${NET}/validators`, { minUptimePerformance: '0' });
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(expected.map((v) => v.validationStatus))).toEqual(new Set(['active', 'completed', 'pending', 'removed']));
    const rows = await q(
      `SELECT node_id, tx_hash, amount_staked::VARCHAR AS amount_staked, validation_status, delegation_capacity::VARCHAR AS capacity, avalanche_go_version,
         stake_percentage, geolocation::VARCHAR AS geolocation, validator_health::VARCHAR AS health, remove_tx_hash, delegator_count
       FROM pn_validators WHERE network = $1`,
      [NET],
    );
    const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
    expect(sorted(rows.map((r) => JSON.stringify([r.node_id, r.tx_hash, r.amount_staked, r.validation_status, r.capacity, r.avalanche_go_version, r.stake_percentage, r.geolocation, r.health, r.remove_tx_hash, r.delegator_count])))).toEqual(
      sorted(
        expected.map((v) =>
          JSON.stringify([
            v.nodeId, v.txHash ?? '', text(v.amountStaked), v.validationStatus, text(v.delegationCapacity), v.avalancheGoVersion ?? null, v.stakePercentage ?? null,
            json(v.geolocation), json(v.validatorHealth), v.removeTxHash ?? null, v.delegatorCount ?? null,
          ]),
        ),
      ),
    );
    const [{ n }] = await q('SELECT count(*) AS n FROM v_pn_validator_status_current WHERE network = $1', [NET]);
    expect(Number(n)).toBe(expected.length);
  });

  it('pn.rewards and pn.pending_rewards: configured node ids, addresses, and discovered validators', async () => {
    expect(derived.length).toBeGreaterThan(0);
    for (const p of [...partitions, ...derived].filter((x) => x.stream === 'pn.rewards' || x.stream === 'pn.pending_rewards')) {
      const query: Record<string, string> = p.params.nodeIds ? { nodeIds: (p.params.nodeIds as string[]).join(',') } : { addresses: (p.params.addresses as string[]).join(',') };
      if (p.stream === 'pn.rewards') {
        const expected = await truth(h.sim, `/v1/networks/${NET}/rewards`, query);
        for (const r of expected) {
          const rows = await q('SELECT reward_amount::VARCHAR AS amount FROM pn_rewards WHERE network = $1 AND tx_hash = $2 AND utxo_id = $3', [NET, r.txHash, r.utxoId ?? '']);
          expect(rows, String(r.txHash)).toHaveLength(1);
          expect(rows[0].amount).toBe(text((r.reward as { amount?: string } | undefined)?.amount));
        }
      } else {
        const expected = await truth(h.sim, `/v1/networks/${NET}/rewards:listPending`, query);
        for (const r of expected) {
          const rows = await q('SELECT estimated_reward_amount::VARCHAR AS amount FROM pn_pending_rewards WHERE network = $1 AND tx_hash = $2 AND reward_type = $3 AND snapshot_at = $4', [
            NET,
            r.txHash,
            r.rewardType ?? '',
            SNAPSHOT,
          ]);
          expect(rows, String(r.txHash)).toHaveLength(1);
          expect(rows[0].amount).toBe(text((r.estimatedReward as { amount?: string } | undefined)?.amount));
        }
      }
    }
    const [{ n }] = await q('SELECT count(*) AS n FROM pn_rewards');
    expect(Number(n)).toBeGreaterThan(0);
  });

  it('pn.vertices: every X-chain vertex', async () => {
    const expected = await truth(h.sim, `/v1/networks/${NET}/blockchains/x-chain/vertices`);
    expect(expected.length).toBeGreaterThan(0);
    const rows = await q('SELECT vertex_hash, vertex_height::VARCHAR AS height, parent_hashes FROM pn_vertices WHERE network = $1', [NET]);
    expect(rows.length).toBe(expected.length);
    const byHash = new Map(rows.map((r) => [r.vertex_hash, r]));
    for (const v of expected) {
      expect(byHash.get(v.vertexHash)?.height).toBe(String(v.vertexHeight));
      expect(byHash.get(v.vertexHash)?.parent_hashes).toEqual(v.parentHashes);
    }
  });
});
