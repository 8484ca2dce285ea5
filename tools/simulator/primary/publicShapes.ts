import type { ChainAlias } from './chains.ts';
import { derive, toHex } from './ids.ts';
import type { Ledger, TxRecord } from './ledger.ts';
import type { AssetAmount, PnTransaction, Utxo } from './types.ts';

/**
 * The public service's per-chain shapes of the ledger's records (the official SDK's models):
 * P-chain transactions and UTXOs keep the interface's shape (PChainTransaction, PChainUtxo);
 * X-chain transactions are XChainLinearTransaction or XChainNonLinearTransaction (those of the
 * pre-linearization history, held by vertices); C-chain atomic transactions are
 * CChainExportTransaction / CChainImportTransaction; X- and C-chain UTXOs are the generic Utxo.
 * Views are built per served item, so the ledger keeps one record of everything.
 */

/** The generic Utxo: the fields it shares with the interface's (P-chain) shape, and its own. */
export interface GenericUtxo extends Pick<Utxo, 'addresses' | 'asset' | 'consumedOnChainId' | 'consumingTxHash' | 'createdOnChainId' | 'utxoId' | 'utxoBytes' | 'threshold'> {
  consumingTxTimestamp?: number;
  creationTxHash: string;
  credentials?: { signature: string; publicKey: string }[];
  groupId?: number;
  locktime: number;
  outputIndex: string;
  payload?: string;
  timestamp: number;
  utxoType: string;
}

/**
 * A UTXO in the generic shape. One spent on the X- or C-chain carries the spender's credential (a
 * deterministic signature and key; a P-chain spend, whose shape has no credentials, adds none);
 * outputs of an X-chain OperationTx are mint outputs of a group with a payload.
 */
export function genericUtxo(ledger: Ledger, u: Utxo): GenericUtxo {
  const minted = ledger.txByHash.get(u.txHash)?.tx.txType === 'OperationTx';
  const out: GenericUtxo = {
    addresses: u.addresses,
    asset: u.asset,
    consumedOnChainId: u.consumedOnChainId,
    consumingTxHash: u.consumingTxHash,
    createdOnChainId: u.createdOnChainId,
    utxoId: u.utxoId,
    utxoBytes: u.utxoBytes,
    consumingTxTimestamp: u.consumingBlockTimestamp,
    creationTxHash: u.txHash,
    credentials: u.consumingTxHash === undefined || ledger.txByHash.get(u.consumingTxHash)?.chain === 'p-chain' ? undefined : [credential(`${u.utxoId}:${u.consumingTxHash}`)],
    groupId: minted ? 0 : undefined,
    locktime: u.platformLocktime,
    outputIndex: String(u.outputIndex),
    payload: minted ? toHex(derive(`payload:${u.utxoId}`, 16)) : undefined,
    threshold: u.threshold,
    timestamp: u.blockTimestamp,
    utxoType: minted ? 'mint' : 'transfer',
  };
  return out;
}

function credential(label: string): { signature: string; publicKey: string } {
  return { signature: toHex(derive(`sig:${label}`, 65)), publicKey: toHex(derive(`pub:${label}`, 33)) };
}

/** A UTXO as the UTXO list of `chain` shows it. */
export function utxoView(ledger: Ledger, chain: ChainAlias, u: Utxo): Utxo | GenericUtxo {
  return chain === 'p-chain' ? u : genericUtxo(ledger, u);
}

const sumsOf = (ledger: Ledger, utxos: Utxo[]): AssetAmount[] => ledger.sums(utxos.map((u) => ({ assetId: u.assetId, amount: BigInt(u.amount) })));

/** A transaction as the transaction list of `chain` shows it. */
export function txView(ledger: Ledger, chain: ChainAlias, r: TxRecord): object {
  if (chain === 'x-chain') return xChainTx(ledger, r);
  if (chain === 'c-chain') return cChainTx(ledger, r);
  return r.tx;
}

function xChainTx(ledger: Ledger, r: TxRecord): object {
  const t = r.tx;
  const asset = r.assetCreated === undefined ? undefined : ledger.assets.get(r.assetCreated);
  const common = {
    txHash: t.txHash,
    chainFormat: r.vertices ? 'non-linear' : 'linear',
    timestamp: t.blockTimestamp,
    txType: t.txType,
    memo: t.memo,
    consumedUtxos: t.consumedUtxos.map((u) => genericUtxo(ledger, u)),
    emittedUtxos: t.emittedUtxos.map((u) => genericUtxo(ledger, u)),
    amountUnlocked: sumsOf(ledger, t.consumedUtxos),
    amountCreated: t.value,
    sourceChain: t.sourceChain,
    destinationChain: t.destinationChain,
    assetCreated: asset && { ...asset, createdAtTimestamp: t.blockTimestamp, cap: 'fixed' },
  };
  if (r.vertices) return { ...common, vertices: r.vertices };
  return { ...common, blockHeight: Number(t.blockNumber), blockHash: t.blockHash };
}

function cChainTx(ledger: Ledger, r: TxRecord): object {
  const t: PnTransaction = r.tx;
  const evm = r.evmAddress ?? '';
  const head = {
    txHash: t.txHash,
    blockHeight: Number(t.blockNumber),
    blockHash: t.blockHash,
    timestamp: t.blockTimestamp,
    memo: t.memo,
  };
  const burned = t.amountBurned.reduce((s, a) => s + BigInt(a.amount), 0n);
  if (t.txType === 'ExportTx') {
    // The EVM account pays the exported amount and the fee.
    const exported = t.emittedUtxos.reduce((s, u) => s + BigInt(u.amount), 0n);
    const input = ledger.assetAmount(ledger.avax.assetId, exported + burned);
    return {
      ...head,
      amountUnlocked: [input],
      amountCreated: t.value,
      sourceChain: t.sourceChain,
      destinationChain: t.destinationChain,
      txType: t.txType,
      evmInputs: [{ fromAddress: evm, asset: input, credentials: [credential(`${t.txHash}:evm`)] }],
      emittedUtxos: t.emittedUtxos.map((u) => genericUtxo(ledger, u)),
    };
  }
  // ImportTx: the imported UTXOs, less the fee, credited to the EVM account.
  const imported = t.consumedUtxos.reduce((s, u) => s + BigInt(u.amount), 0n);
  const output = ledger.assetAmount(ledger.avax.assetId, imported - burned);
  return {
    ...head,
    amountUnlocked: sumsOf(ledger, t.consumedUtxos),
    amountCreated: [output],
    sourceChain: t.sourceChain,
    destinationChain: t.destinationChain,
    txType: t.txType,
    evmOutputs: [{ toAddress: evm, asset: output }],
    consumedUtxos: t.consumedUtxos.map((u) => genericUtxo(ledger, u)),
  };
}
