import { asciiBytes, spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';
import { hash3, hash32, hash4, hexBytes, intIn, intIn4, unit } from '../world/hash.ts';
import type { AddressPool } from './addressPool.ts';
import { K } from './chain.ts';
import type { EvmChain } from './chain.ts';
import type { TokenContract } from './tokens.ts';

/**
 * What the transaction model reads of its chain (EvmChainModel builds one and passes itself), named
 * here so this module does not import the chain model back.
 */
export interface TxChainParts {
  readonly chain: EvmChain;
  readonly pool: AddressPool;
  readonly tokens: TokenContract[];
  /** The token contract a transaction calls (its index), or -1 for a native transfer. */
  calledToken(g: number): number;
}

const GWEI = 1_000_000_000;
const TRANSFER_METHOD = { callType: 'CONTRACT_CALL', methodHash: '0xa9059cbb', methodName: 'transfer(address,uint256)' };
const SAFE_TRANSFER_METHOD = { callType: 'CONTRACT_CALL', methodHash: '0x42842e0e', methodName: 'safeTransferFrom(address,address,uint256)' };
const NATIVE_METHOD = { callType: 'NATIVE_TRANSFER', methodHash: '', methodName: '' };
const CREATION_METHOD = { callType: 'CONTRACT_CREATION', methodHash: '0x60806040', methodName: '' };
const TRANSFER_METHOD_JSON = JSON.stringify(TRANSFER_METHOD);
const SAFE_TRANSFER_METHOD_JSON = JSON.stringify(SAFE_TRANSFER_METHOD);
const NATIVE_METHOD_JSON = JSON.stringify(NATIVE_METHOD);
const CREATION_METHOD_JSON = JSON.stringify(CREATION_METHOD);
/**
 * Fixed fragments of nativeText, in field order. Neighbouring fixed text is joined into one
 * fragment wherever the value between is one of a few (status and type, the from and to slots,
 * the method), so an item is a dozen copies rather than twenty.
 */
const F = {
  blockNumber: asciiBytes('{"blockNumber":"'), blockTimestamp: asciiBytes('","blockTimestamp":'), blockHash: asciiBytes(',"blockHash":"0x'),
  txHash: asciiBytes(',"txHash":"0x'),
  /** By failed (0/1) * 2 + legacy type (0/1): status, type and the gasLimit key. */
  statusType: [
    asciiBytes('","txStatus":"1","txType":2,"gasLimit":"'), asciiBytes('","txStatus":"1","txType":0,"gasLimit":"'),
    asciiBytes('","txStatus":"0","txType":2,"gasLimit":"'), asciiBytes('","txStatus":"0","txType":0,"gasLimit":"'),
  ],
  gasUsed: asciiBytes('","gasUsed":"'), gasPrice: asciiBytes('","gasPrice":"'), nonce: asciiBytes('","nonce":"'), end: asciiBytes('"}'),
};

/** Failure candidates are every 20th tx (5%); only native transfers among them fail. */
export const FAIL_MODULUS = 20;

export interface EvmAddressInfo {
  address: string;
  name?: string;
  symbol?: string;
  decimals?: number;
  logoUri?: string;
}

/** Per-transaction fields of one chain, each a pure function of the global tx index g. */
export class TxModel {
  private readonly failResidue: number;
  /** JSON text of addressInfo(slot) for every pool slot (the pool is small and fixed). */
  private readonly addressInfoJson: string[];
  /** '","chainId":<id>,"blockIndex":' of this chain, as bytes. */
  private readonly chainIdBytes: Uint8Array;
  /** Per from slot: '","from":<addressInfo>,"to":'. */
  private readonly fromBytes: Uint8Array[];
  /** Per to slot: '<addressInfo>,"method":<method>,"value":"', for the slot's usual method and for a contract's creation. */
  private readonly toBytes: Uint8Array[];
  private readonly toCreationBytes: Uint8Array[];

  constructor(private readonly model: TxChainParts) {
    const { pool, tokens } = model;
    this.failResidue = hash32(model.chain.domain, K.fail) % FAIL_MODULUS;
    this.addressInfoJson = Array.from({ length: pool.P }, (_, slot) => JSON.stringify(this.addressInfo(slot)));
    this.chainIdBytes = asciiBytes(`","chainId":${model.chain.chainIdJson},"blockIndex":`);
    this.fromBytes = this.addressInfoJson.map((info) => asciiBytes(`","from":${info},"to":`));
    const toTail = (slot: number, method: string): Uint8Array => asciiBytes(`${this.addressInfoJson[slot]},"method":${method},"value":"`);
    this.toBytes = this.addressInfoJson.map((_, slot) =>
      toTail(slot, slot < pool.E ? NATIVE_METHOD_JSON : tokens[slot - pool.E].ercType === 'ERC-20' ? TRANSFER_METHOD_JSON : SAFE_TRANSFER_METHOD_JSON),
    );
    this.toCreationBytes = this.addressInfoJson.map((_, slot) => toTail(slot, CREATION_METHOD_JSON));
  }

  isFailed(g: number): boolean {
    return g % FAIL_MODULUS === this.failResidue && this.model.calledToken(g) < 0;
  }

  /** Largest failed tx index < x, or -1 (walks the 5% candidate progression). */
  prevFailed(x: number): number {
    let i = x <= this.failResidue ? -1 : this.failResidue + Math.floor((x - 1 - this.failResidue) / FAIL_MODULUS) * FAIL_MODULUS;
    while (i >= 0 && !this.isFailed(i)) i -= FAIL_MODULUS;
    return i;
  }

  get failResidueValue(): number {
    return this.failResidue;
  }

  /** Native value as a decimal string (strings are built directly: this is a hot path). */
  nativeValue(g: number): string {
    const d = this.model.chain.domain;
    if (this.model.calledToken(g) >= 0) return '0';
    // A few native values above 2^128 exercise lossless uint256 handling.
    if (unit(d, K.value, g, 9) < 0.01) return String((1n << 129n) + BigInt(hash32(d, K.value, g, 10)));
    // a * 10^14 + h with h < 2^32 < 10^14: exact without BigInt.
    return String(intIn(1, 50_000, d, K.value, g, 11)) + String(hash32(d, K.value, g, 12)).padStart(14, '0');
  }

  addressInfo(slot: number): EvmAddressInfo {
    const { pool, tokens } = this.model;
    if (slot < pool.E) return { address: pool.address(slot) };
    const t = tokens[slot - pool.E];
    return { address: t.address, name: t.name, symbol: t.symbol, decimals: t.decimals, logoUri: t.logoUri };
  }

  /** Gas fields in wei / gas units; all below 2^53, so plain numbers. */
  gas(
    g: number,
    block = this.model.chain.blockOf(g),
    baseFee = this.baseFee(block),
  ): { gasLimit: number; gasUsed: number; gasPrice: number; maxFee: number; maxPriority: number } {
    const d = this.model.chain.domain;
    const call = this.model.calledToken(g) >= 0;
    const gasLimit = call ? intIn(60_000, 300_000, d, K.gas, g, 1) : 21_000;
    const gasUsed = call ? Math.floor((gasLimit * intIn(60, 95, d, K.gas, g, 2)) / 100) : 21_000;
    const maxPriority = intIn(0, 3, d, K.gas, g, 3) * GWEI;
    const gasPrice = baseFee + maxPriority;
    return { gasLimit, gasUsed, gasPrice, maxFee: gasPrice + 10 * GWEI, maxPriority };
  }

  baseFee(block: number): number {
    return 25 * GWEI + (hash3(this.model.chain.domain, K.baseFee, block) % 5_000_000_000);
  }

  /** NativeTransaction of the interface, as JSON text (writeNative as a string; lists write into their page buffer). */
  nativeText(g: number): string {
    return spellText((w) => this.writeNative(w, g));
  }

  /**
   * Spells nativeText(g) into w, field by field (the same bytes as the template below, which
   * documents them): digits and hex go straight into the buffer, with no intermediate strings.
   * Every string field is digits or hex, and the nested objects are precomputed per pool slot.
   */
  writeNative(w: AsciiWriter, g: number): void {
    const { chain, pool } = this.model;
    const d = chain.domain;
    const block = chain.blockOf(g);
    const index = g - chain.txsBefore(block);
    const toSlot = pool.toSlot(g);
    const call = toSlot >= pool.E;
    w.bytes(F.blockNumber);
    w.uint(block);
    w.bytes(F.blockTimestamp);
    w.uint(chain.timestamp(block));
    w.bytes(F.blockHash);
    chain.writeBlockHashDigits(w, block);
    w.bytes(this.chainIdBytes);
    w.uint(index);
    w.bytes(F.txHash);
    chain.writeTxHashDigits(w, g);
    const failed = g % FAIL_MODULUS === this.failResidue && !call;
    w.bytes(F.statusType[(failed ? 2 : 0) + (hash3(d, K.txType, g) % 10 === 0 ? 1 : 0)]);
    // this.gas(g, block), without the object.
    const gasLimit = call ? intIn4(60_000, 300_000, d, K.gas, g, 1) : 21_000;
    const gasUsed = call ? Math.floor((gasLimit * intIn4(60, 95, d, K.gas, g, 2)) / 100) : 21_000;
    const gasPrice = this.baseFee(block) + intIn4(0, 3, d, K.gas, g, 3) * GWEI;
    w.uint(gasLimit);
    w.bytes(F.gasUsed);
    w.uint(gasUsed);
    w.bytes(F.gasPrice);
    w.uint(gasPrice);
    w.bytes(F.nonce);
    w.uint(Math.floor(g / pool.E));
    w.bytes(this.fromBytes[pool.fromSlot(g)]);
    // A contract's first call is its creation (its transfers are the initial mints).
    w.bytes(call && g < pool.P ? this.toCreationBytes[toSlot] : this.toBytes[toSlot]);
    // this.nativeValue(g)
    if (call) w.byte(48);
    else if (hash4(d, K.value, g, 9) / 4294967296 < 0.01) w.ascii(this.nativeValue(g));
    else {
      w.uint(intIn4(1, 50_000, d, K.value, g, 11));
      w.u32Padded(hash4(d, K.value, g, 12), 14);
    }
    w.bytes(F.end);
  }

  /** nativeText as a template (the reference spelling of writeNative; tests compare them). */
  nativeTemplate(g: number): string {
    const { chain, pool } = this.model;
    const { block, index } = chain.locate(g);
    const t = this.model.calledToken(g);
    const gas = this.gas(g, block);
    // A contract's first call is its creation (its transfers are the initial mints).
    const method =
      t < 0 ? NATIVE_METHOD_JSON : g < pool.P ? CREATION_METHOD_JSON : this.model.tokens[t].ercType === 'ERC-20' ? TRANSFER_METHOD_JSON : SAFE_TRANSFER_METHOD_JSON;
    return (
      `{"blockNumber":"${block}","blockTimestamp":${chain.timestamp(block)},"blockHash":"${chain.blockHash(block)}","chainId":${chain.chainIdJson},` +
      `"blockIndex":${index},"txHash":"${chain.txHash(g)}","txStatus":"${this.isFailed(g) ? '0' : '1'}","txType":${hash32(chain.domain, K.txType, g) % 10 === 0 ? 0 : 2},` +
      `"gasLimit":"${gas.gasLimit}","gasUsed":"${gas.gasUsed}","gasPrice":"${gas.gasPrice}","nonce":"${Math.floor(g / pool.E)}",` +
      `"from":${this.addressInfoJson[pool.fromSlot(g)]},"to":${this.addressInfoJson[pool.toSlot(g)]},"method":${method},"value":"${this.nativeValue(g)}"}`
    );
  }

  /** NativeTransaction of the interface as an object. */
  native(g: number): Record<string, unknown> {
    return JSON.parse(this.nativeText(g)) as Record<string, unknown>;
  }

  /** The single-transaction view: NativeTransaction plus input and fee fields. */
  nativeDetail(g: number): Record<string, unknown> {
    const gas = this.gas(g);
    const t = this.model.calledToken(g);
    const block = this.model.chain.blockOf(g);
    return {
      ...this.native(g),
      input: t < 0 ? '0x' : '0xa9059cbb' + hexBytes(64, this.model.chain.domain, K.txHash, g, 99),
      baseFeePerGas: String(this.baseFee(block)),
      maxFeePerGas: String(gas.maxFee),
      maxPriorityFeePerGas: String(gas.maxPriority),
    };
  }
}
