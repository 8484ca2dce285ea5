import type { EvmChainModel } from './chainModel.ts';
import type { TxModel } from './transactions.ts';

const GAS_LIMIT = 15_000_000n;

/** Block of the interface; gas and fees are the sums over its transactions. */
export function blockJson(model: EvmChainModel, txs: TxModel, b: number): Record<string, unknown> {
  const { chain } = model;
  const first = chain.txsBefore(b);
  const count = chain.txCount(b);
  // fees = Σ gasUsed × gasPrice can pass 2^53: split the price at 1e9 so both partial sums stay
  // exact in doubles, and combine them once with BigInt.
  let gasUsed = 0;
  let feesHi = 0;
  let feesLo = 0;
  for (let g = first; g < first + count; g++) {
    const gas = txs.gas(g, b);
    gasUsed += gas.gasUsed;
    feesHi += gas.gasUsed * Math.floor(gas.gasPrice / 1e9);
    feesLo += gas.gasUsed * (gas.gasPrice % 1e9);
  }
  const fees = BigInt(feesHi) * 1_000_000_000n + BigInt(feesLo);
  return {
    chainId: chain.chainId,
    blockNumber: String(b),
    blockHash: chain.blockHash(b),
    baseFee: String(txs.baseFee(b)),
    gasUsed: String(gasUsed),
    gasLimit: String(GAS_LIMIT),
    gasCost: '0',
    parentHash: chain.blockHash(b - 1),
    feesSpent: String(fees),
    cumulativeTransactions: String(first + count),
    blockTimestamp: chain.timestamp(b),
    txCount: count,
  };
}
