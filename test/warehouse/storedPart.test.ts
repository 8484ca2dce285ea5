import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../activities/api/endpoint.ts';
import { pnRewards } from '../../activities/streams/pnRewards.ts';
import { pnTransactions } from '../../activities/streams/pnTransactions.ts';
import { pnUtxos } from '../../activities/streams/pnUtxos.ts';
import { pnValidators } from '../../activities/streams/pnValidators.ts';
import { pnVertices } from '../../activities/streams/pnVertices.ts';
import { emptyBatches, type StoredPart, type StreamClient, type StreamDriver } from '../../activities/streams/streamDef.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';

/**
 * A page's items split into what earlier walks stored and what is new (StreamDriver.fetch →
 * DrivenPage.extract with a StoredPart): only the new items reach the batches, the page's rows are
 * counted whole, and the page's drift and unmapped fields are those of every item.
 */

/** A client answering one scripted response (the items of one page): what a stream's fetch calls. */
const answering = (response: Record<string, unknown>): StreamClient => ({
  call: <P, R>(_endpoint: Endpoint<P, R>, _params: P) => Promise.resolve(response as R),
});

const partition = (stream: string, params: Record<string, unknown>): PartitionSpec => ({ stream, id: `${stream}/t`, params }) as PartitionSpec;
const ctx = (p: PartitionSpec) => ({ partition: p, snapshotAt: 1, runId: 'r' });

async function extracted(stream: StreamDriver, p: PartitionSpec, response: Record<string, unknown>, stored?: StoredPart) {
  const page = await stream.fetch(answering(response), p, { pageToken: null, pageSize: 10 });
  const into = emptyBatches(stream.tables);
  const counts = page.extract(ctx(p), into, stored);
  const keys = (table: string, column: string) => {
    const batch = into.get(table)!;
    return batch.columns[batch.table.columns.findIndex((c) => c.name === column)];
  };
  return { counts, keys, drift: page.drift(), items: page.items };
}

describe('the stored part of a page', () => {
  const vertices = partition('pn.vertices', { network: 'mainnet', blockchainId: 'x-chain' });
  const v = (hash: string, height: number | null) => ({ vertexHash: hash, vertexHeight: height, parentHashes: [], vertexIndex: 0, vertexTimestamp: 1, txCount: 0, transactions: [], vertexSizeBytes: 1 });
  const page = { vertices: [v('v12', 12), v('v11', 11), v('v10a', 10), v('v10b', 10), v('vnull', null), v('v9', 9)] };

  it('descending: below the mark is left out, at it only the named items; an item without a key is written', async () => {
    const { counts, keys } = await extracted(pnVertices, vertices, page, { below: 10, at: ['v10a'] });
    expect(keys('pn_vertices', 'vertex_hash')).toEqual(['v12', 'v11', 'v10b', 'vnull']);
    expect(counts).toEqual({ rows: 4, items: 4, held: 6 });
    // Without names every item at the mark is written; without a stored part, all of them.
    expect((await extracted(pnVertices, vertices, page, { below: 10 })).keys('pn_vertices', 'vertex_hash')).toEqual(['v12', 'v11', 'v10a', 'v10b', 'vnull']);
    expect((await extracted(pnVertices, vertices, page)).counts).toEqual({ rows: 6, items: 6, held: 6 });
  });

  it('child tables follow their item, and the run counts the rows of the whole page', async () => {
    const p = partition('pn.transactions', { network: 'mainnet', blockchainId: 'p-chain' });
    const utxo = (id: string) => ({ utxoId: id, addresses: ['a'], amount: '1', assetId: 'x', blockNumber: '1', blockTimestamp: 1, txHash: 't', outputIndex: 0 });
    const tx = (hash: string, at: number, emitted: number) => ({ txHash: hash, txType: 'BaseTx', blockTimestamp: at, blockNumber: String(at), blockHash: 'b', consumedUtxos: [utxo(`${hash}-in`)], emittedUtxos: Array.from({ length: emitted }, (_, i) => utxo(`${hash}-${i}`)), value: [] });
    const response = { transactions: [tx('new', 20, 2), tx('old', 10, 3), tx('older', 9, 1)] };
    const { counts, keys } = await extracted(pnTransactions, p, response, { below: 11 });
    expect(keys('pn_transactions', 'tx_hash')).toEqual(['new']);
    expect(keys('pn_transaction_utxos', 'tx_hash')).toEqual(['new', 'new', 'new']);
    // Written: 1 transaction + 3 UTXOs; held: 3 transactions + 3 + 4 + 2 UTXOs.
    expect(counts).toEqual({ rows: 4, items: 1, held: 12 });
  });

  it('snapshot-merge with identity: the known item and everything after it are left out; a page without it is all new', async () => {
    const p = partition('pn.rewards', { network: 'mainnet', nodeIds: ['NodeID-1'] });
    const r = (tx: string) => ({ txHash: tx, utxoId: `${tx}-u`, rewardType: 'VALIDATOR', addresses: ['a'], amountStaked: '1', nodeId: 'NodeID-1', startTimestamp: 1, endTimestamp: 2, outputIndex: 0, reward: { value: '1', assetId: 'x', name: 'Avax', symbol: 'AVAX', denomination: 9, type: 'secp256k1' }, rewardTxHash: 'rt' });
    const response = { historicalRewards: [r('c'), r('b'), r('a')] };
    const { counts, keys } = await extracted(pnRewards, p, response, { from: 'b/b-u' });
    expect(keys('pn_rewards', 'tx_hash')).toEqual(['c']);
    expect(counts).toEqual({ rows: 1, items: 1, held: 3 });
    expect((await extracted(pnRewards, p, response, { from: 'z/z-u' })).counts).toEqual({ rows: 3, items: 3, held: 3 });
    // A stream without identity (pn.utxos walks until known its own way) never leaves an item out for a known one.
    const utxos = partition('pn.utxos', { network: 'mainnet', blockchainId: 'p-chain', addresses: ['a'] });
    const u = (id: string) => ({ utxoId: id, addresses: ['a'], amount: '1', assetId: 'x', blockNumber: '1', blockTimestamp: 1, txHash: 't', outputIndex: 0 });
    expect((await extracted(pnUtxos, utxos, { utxos: [u('c'), u('b'), u('a')] }, { from: 'b' })).counts).toEqual({ rows: 3, items: 3, held: 3 });
  });

  it('drift is that of the whole page; a written item keeps its own unmapped fields', async () => {
    const withNew = { vertices: [{ ...v('v12', 12), brandNew: 1 }, { ...v('v9', 9), oldNew: 2 }] };
    const { keys, drift } = await extracted(pnVertices, vertices, withNew, { below: 10 });
    expect(drift.filter((d) => d.kind === 'new_field').map((d) => d.path).sort()).toEqual(['brandNew', 'oldNew']);
    expect(keys('pn_vertices', 'vertex_hash')).toEqual(['v12']);
    expect(keys('pn_vertices', '_extra').map((x) => JSON.parse(String(x)) as unknown)).toEqual([{ brandNew: 1 }]);
  });

  it("the stream's own stored items (pn.validators' final ones below the last newest) stay out, but not one that carries an unmapped field", async () => {
    const p = partition('pn.validators', { network: 'mainnet' });
    const val = (txHash: string, validationStatus: string, extra: Record<string, unknown> = {}) => ({ txHash, nodeId: `NodeID-${txHash}`, subnetId: 's', amountStaked: '1', startTimestamp: 1, endTimestamp: 2, validationStatus, ...extra });
    const response = { validators: [val('new', 'completed'), val('top', 'completed'), val('act', 'active'), val('old', 'removed'), val('drifted', 'completed', { laterField: 1 })] };
    // The last walk's marks: its newest was `top`, `act` was open; the list (5) is read whole.
    const cursor = { stream: { watch: ['NodeID-act|act'], tops: { newest: 'top' }, size: 5 } };
    const page = await pnValidators.fetch(answering(response), p, { pageToken: null, pageSize: 10, cursor });
    const into = emptyBatches(pnValidators.tables);
    const counts = page.extract(ctx(p), into, undefined);
    const batch = into.get('pn_validators')!;
    expect(batch.columns[batch.table.columns.findIndex((c) => c.name === 'tx_hash')]).toEqual(['new', 'act', 'drifted']);
    // Two tables (validators, status history): 3 items written to each, 5 held by each.
    expect(counts).toEqual({ rows: 6, items: 3, held: 10 });
    // The page's rows, whole, for tools and ground truth.
    expect(page.rows(ctx(p)).pn_validators).toHaveLength(5);
  });
});
