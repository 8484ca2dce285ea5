import * as c from '@avalanche-sdk/chainkit/models/components';
import { describe, expect, it } from 'vitest';
import { parseJsonLossless } from '../../activities/api/losslessJson.ts';
import { BalancesResponse, PrimaryNetworkTransactionsPage, UtxosPage } from '../../activities/api/schemas/index.ts';
import { validateResponse } from '../../activities/api/validateResponse.ts';
import { pnBalances } from '../../activities/streams/pnBalances.ts';
import { pnTransactions } from '../../activities/streams/pnTransactions.ts';
import { pnUtxos } from '../../activities/streams/pnUtxos.ts';
import type { PartitionSpec } from '../../activities/sync/types.ts';
import type { PrimaryNetworkTransaction } from '../../activities/api/schemas/index.ts';

/** pn.transactions' rows for a chain-wide page of `network`/`chain`, as its column readers fill them. */
const normalizePnTransactions = (items: readonly PrimaryNetworkTransaction[], network: 'mainnet', chain: string) =>
  pnTransactions.normalize({ items }, { partition: { stream: 'pn.transactions', id: 'p', network, chain, params: { network, blockchainId: chain } }, snapshotAt: 0, runId: 'r' });

/**
 * Every primary-network response variant of the public service, as fixtures the official SDK's own
 * schemas accept (checked first, so a fixture cannot drift from the real shape), through the
 * client's lossless parse, our schemas and the normalizers: each value lands, none is lost.
 */

const request = { method: 'GET', target: '/v1/networks/mainnet/blockchains/x-chain/transactions' };
const AVAX = { assetId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z', name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1' };
const X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const P = '11111111111111111111111111111111LpoYY';
const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const chainInfo = { chainName: 'x-chain', network: 'mainnet' };

function genericUtxo(id: string, amount: string, extra: Record<string, unknown> = {}) {
  return {
    addresses: ['avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg'],
    asset: { ...AVAX, amount },
    consumedOnChainId: X,
    createdOnChainId: X,
    utxoId: id,
    utxoBytes: '0x00',
    creationTxHash: `tx-of-${id}`,
    locktime: 0,
    outputIndex: '1',
    threshold: 1,
    timestamp: 1_700_000_100,
    utxoType: 'transfer',
    ...extra,
  };
}

const spent = genericUtxo('u-spent', '5000', {
  consumingTxHash: 'tx-x-linear',
  consumingTxTimestamp: 1_700_000_200,
  credentials: [{ signature: '0xaa', publicKey: '0xbb' }],
  groupId: 0,
  payload: '0xcafe',
  utxoType: 'mint',
});

const xLinear = {
  txHash: 'tx-x-linear',
  chainFormat: 'linear',
  timestamp: 1_700_000_200,
  txType: 'CreateAssetTx',
  memo: '',
  consumedUtxos: [spent],
  emittedUtxos: [genericUtxo('u-new', '4000')],
  amountUnlocked: [{ ...AVAX, amount: '5000' }],
  amountCreated: [{ ...AVAX, amount: '4000' }],
  assetCreated: { ...AVAX, createdAtTimestamp: 1_700_000_200, cap: 'fixed' },
  blockHeight: 123_456,
  blockHash: 'block-1',
};
const xNonLinear = {
  ...xLinear,
  txHash: 'tx-x-dag',
  chainFormat: 'non-linear',
  txType: 'BaseTx',
  assetCreated: undefined,
  blockHeight: undefined,
  blockHash: undefined,
  vertices: [{ hash: 'vertex-1', height: 7, timestamp: 1_600_000_000 }],
};
const cExport = {
  txHash: 'tx-c-export',
  blockHeight: 30_000_007,
  blockHash: 'c-block',
  timestamp: 1_700_000_300,
  memo: '',
  amountUnlocked: [{ ...AVAX, amount: '1001000000' }],
  amountCreated: [{ ...AVAX, amount: '1000000000' }],
  sourceChain: C,
  destinationChain: P,
  txType: 'ExportTx',
  evmInputs: [{ fromAddress: '0x00000000000000000000000000000000000000aa', asset: { ...AVAX, amount: '1001000000' }, credentials: [{ signature: '0x01', publicKey: '0x02' }] }],
  emittedUtxos: [genericUtxo('u-exported', '1000000000', { createdOnChainId: C, consumedOnChainId: P })],
};
const cImport = {
  txHash: 'tx-c-import',
  blockHeight: 30_000_014,
  blockHash: 'c-block-2',
  timestamp: 1_700_000_400,
  memo: '',
  amountUnlocked: [{ ...AVAX, amount: '2000000000' }],
  amountCreated: [{ ...AVAX, amount: '1999000000' }],
  sourceChain: P,
  destinationChain: C,
  txType: 'ImportTx',
  evmOutputs: [{ toAddress: '0x00000000000000000000000000000000000000bb', asset: { ...AVAX, amount: '1999000000' } }],
  consumedUtxos: [genericUtxo('u-imported', '2000000000', { createdOnChainId: P, consumedOnChainId: C, consumingTxHash: 'tx-c-import', consumingTxTimestamp: 1_700_000_400 })],
};

/** A P-chain page as text: the L1 values are bare JSON integers beyond 2^53 (uint64 max among them). */
const P_PAGE_TEXT = `{"transactions":[
  {"txHash":"tx-chain","txType":"CreateChainTx","blockTimestamp":1700000500,"blockNumber":"42","blockHash":"b","consumedUtxos":[],"emittedUtxos":[],
   "value":[],"amountBurned":[],"amountStaked":[],"amountL1ValidatorBalanceBurned":[],"memo":"",
   "blockchainInfo":{"chainName":"vmchain","vmId":"vm","genesisData":"0x00ff7b2261223a317d  exact text"}},
  {"txHash":"tx-l1","txType":"ConvertSubnetToL1Tx","blockTimestamp":1700000600,"blockNumber":"43","blockHash":"b2","consumedUtxos":[],"emittedUtxos":[],
   "value":[],"amountBurned":[],"amountStaked":[],"amountL1ValidatorBalanceBurned":[],"memo":"",
   "l1ValidatorDetails":[{"validationId":"v","validationIdHex":"0x01","nodeId":"NodeID-1","subnetId":"s","weight":18446744073709551615,
     "remainingBalance":9007199254740993,"balanceChange":9007199254740995,"blsCredentials":{"publicKey":"0x1","proofOfPossession":"0x2"}}]}],
  "chainInfo":{"chainName":"p-chain","network":"mainnet"}}`;

describe('primary-network variants: the SDK accepts the fixtures', () => {
  it('fixtures are SDK-valid', () => {
    c.ListXChainTransactionsResponse$inboundSchema.parse({ transactions: [xLinear, xNonLinear], chainInfo });
    c.ListCChainAtomicTransactionsResponse$inboundSchema.parse({ transactions: [cExport, cImport], chainInfo: { ...chainInfo, chainName: 'c-chain' } });
    c.ListPChainTransactionsResponse$inboundSchema.parse(JSON.parse(P_PAGE_TEXT));
    c.ListUtxosResponse$inboundSchema.parse({ utxos: [spent, genericUtxo('u2', '7')], chainInfo });
  });
});

describe('primary-network variants land with no value lost', () => {
  const normalize = (page: unknown, chain: string) =>
    normalizePnTransactions(validateResponse(PrimaryNetworkTransactionsPage, parseJsonLossless(JSON.stringify(page)), request).transactions, 'mainnet', chain);

  it('X-chain linear: timestamp and blockHeight fill block_timestamp and block_number; generic UTXOs fill the P-chain columns', () => {
    const out = normalize({ transactions: [xLinear], chainInfo }, 'x-chain');
    expect(out.pn_transactions[0]).toMatchObject({ chain_format: 'linear', block_timestamp: 1_700_000_200n, block_number: 123_456n, block_height: 123_456n, block_hash: 'block-1', vertices: null });
    expect(JSON.parse(String(out.pn_transactions[0].asset_created))).toEqual(xLinear.assetCreated);
    const consumed = out.pn_transaction_utxos.find((r) => r.direction === 'consumed')!;
    expect(consumed).toMatchObject({
      utxo_id: 'u-spent',
      amount: 5000n,
      asset_id: AVAX.assetId,
      utxo_tx_hash: 'tx-of-u-spent',
      creation_tx_hash: 'tx-of-u-spent',
      block_timestamp: 1_700_000_100n,
      output_index: 1,
      consuming_tx_hash: 'tx-x-linear',
      consuming_block_timestamp: 1_700_000_200n,
      consuming_tx_timestamp: 1_700_000_200n,
      locktime: 0n,
      group_id: 0,
      payload: '0xcafe',
      utxo_type: 'mint',
    });
    expect(JSON.parse(String(consumed.credentials))).toEqual([{ signature: '0xaa', publicKey: '0xbb' }]);
    const kinds = out.pn_transaction_amounts.map((a) => `${String(a.kind)}=${String(a.amount)}`);
    expect(kinds).toEqual(['amount_unlocked=5000', 'amount_created=4000']);
  });

  it('X-chain non-linear: the vertices are kept, no block number is invented', () => {
    const [row] = normalize({ transactions: [xNonLinear], chainInfo }, 'x-chain').pn_transactions;
    expect(row).toMatchObject({ chain_format: 'non-linear', block_number: null, block_hash: null, block_timestamp: 1_700_000_200n });
    expect(JSON.parse(String(row.vertices))).toEqual(xNonLinear.vertices);
  });

  it('C-chain export and import: evmInputs/evmOutputs kept whole, blockHeight in block_number, UTXOs with amounts', () => {
    const out = normalize({ transactions: [cExport, cImport], chainInfo }, 'c-chain');
    const [exp, imp] = out.pn_transactions;
    expect(exp).toMatchObject({ tx_type: 'ExportTx', block_number: 30_000_007n, block_timestamp: 1_700_000_300n, source_chain: C, destination_chain: P, evm_outputs: null });
    expect(JSON.parse(String(exp.evm_inputs))).toEqual(cExport.evmInputs);
    expect(imp).toMatchObject({ tx_type: 'ImportTx', block_number: 30_000_014n, evm_inputs: null });
    expect(JSON.parse(String(imp.evm_outputs))).toEqual(cImport.evmOutputs);
    expect(out.pn_transaction_utxos.map((u) => [u.direction, u.utxo_id, u.amount, u.utxo_tx_hash])).toEqual([
      ['emitted', 'u-exported', 1_000_000_000n, 'tx-of-u-exported'],
      ['consumed', 'u-imported', 2_000_000_000n, 'tx-of-u-imported'],
    ]);
  });

  it('P-chain: string genesis data kept exactly beside object genesis; uint64 L1 values exact beyond 2^53', () => {
    const page = validateResponse(PrimaryNetworkTransactionsPage, parseJsonLossless(P_PAGE_TEXT), request);
    const out = normalizePnTransactions(page.transactions, 'mainnet', 'p-chain');
    expect(out.pn_transactions[0]).toMatchObject({ genesis_data: null, genesis_data_text: '0x00ff7b2261223a317d  exact text' });
    expect(out.pn_l1_validator_details[0]).toMatchObject({ weight: 18_446_744_073_709_551_615n, remaining_balance: 9_007_199_254_740_993n, balance_change: 9_007_199_254_740_995n });
    const evm = normalizePnTransactions(
      [{ txHash: 't', blockchainInfo: { chainName: 'evm', vmId: 'vm', genesisData: { config: { chainId: 99 } } } }],
      'mainnet',
      'p-chain',
    );
    expect(evm.pn_transactions[0]).toMatchObject({ genesis_data: '{"config":{"chainId":99}}', genesis_data_text: null });
  });

  it('pn.utxos and pn.balances: generic UTXOs and X-chain balance keys', () => {
    const partition = { stream: 'pn.utxos', id: 'p', network: 'mainnet', chain: 'x-chain', params: { network: 'mainnet', blockchainId: 'x-chain', addresses: ['a'] } } as unknown as PartitionSpec;
    const page = validateResponse(UtxosPage, { utxos: [spent], chainInfo }, request);
    const { pn_utxos } = pnUtxos.normalize({ items: page.utxos }, { partition, snapshotAt: 1_800_000_000, runId: 'r' });
    expect(pn_utxos[0]).toMatchObject({ amount: 5000n, tx_hash: 'tx-of-u-spent', block_timestamp: 1_700_000_100n, consuming_block_timestamp: 1_700_000_200n, output_index: 1 });
    const entry = { ...AVAX, amount: '12', utxoCount: 2 };
    const balances = { locked: [entry], unlocked: [entry], atomicMemoryUnlocked: [{ ...entry, sharedWithChainId: P }], atomicMemoryLocked: [] };
    c.ListXChainBalancesResponse$inboundSchema.parse({ balances, chainInfo });
    const r = validateResponse(BalancesResponse, { balances, chainInfo }, request);
    const { pn_balances } = pnBalances.normalize({ items: [{ balances: r.balances }] }, { partition, snapshotAt: 1_800_000_000, runId: 'r' });
    expect(pn_balances.map((b) => [b.kind, b.amount, b.shared_with_chain_id]).sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      ['atomicMemoryUnlocked', 12n, P],
      ['locked', 12n, null],
      ['unlocked', 12n, null],
    ]);
  });
});
