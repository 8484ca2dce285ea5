import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainAll, sorted, startHarness, truth, type Harness } from './harness.ts';
import { DEFAULT_STREAMS } from '../../activities/streams/catalog.ts';

/**
 * Every EVM and metrics stream, loaded from the real simulator over HTTP into a real DuckDB file via
 * syncBatch, compared with the simulator's ground truth: keys row for row, amounts exactly.
 */

let h: Harness;
let chainId: string;
let addresses: string[];
let contracts: { address: string; ercType: string }[];
let txHashes: string[];
let nfts: { address: string; tokenId: string }[];

const SNAPSHOT = 1_800_000_000;
const q = (sql: string, params: unknown[] = []) => h.warehouse.query(sql, params as never);

beforeAll(async () => {
  h = await startHarness({
    config: (sim) => {
      const d = sim.world.describe().evm as unknown as {
        chains: { chainId: string }[];
        addresses: string[];
        contracts: { chainId: string; address: string; ercType: string }[];
        txHashes: { chainId: string; txHash: string }[] | Record<string, string[]>;
        nfts: { chainId: string; address: string; tokenId: string }[];
      };
      chainId = d.chains[0].chainId;
      addresses = d.addresses.slice(0, 3);
      contracts = d.contracts.filter((c) => c.chainId === chainId);
      const hashes = Array.isArray(d.txHashes) ? d.txHashes.filter((t) => t.chainId === chainId).map((t) => t.txHash) : (d.txHashes[chainId] ?? []);
      txHashes = hashes.slice(0, 6);
      nfts = d.nfts.filter((n) => n.chainId === chainId).slice(0, 4);
      return {
        streams: DEFAULT_STREAMS.filter((name) => !name.startsWith('pn.')),
        evmChains: [
          {
            chainId,
            addresses,
            contracts: contracts.map((c) => c.address),
            transactions: txHashes,
            nfts: nfts.map((n) => ({ contract: n.address, tokenId: n.tokenId })),
            holderThreshold: '0',
            // 300 blocks in ranges of 100: range streams are walked as 3 partitions per address/contract.
            rangeSize: 100,
          },
        ],
      };
    },
  });
  await drainAll(h, h.config.streams, { snapshotAt: SNAPSHOT });
});

afterAll(async () => {
  await h?.close();
});

describe('EVM streams against ground truth', () => {
  it('evm.blocks: every block, hashes and fee amounts exact', async () => {
    const expected = await truth(h.sim, `/v1/chains/${chainId}/blocks`);
    const rows = await q('SELECT block_number::VARCHAR AS n, block_hash, fees_spent, base_fee, base_fee_num::VARCHAR AS base_fee_num, gas_used::VARCHAR AS gas_used, block_timestamp_ms::VARCHAR AS ms, block_min_delay_excess::VARCHAR AS mde FROM evm_blocks WHERE chain_id = $1 ORDER BY block_number', [chainId]);
    expect(expected.length).toBeGreaterThan(100);
    expect(rows.length).toBe(expected.length);
    const byNumber = new Map(rows.map((r) => [r.n, r]));
    for (const b of expected) {
      const r = byNumber.get(String(b.blockNumber));
      expect(r, `block ${String(b.blockNumber)}`).toBeDefined();
      expect(r!.block_hash).toBe(b.blockHash);
      expect(r!.fees_spent).toBe(b.feesSpent);
      expect(r!.base_fee).toBe(b.baseFee);
      expect(r!.base_fee_num).toBe(b.baseFee);
      expect(r!.gas_used).toBe(b.gasUsed);
      expect(r!.ms).toBe(b.blockTimestampMilliseconds === undefined ? null : String(b.blockTimestampMilliseconds));
      expect(r!.mde).toBe(b.blockMinDelayExcess === undefined ? null : String(b.blockMinDelayExcess));
    }
    // Both shapes (before and after the Granite upgrade) were stored.
    expect(rows.some((r) => r.ms === null) && rows.some((r) => r.ms !== null)).toBe(true);
  });

  it('evm.transactions: every chain transaction with its exact value', async () => {
    const expected = await truth(h.sim, `/v1/chains/${chainId}/transactions`);
    const rows = await q('SELECT tx_hash, value, from_address, block_number::VARCHAR AS block_number FROM evm_transactions WHERE chain_id = $1', [chainId]);
    const byHash = new Map(rows.map((r) => [r.tx_hash, r]));
    for (const t of expected) {
      const r = byHash.get(t.txHash);
      expect(r, String(t.txHash)).toBeDefined();
      expect(r!.value).toBe(t.value);
      expect(r!.block_number).toBe(t.blockNumber);
      expect(r!.from_address).toBe((t.from as { address: string }).address);
    }
    expect(expected.length).toBeGreaterThan(0);
  });

  it('evm.address_transactions: the link table lists exactly the address lists', async () => {
    for (const address of addresses) {
      const expected = await truth(h.sim, `/v1/chains/${chainId}/addresses/${address}/transactions:listNative`, { startBlock: '0' });
      const rows = await q('SELECT tx_hash FROM evm_address_transactions WHERE chain_id = $1 AND address = $2', [chainId, address]);
      expect(expected.length).toBeGreaterThan(0);
      expect(sorted(rows.map((r) => r.tx_hash))).toEqual(sorted(expected.map((t) => t.txHash)));
    }
  });

  it('evm.token_transfers: every transfer of every contract, values exact', async () => {
    let batches = 0;
    for (const c of contracts) {
      const expected = await truth(h.sim, `/v1/chains/${chainId}/tokens/${c.address}/transfers`, { startBlock: '0' });
      const rows = await q('SELECT tx_hash, log_index, value, value_num::VARCHAR AS value_num, nft_token_id FROM evm_token_transfers WHERE chain_id = $1 AND contract_address = $2', [chainId, c.address]);
      expect(expected.length, c.address).toBeGreaterThan(0);
      expect(rows.length, c.address).toBe(expected.length);
      // One row per token id: an ERC-1155 batch (several ids under one log index) keeps every entry.
      const tokenIdOf = (t: Record<string, unknown>) => String((t.erc1155Token as { tokenId?: string } | undefined)?.tokenId ?? (t.erc721Token as { tokenId?: string } | undefined)?.tokenId ?? null);
      const byKey = new Map(rows.map((r) => [`${String(r.tx_hash)}#${String(r.log_index)}#${String(r.nft_token_id)}`, r]));
      for (const t of expected) {
        const r = byKey.get(`${String(t.txHash)}#${String(t.logIndex)}#${tokenIdOf(t)}`);
        expect(r).toBeDefined();
        expect(r!.value).toBe(t.value ?? null);
        if (typeof t.value === 'string' && t.value.length <= 38) expect(r!.value_num).toBe(t.value);
      }
      batches += expected.length - new Set(expected.map((t) => `${String(t.txHash)}#${String(t.logIndex)}`)).size;
    }
    expect(batches).toBeGreaterThan(0);
  });

  it('evm.native_balances: one snapshot row per address, balance exact', async () => {
    for (const address of addresses) {
      const [expected] = await truth(h.sim, `/v1/chains/${chainId}/addresses/${address}/balances:getNative`);
      const rows = await q('SELECT balance FROM evm_native_balances WHERE chain_id = $1 AND address = $2 AND snapshot_at = $3', [chainId, address, SNAPSHOT]);
      expect(rows).toHaveLength(1);
      expect(rows[0].balance).toBe((expected.nativeTokenBalance as { balance: string }).balance);
    }
  });

  it('evm.erc20/721/1155 balances: every holding per address', async () => {
    for (const address of addresses) {
      const erc20 = await truth(h.sim, `/v1/chains/${chainId}/addresses/${address}/balances:listErc20`, { filterSpamTokens: 'false' });
      const rows20 = await q('SELECT token_address, balance FROM evm_erc20_balances WHERE chain_id = $1 AND address = $2 AND snapshot_at = $3', [chainId, address, SNAPSHOT]);
      expect(sorted(rows20.map((r) => `${String(r.token_address)}=${String(r.balance)}`))).toEqual(sorted(erc20.map((b) => `${String(b.address)}=${String(b.balance)}`)));
      const erc721 = await truth(h.sim, `/v1/chains/${chainId}/addresses/${address}/balances:listErc721`);
      const rows721 = await q('SELECT token_address, token_id FROM evm_erc721_balances WHERE chain_id = $1 AND address = $2', [chainId, address]);
      expect(sorted(rows721.map((r) => `${String(r.token_address)}/${String(r.token_id)}`))).toEqual(sorted(erc721.map((b) => `${String(b.address)}/${String(b.tokenId)}`)));
      const erc1155 = await truth(h.sim, `/v1/chains/${chainId}/addresses/${address}/balances:listErc1155`);
      const rows1155 = await q('SELECT token_address, token_id, balance FROM evm_erc1155_balances WHERE chain_id = $1 AND address = $2', [chainId, address]);
      expect(sorted(rows1155.map((r) => `${String(r.token_address)}/${String(r.token_id)}=${String(r.balance)}`))).toEqual(
        sorted(erc1155.map((b) => `${String(b.address)}/${String(b.tokenId)}=${String(b.balance)}`)),
      );
    }
  });

  it('evm.transaction_details: detail, internal txs and transfers of each hash', async () => {
    expect(txHashes.length).toBeGreaterThan(0);
    for (const hash of txHashes) {
      const [d] = await truth(h.sim, `/v1/chains/${chainId}/transactions/${hash}`);
      const native = d.nativeTransaction as Record<string, unknown>;
      const [row] = await q('SELECT value, input, gas_price FROM evm_transaction_details WHERE chain_id = $1 AND tx_hash = $2', [chainId, hash]);
      expect(row.value).toBe(native.value);
      expect(row.input ?? null).toBe(native.input ?? null);
      const internal = await q('SELECT value FROM evm_internal_transactions WHERE tx_hash = $1 ORDER BY trace_index', [hash]);
      expect(internal.map((r) => r.value)).toEqual(((d.internalTransactions as { value: string }[] | undefined) ?? []).map((t) => t.value));
      const erc20 = await q('SELECT value, token_address FROM evm_tx_erc20_transfers WHERE tx_hash = $1 ORDER BY transfer_index', [hash]);
      expect(erc20.map((r) => `${String(r.token_address)}=${String(r.value)}`)).toEqual(
        ((d.erc20Transfers as { value: string; erc20Token: { address: string } }[] | undefined) ?? []).map((t) => `${t.erc20Token.address}=${t.value}`),
      );
      const n721 = await q('SELECT count(*) AS n FROM evm_tx_erc721_transfers WHERE tx_hash = $1', [hash]);
      expect(Number(n721[0].n)).toBe(((d.erc721Transfers as unknown[] | undefined) ?? []).length);
      const n1155 = await q('SELECT count(*) AS n FROM evm_tx_erc1155_transfers WHERE tx_hash = $1', [hash]);
      expect(Number(n1155[0].n)).toBe(((d.erc1155Transfers as unknown[] | undefined) ?? []).length);
      const tele = await q('SELECT teleporter_message_id FROM evm_teleporter_messages WHERE tx_hash = $1', [hash]);
      expect(tele.length).toBe(d.teleporterMessageInfo ? 1 : 0);
    }
  });

  it('evm.nft_tokens: each configured token', async () => {
    for (const n of nfts) {
      const [t] = await truth(h.sim, `/v1/chains/${chainId}/nfts/collections/${n.address}/tokens/${n.tokenId}`);
      const rows = await q('SELECT token_uri, owner_address, metadata_name FROM evm_nft_tokens WHERE chain_id = $1 AND address = $2 AND token_id = $3', [chainId, n.address, n.tokenId]);
      expect(rows).toHaveLength(1);
      expect(rows[0].token_uri ?? null).toBe(t.tokenUri ?? null);
      expect(rows[0].owner_address ?? null).toBe(t.ownerAddress ?? null);
    }
  });

  it('metrics.holders: every holder of every contract', async () => {
    for (const c of contracts) {
      const expected = await truth(h.sim, `/v2/chains/${chainId}/contracts/${c.address}/balances`, { threshold: '0' });
      const rows = await q('SELECT address, sort_key, sort_key_num::VARCHAR AS sort_key_num FROM metrics_holders WHERE chain_id = $1 AND contract_address = $2 AND snapshot_at = $3', [chainId, c.address, SNAPSHOT]);
      expect(sorted(rows.map((r) => `${String(r.address)}:${String(r.sort_key)}`))).toEqual(sorted(expected.map((e) => `${String(e.address)}:${String(e.sortKey)}`)));
      // The DECIMAL twin holds the balances that fit 38 digits, NULL the others.
      for (const r of rows) expect(r.sort_key_num).toBe(String(r.sort_key).length <= 38 ? r.sort_key : null);
    }
  });

  it('range streams are split into block ranges up to the chain head', async () => {
    const ranges = (await h.core.planPartitions({ streams: ['evm.token_transfers'] })).filter((p) => p.params.address === contracts[0].address);
    expect(ranges.map((p) => [p.params.startBlock, p.params.endBlock])).toEqual([
      [0, 100],
      [100, 200],
      [200, undefined],
    ]);
  });

  it('checkpoints: every partition complete, rows counted', async () => {
    const checkpoints = await h.warehouse.listCheckpoints();
    const partitions = await h.core.planPartitions({});
    expect(checkpoints.map((c) => c.partitionId).sort()).toEqual(partitions.map((p) => p.id).sort());
    for (const c of checkpoints) expect(c.complete, c.partitionId).toBe(true);
  });
});
