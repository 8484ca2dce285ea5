import { cb58Encode } from '../world/ids.ts';
import { spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';
import { bytesHash, fmix32, hash3, hash32, hexBytes, randomBytes, randomHexInto, stringHash } from '../world/hash.ts';
import { stepSeconds, WORLD_TIP_TIME } from '../world/size.ts';
import type { WorldSize } from '../world/size.ts';

/** Hash domains, so different kinds of value never share hash inputs. */
export const K = {
  pair: 1, blockHash: 2, ts: 3, txHash: 4, txMask: 5, fail: 6, value: 7, gas: 8, owner: 9, coin: 10,
  eoa: 11, contract: 12, internal: 13, teleporter: 14, native: 15, nft: 16, baseFee: 17, txType: 18,
  tsMs: 19, minDelay: 20,
} as const;

export interface EvmChainSpec {
  chainId: string;
  blockchainId: string;
  chainName: string;
  network: 'mainnet' | 'fuji';
  /** Share of size.evmBlocks this chain starts with. */
  heightFactor: number;
  token: { name: string; symbol: string; decimals: number; logoUri: string; description: string };
}

const AVAX = { name: 'Avalanche', symbol: 'AVAX', decimals: 18, logoUri: 'https://images.sim.local/avax.png', description: 'The native token of Avalanche.' };

/** Made-up subnet chains get fixed (seed-independent) cb58 blockchain ids. */
const subnetBlockchainId = (label: string): string => cb58Encode(randomBytes(32, stringHash(label)));

export const EVM_CHAIN_SPECS: readonly EvmChainSpec[] = [
  { chainId: '43114', blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5', chainName: 'Avalanche (C-Chain)', network: 'mainnet', heightFactor: 1, token: AVAX },
  { chainId: '43113', blockchainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp', chainName: 'Avalanche Fuji (C-Chain)', network: 'fuji', heightFactor: 0.5, token: AVAX },
  {
    chainId: '779672', blockchainId: subnetBlockchainId('glacier-sim-subnet-frost'), chainName: 'Frost L1', network: 'mainnet', heightFactor: 0.25,
    token: { name: 'Frost', symbol: 'FRST', decimals: 18, logoUri: 'https://images.sim.local/frst.png', description: 'Gas token of the Frost L1.' },
  },
  {
    chainId: '99871', blockchainId: subnetBlockchainId('glacier-sim-subnet-rime'), chainName: 'Rime Testnet L1', network: 'fuji', heightFactor: 0.1,
    token: { name: 'Rime', symbol: 'RIME', decimals: 18, logoUri: 'https://images.sim.local/rime.png', description: 'Gas token of the Rime test L1.' },
  },
];

/** Where a global transaction index sits. */
export interface TxLocation {
  block: number;
  index: number;
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const HEX_PREFIX = Uint8Array.of(48, 120); // 0x

/**
 * One EVM chain's block and transaction arithmetic. Block b >= 1 holds a pseudo-random count of
 * transactions, but blocks come in pairs whose counts add up to maxTxsPerBlock, so the number of
 * transactions before any block (cumulativeTransactions) and the block of any global transaction
 * index are O(1) closed forms, whatever the height.
 */
export class EvmChain {
  readonly domain: number;
  readonly baseHeight: number;
  readonly m: number;
  /** The chain id as a JSON string literal (for JSON text writers). */
  readonly chainIdJson: string;
  /**
   * First block after the Granite upgrade: blocks from here on carry blockTimestampMilliseconds and
   * blockMinDelayExcess, older ones do not (as on the public service). Fixed at half the starting
   * height, so every world has blocks of both shapes and growth never moves it.
   */
  readonly graniteBlock: number;
  private readonly t0: number;
  /** Seconds between blocks: 2, or a day's share per step when the size sets stepsPerDay. */
  private readonly interval: number;

  constructor(readonly spec: EvmChainSpec, seed: number, size: WorldSize, private readonly steps: () => number) {
    this.domain = hash32(seed, stringHash(spec.chainId));
    this.baseHeight = Math.max(3, Math.floor(size.evmBlocks * spec.heightFactor));
    this.m = Math.max(1, size.maxTxsPerBlock);
    this.interval = stepSeconds(size) ?? 2;
    this.t0 = WORLD_TIP_TIME - this.interval * this.baseHeight;
    this.chainIdJson = JSON.stringify(spec.chainId);
    this.graniteBlock = Math.floor(this.baseHeight / 2);
  }

  get chainId(): string {
    return this.spec.chainId;
  }

  /** Number of blocks (0..height-1); grows by one per world step. */
  height(): number {
    return this.baseHeight + this.steps();
  }

  tip(): number {
    return this.height() - 1;
  }

  /** Transactions in the first block of pair k (blocks 2k+1 and 2k+2). */
  pairA(k: number): number {
    return Math.floor((hash3(this.domain, K.pair, k) / 4294967296) * (this.m + 1));
  }

  txCount(b: number): number {
    if (b <= 0) return 0;
    const j = b - 1;
    const a = this.pairA(Math.floor(j / 2));
    return j % 2 === 0 ? a : this.m - a;
  }

  /** Transactions in blocks [0, b). */
  txsBefore(b: number): number {
    if (b <= 1) return 0;
    const j = b - 1;
    const k = Math.floor(j / 2);
    return k * this.m + (j % 2 === 1 ? this.pairA(k) : 0);
  }

  totalTxs(): number {
    return this.txsBefore(this.height());
  }

  locate(g: number): TxLocation {
    const block = this.blockOf(g);
    return { block, index: g - this.txsBefore(block) };
  }

  /** The block of transaction g (locate(g).block without the object, for the list hot paths). */
  blockOf(g: number): number {
    const k = Math.floor(g / this.m);
    return g - k * this.m < this.pairA(k) ? 2 * k + 1 : 2 * k + 2;
  }

  timestamp(b: number): number {
    return this.t0 + this.interval * b + (hash3(this.domain, K.ts, b) & 1);
  }

  /** Does block b carry the Granite fields (blockTimestampMilliseconds, blockMinDelayExcess)? */
  isGranite(b: number): boolean {
    return b >= this.graniteBlock;
  }

  /** Epoch milliseconds of block b: within its second (timestamp(b) is its floor), so still increasing. */
  timestampMs(b: number): number {
    return this.timestamp(b) * 1000 + (hash3(this.domain, K.tsMs, b) % 1000);
  }

  /** The block's minimum-delay excess (ACP-226 state, an unsigned integer the node reports per block). */
  minDelayExcess(b: number): number {
    return 7_000_000 + (hash3(this.domain, K.minDelay, b) % 500_000);
  }

  /**
   * "0x" + 64 hex digits (all zeros before block 0). List pages spell the digits into their page
   * buffer (writeBlockHashDigits); this string form serves the reference templates and details.
   */
  blockHash(b: number): string {
    if (b < 0) return '0x' + '0'.repeat(64);
    return spellText((w) => {
      w.bytes(HEX_PREFIX);
      this.writeBlockHashDigits(w, b);
    });
  }

  /** Appends the 64 hex digits of blockHash(b) (writers that put "0x" in their fixed text). */
  writeBlockHashDigits(w: AsciiWriter, b: number): void {
    randomHexInto(w, hash3(this.domain, K.blockHash, b), 8);
  }

  /** First block whose timestamp is >= ts (clamped to [0, height]). */
  firstBlockAtOrAfter(ts: number): number {
    // timestamp(b) is in [t0 + interval*b, t0 + interval*b + 1]: solve, then adjust by one.
    let b = Math.max(0, Math.floor((ts - this.t0 - 1) / this.interval));
    while (b > 0 && this.timestamp(b - 1) >= ts) b--;
    while (b < this.height() && this.timestamp(b) < ts) b++;
    return Math.min(b, this.height());
  }

  /**
   * Tx hashes carry their index: 24 pseudo-random bytes, then the index masked by a hash of those
   * bytes. Decoding recomputes the random part, so only hashes of this chain's txs resolve.
   */
  txHash(g: number): string {
    return spellText((w) => {
      w.bytes(HEX_PREFIX);
      this.writeTxHashDigits(w, g);
    });
  }

  /** Appends the 64 hex digits of txHash(g). */
  writeTxHashDigits(w: AsciiWriter, g: number): void {
    const start = w.pos;
    randomHexInto(w, hash3(this.domain, K.txHash, g), 6);
    const m = bytesHash(w.buf, start, start + 48);
    const hi = Math.floor(g / 4294967296);
    const lo = g >>> 0;
    w.hexBE((hi ^ fmix32((m ^ 1) >>> 0)) >>> 0);
    w.hexBE((lo ^ fmix32((m ^ 2) >>> 0)) >>> 0);
  }

  /** Global tx index of a hash of this chain, or null (also null for txs beyond the tip). */
  txIndexOf(hash: string): number | null {
    if (!/^0x[0-9a-f]{64}$/.test(hash)) return null;
    const r = hash.slice(2, 50);
    const m = stringHash(r);
    const hi = (parseInt(hash.slice(50, 58), 16) ^ fmix32((m ^ 1) >>> 0)) >>> 0;
    const lo = (parseInt(hash.slice(58, 66), 16) ^ fmix32((m ^ 2) >>> 0)) >>> 0;
    const g = hi * 4294967296 + lo;
    if (g >= this.totalTxs() || hexBytes(24, this.domain, K.txHash, g) !== r) return null;
    return g;
  }
}
