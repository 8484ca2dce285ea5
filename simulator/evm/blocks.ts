import type { EvmChainModel } from './chainModel.ts';
import type { TxModel } from './transactions.ts';

const GAS_LIMIT = '15000000';

/**
 * Block of the interface, as JSON text (the list hot path); gas and fees are the sums over its
 * transactions. Every string field is digits or hex, so none needs escaping.
 */
export function blockJsonText(model: EvmChainModel, txs: TxModel, b: number): string {
  const { chain } = model;
  const first = chain.txsBefore(b);
  const count = chain.txCount(b);
  const baseFee = txs.baseFee(b);
  // fees = Σ gasUsed × gasPrice can pass 2^53: split the price at 1e9 so both partial sums stay
  // exact in doubles, and combine them once with BigInt.
  let gasUsed = 0;
  let feesHi = 0;
  let feesLo = 0;
  for (let g = first; g < first + count; g++) {
    const gas = txs.gas(g, b, baseFee);
    gasUsed += gas.gasUsed;
    feesHi += gas.gasUsed * Math.floor(gas.gasPrice / 1e9);
    feesLo += gas.gasUsed * (gas.gasPrice % 1e9);
  }
  // When the double sum is at most 2^53 - 1 it is exact (both terms are then exact too).
  const approx = feesHi * 1e9 + feesLo;
  const fees = approx <= Number.MAX_SAFE_INTEGER ? String(approx) : String(BigInt(feesHi) * 1_000_000_000n + BigInt(feesLo));
  return (
    `{"chainId":${chain.chainIdJson},"blockNumber":"${b}","blockHash":"${chain.blockHash(b)}","baseFee":"${baseFee}",` +
    `"gasUsed":"${gasUsed}","gasLimit":"${GAS_LIMIT}","gasCost":"0","parentHash":"${chain.blockHash(b - 1)}","feesSpent":"${fees}",` +
    `"cumulativeTransactions":"${first + count}","blockTimestamp":${chain.timestamp(b)},"txCount":${count}}`
  );
}

/** Block of the interface as an object. */
export function blockJson(model: EvmChainModel, txs: TxModel, b: number): Record<string, unknown> {
  return JSON.parse(blockJsonText(model, txs, b)) as Record<string, unknown>;
}
