import { asciiBytes, spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';
import { intIn4 } from '../world/hash.ts';
import type { EvmChain } from './chain.ts';
import { K } from './chain.ts';
import type { EvmChainModel } from './chainModel.ts';
import type { TxModel } from './transactions.ts';

const GAS_LIMIT = '15000000';
const GWEI = 1_000_000_000;

/** Fixed fragments of blockJsonText, in field order. */
const F = {
  blockHash: asciiBytes('","blockHash":"0x'), baseFee: asciiBytes('","baseFee":"'),
  gasUsed: asciiBytes('","gasUsed":"'), parentHash: asciiBytes(`","gasLimit":"${GAS_LIMIT}","gasCost":"0","parentHash":"0x`),
  feesSpent: asciiBytes('","feesSpent":"'), cumulative: asciiBytes('","cumulativeTransactions":"'),
  blockTimestamp: asciiBytes('","blockTimestamp":'), txCount: asciiBytes(',"txCount":'),
  timestampMs: asciiBytes(',"blockTimestampMilliseconds":'), minDelayExcess: asciiBytes(',"blockMinDelayExcess":'),
  zeroHash: asciiBytes('0'.repeat(64)),
};
/** '{"chainId":<id>,"blockNumber":"' of each chain, as bytes. */
const CHAIN_ID_BYTES = new WeakMap<EvmChain, Uint8Array>();
/**
 * Block of the interface, as JSON text (writeBlock as a string; the list writes into its page
 * buffer); gas and fees are the sums over its transactions.
 */
export function blockJsonText(model: EvmChainModel, txs: TxModel, b: number): string {
  return spellText((w) => writeBlock(w, model, txs, b));
}

/**
 * Spells block b into w, field by field (the same bytes as blockTemplate, which documents them):
 * digits and hex go straight into the buffer, with no intermediate strings or objects. Every
 * string field is digits or hex, so none needs escaping.
 */
export function writeBlock(w: AsciiWriter, model: EvmChainModel, txs: TxModel, b: number): void {
  const { chain, pool } = model;
  const d = chain.domain;
  const first = chain.txsBefore(b);
  const count = chain.txCount(b);
  const baseFee = txs.baseFee(b);
  // txs.gas(g, b, baseFee) summed, without the objects; the fee sums are split as in blockTemplate.
  let gasUsed = 0;
  let feesHi = 0;
  let feesLo = 0;
  const P = pool.P;
  const E = pool.E;
  const end = first + count;
  for (let g = first; g < end; g++) {
    const call = (g + pool.d) % P >= E;
    const used = call ? Math.floor((intIn4(60_000, 300_000, d, K.gas, g, 1) * intIn4(60, 95, d, K.gas, g, 2)) / 100) : 21_000;
    const gasPrice = baseFee + intIn4(0, 3, d, K.gas, g, 3) * GWEI;
    gasUsed += used;
    feesHi += used * Math.floor(gasPrice / 1e9);
    feesLo += used * (gasPrice % 1e9);
  }
  let idBytes = CHAIN_ID_BYTES.get(chain);
  if (idBytes === undefined) {
    idBytes = asciiBytes(`{"chainId":${chain.chainIdJson},"blockNumber":"`);
    CHAIN_ID_BYTES.set(chain, idBytes);
  }
  w.bytes(idBytes);
  w.uint(b);
  w.bytes(F.blockHash);
  chain.writeBlockHashDigits(w, b);
  w.bytes(F.baseFee);
  w.uint(baseFee);
  w.bytes(F.gasUsed);
  w.uint(gasUsed);
  w.bytes(F.parentHash);
  if (b >= 1) {
    chain.writeBlockHashDigits(w, b - 1);
  } else w.bytes(F.zeroHash);
  w.bytes(F.feesSpent);
  const approx = feesHi * 1e9 + feesLo;
  if (approx <= Number.MAX_SAFE_INTEGER) w.uint(approx);
  else {
    // feesHi * 10^9 + feesLo exactly, without BigInt: carry feesLo's billions into the high part
    // (both sums are exact integers well below 2^53), then 9 zero-padded low digits.
    const carry = Math.floor(feesLo / 1e9);
    w.uint(feesHi + carry);
    w.u32Padded(feesLo - carry * 1e9, 9);
  }
  w.bytes(F.cumulative);
  w.uint(end);
  w.bytes(F.blockTimestamp);
  w.uint(chain.timestamp(b));
  if (chain.isGranite(b)) {
    w.bytes(F.timestampMs);
    w.uint(chain.timestampMs(b));
    w.bytes(F.minDelayExcess);
    w.uint(chain.minDelayExcess(b));
  }
  w.bytes(F.txCount);
  w.uint(count);
  w.byte(125); // }
}

/** blockJsonText as a template (the reference spelling of writeBlock; tests compare them). */
export function blockTemplate(model: EvmChainModel, txs: TxModel, b: number): string {
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
  // Blocks after the Granite upgrade add two fields; older ones keep the original shape.
  const granite = chain.isGranite(b) ? `,"blockTimestampMilliseconds":${chain.timestampMs(b)},"blockMinDelayExcess":${chain.minDelayExcess(b)}` : '';
  return (
    `{"chainId":${chain.chainIdJson},"blockNumber":"${b}","blockHash":"${chain.blockHash(b)}","baseFee":"${baseFee}",` +
    `"gasUsed":"${gasUsed}","gasLimit":"${GAS_LIMIT}","gasCost":"0","parentHash":"${chain.blockHash(b - 1)}","feesSpent":"${fees}",` +
    `"cumulativeTransactions":"${first + count}","blockTimestamp":${chain.timestamp(b)}${granite},"txCount":${count}}`
  );
}

/** Block of the interface as an object. */
export function blockJson(model: EvmChainModel, txs: TxModel, b: number): Record<string, unknown> {
  return JSON.parse(blockJsonText(model, txs, b)) as Record<string, unknown>;
}
