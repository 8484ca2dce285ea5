import { cb58Decode, cb58Encode, derive, encodeAddress } from './ids.ts';
import { AVAX_DENOMINATION, NETWORKS, type ChainAlias, type NetworkConstants, type NetworkName } from './chains.ts';
import { encodeUtxoBytes } from './utxoBytes.ts';
import type { AssetAmount, PnTransaction, Utxo, Vertex } from './types.ts';

/** Asset metadata; amounts are attached per use. */
export interface AssetInfo {
  assetId: string;
  name: string;
  symbol: string;
  denomination: number;
  type: string;
}

/** One output to create: who owns it, how much, and its locks. */
export interface OutputSpec {
  addresses: string[];
  amount: bigint;
  assetId?: string;
  threshold?: number;
  platformLocktime?: number;
  stakeableLocktime?: number;
  stake?: { start: number; end: number };
  rewardType?: Utxo['rewardType'];
  /** For exports: the chain whose shared memory (and UTXO list) receives the output. */
  exportTo?: ChainAlias;
}

/** What the ledger knows about a UTXO beyond its response shape. */
export interface UtxoRecord {
  utxo: Utxo;
  seq: number;
  /** The chain whose UTXO list shows it: the creating chain, or the destination of an export. */
  listedOn: ChainAlias;
  amount: bigint;
  /** Exported and not yet imported: it sits in the listed chain's atomic memory. */
  atomic: boolean;
}

export interface TxRecord {
  tx: PnTransaction;
  seq: number;
  chain: ChainAlias;
  /** Addresses (bare bech32, or 0x for C-chain EVM sides) the transaction touches. */
  addresses: Set<string>;
  utxoCount: number;
  l1ValidationIds: string[];
  /** C-chain atomic transactions: the EVM account debited (export) or credited (import). */
  evmAddress?: string;
  /** X-chain CreateAssetTx: the asset it created. */
  assetCreated?: string;
  /** X-chain transactions before linearization: the vertices that hold them (linear ones have none). */
  vertices?: { hash: string; height: number; timestamp: number }[];
}

/**
 * The primary-network ledger of one network: every UTXO and transaction ever created, with the
 * indexes the queries need. Transactions are created through `commitTx` only, which assigns blocks,
 * marks consumed UTXOs spent and indexes everything, so the derived views cannot drift apart.
 */
export class Ledger {
  readonly constants: NetworkConstants;
  readonly avax: AssetInfo;
  readonly assets = new Map<string, AssetInfo>();
  readonly utxos = new Map<string, UtxoRecord>();
  readonly utxosByChain: Record<ChainAlias, UtxoRecord[]> = { 'p-chain': [], 'x-chain': [], 'c-chain': [] };
  readonly utxosByAddress: Record<ChainAlias, Map<string, UtxoRecord[]>> = { 'p-chain': new Map(), 'x-chain': new Map(), 'c-chain': new Map() };
  readonly txs: Record<ChainAlias, TxRecord[]> = { 'p-chain': [], 'x-chain': [], 'c-chain': [] };
  readonly txByHash = new Map<string, TxRecord>();
  readonly vertices: Vertex[] = [];
  readonly heights: Record<ChainAlias, number> = { 'p-chain': 0, 'x-chain': 0, 'c-chain': 0 };
  /** Timestamp of each P-chain block by height (validator sets are looked up by P-chain height). */
  readonly pBlockTimes: number[] = [];
  /** Unspent, non-atomic UTXOs per chain and first owner: what a spender can select from. */
  private readonly unspentByOwner: Record<ChainAlias, Map<string, Set<UtxoRecord>>> = { 'p-chain': new Map(), 'x-chain': new Map(), 'c-chain': new Map() };
  /** Exported, not yet imported UTXOs per destination chain. */
  readonly atomicPending: Record<ChainAlias, Set<UtxoRecord>> = { 'p-chain': new Set(), 'x-chain': new Set(), 'c-chain': new Set() };
  private readonly addressBytes = new Map<string, Uint8Array>();
  private readonly idBytes = new Map<string, Uint8Array>();
  private blockOfStep: Partial<Record<ChainAlias, { number: string; hash: string }>> = {};
  private seq = 0;
  now = 0;

  constructor(
    readonly network: NetworkName,
    readonly seedLabel: string,
  ) {
    this.constants = NETWORKS[network];
    this.avax = { assetId: this.constants.avaxAssetId, name: 'Avalanche', symbol: 'AVAX', denomination: AVAX_DENOMINATION, type: 'secp256k1' };
    this.assets.set(this.avax.assetId, this.avax);
  }

  chainId(chain: ChainAlias): string {
    return this.constants.chainIds[chain];
  }

  newAddress(label: string): string {
    const payload = derive(`${this.seedLabel}:addr:${label}`, 20);
    const address = encodeAddress(this.constants.hrp, payload);
    this.addressBytes.set(address, payload);
    return address;
  }

  /** A fresh id (tx, block, subnet…) unique to this world and label. */
  newId(label: string): string {
    const bytes = derive(`${this.seedLabel}:${label}`, 32);
    const id = cb58Encode(bytes);
    this.idBytes.set(id, bytes);
    return id;
  }

  assetAmount(assetId: string, amount: bigint): AssetAmount {
    const a = this.assets.get(assetId)!;
    return { assetId, name: a.name, symbol: a.symbol, denomination: a.denomination, type: a.type, amount: amount.toString() };
  }

  /** Per-asset sums as AssetAmount[] (asset order of first appearance). */
  sums(entries: Iterable<{ assetId: string; amount: bigint }>): AssetAmount[] {
    const totals = new Map<string, bigint>();
    for (const e of entries) totals.set(e.assetId, (totals.get(e.assetId) ?? 0n) + e.amount);
    return [...totals].filter(([, v]) => v > 0n).map(([id, v]) => this.assetAmount(id, v));
  }

  /** Starts a new step at time t: transactions committed in it share one block per chain. */
  beginStep(t: number): void {
    this.now = t;
    this.blockOfStep = {};
  }

  /** P-chain height of the block the current step's transactions land in (allocating it). */
  pChainHeightOfStep(): number {
    return Number(this.block('p-chain').number);
  }

  private block(chain: ChainAlias): { number: string; hash: string } {
    let b = this.blockOfStep[chain];
    if (!b) {
      const height = this.heights[chain]++;
      if (chain === 'p-chain') this.pBlockTimes.push(this.now);
      // C-chain atomic transactions live in EVM blocks, which are far more numerous.
      const number = chain === 'c-chain' ? 30_000_000 + height * 7 : height;
      b = { number: String(number), hash: this.newId(`block:${chain}:${height}`) };
      this.blockOfStep[chain] = b;
    }
    return b;
  }

  /** Spendable (unspent, unlocked, not staked, not atomic) UTXOs of one owner, asset and chain at `now`. */
  spendable(chain: ChainAlias, owner: string, assetId: string, allowStakeableLocked = false): UtxoRecord[] {
    return [...(this.unspentByOwner[chain].get(owner) ?? [])].filter(
      (r) =>
        !r.utxo.staked &&
        r.utxo.assetId === assetId &&
        r.utxo.addresses[0] === owner &&
        r.utxo.platformLocktime <= this.now &&
        (allowStakeableLocked || r.utxo.stakeableLocktime <= this.now),
    );
  }

  /** Picks UTXOs covering `amount`; undefined when the owner cannot pay. */
  select(chain: ChainAlias, owner: string, assetId: string, amount: bigint, allowStakeableLocked = false): UtxoRecord[] | undefined {
    const picked: UtxoRecord[] = [];
    let total = 0n;
    for (const r of this.spendable(chain, owner, assetId, allowStakeableLocked)) {
      picked.push(r);
      total += r.amount;
      if (total >= amount) return picked;
    }
    return undefined;
  }

  /**
   * Creates a transaction: consumes `consumed`, emits `outputs` (in order, output index = position),
   * assigns the step's block of `chain`, and indexes it. `fields` supplies the type-specific fields.
   */
  commitTx(
    chain: ChainAlias,
    txType: string,
    consumed: UtxoRecord[],
    outputs: OutputSpec[],
    fields: Partial<PnTransaction> & { burned?: bigint; l1Burned?: bigint; extraAddresses?: string[]; l1ValidationIds?: string[]; evmAddress?: string },
  ): TxRecord {
    const seq = this.seq++;
    const txHash = this.newId(`tx:${chain}:${seq}`);
    const block = this.block(chain);
    const { burned = 0n, l1Burned = 0n, extraAddresses = [], l1ValidationIds = [], evmAddress, ...rest } = fields;
    for (const r of consumed) {
      r.utxo.consumingTxHash = txHash;
      // A P-chain block number, shown in the PChainUtxo shape: only a P-chain spend has one (an
      // export's UTXO spent on the X- or C-chain shows the spend's time, not another chain's height).
      if (chain === 'p-chain') r.utxo.consumingBlockNumber = block.number;
      r.utxo.consumingBlockTimestamp = this.now;
      r.atomic = false;
      this.atomicPending[r.listedOn].delete(r);
      this.unspentByOwner[r.listedOn].get(r.utxo.addresses[0])?.delete(r);
    }
    const emitted = outputs.map((o, i) => this.createUtxo(chain, txHash, i, o, block.number));
    const staked = outputs.filter((o) => o.stake).map((o) => ({ assetId: o.assetId ?? this.avax.assetId, amount: o.amount }));
    const tx: PnTransaction = {
      txHash,
      txType,
      blockTimestamp: this.now,
      blockNumber: block.number,
      blockHash: block.hash,
      consumedUtxos: consumed.map((r) => r.utxo),
      emittedUtxos: emitted.map((r) => r.utxo),
      value: this.sums(emitted.map((r) => ({ assetId: r.utxo.assetId, amount: r.amount }))),
      amountBurned: burned > 0n ? [this.assetAmount(this.avax.assetId, burned)] : [],
      amountStaked: this.sums(staked),
      amountL1ValidatorBalanceBurned: l1Burned > 0n ? [this.assetAmount(this.avax.assetId, l1Burned)] : [],
      memo: '',
      ...rest,
    };
    const addresses = new Set<string>(extraAddresses);
    for (const u of [...tx.consumedUtxos, ...tx.emittedUtxos]) for (const a of u.addresses) addresses.add(a);
    if (evmAddress !== undefined) addresses.add(evmAddress);
    const record: TxRecord = { tx, seq, chain, addresses, utxoCount: consumed.length + emitted.length, l1ValidationIds };
    if (evmAddress !== undefined) record.evmAddress = evmAddress;
    this.txs[chain].push(record);
    this.txByHash.set(txHash, record);
    return record;
  }

  private createUtxo(chain: ChainAlias, txHash: string, outputIndex: number, o: OutputSpec, blockNumber: string): UtxoRecord {
    const assetId = o.assetId ?? this.avax.assetId;
    const listedOn = o.exportTo ?? chain;
    const threshold = o.threshold ?? 1;
    const platformLocktime = o.platformLocktime ?? 0;
    const utxoIdBytes = derive(`${this.seedLabel}:utxo:${txHash}:${outputIndex}`, 32);
    const utxo: Utxo = {
      addresses: o.addresses,
      asset: this.assetAmount(assetId, o.amount),
      consumedOnChainId: this.chainId(listedOn),
      createdOnChainId: this.chainId(chain),
      utxoId: cb58Encode(utxoIdBytes),
      utxoBytes: encodeUtxoBytes({
        txId: this.bytesOfId(txHash),
        outputIndex,
        assetId: this.bytesOfId(assetId),
        amount: o.amount,
        locktime: platformLocktime,
        threshold,
        addresses: o.addresses.map((a) => this.addressBytes.get(a) ?? new Uint8Array(20)),
      }),
      amount: o.amount.toString(),
      assetId,
      blockNumber,
      blockTimestamp: this.now,
      platformLocktime,
      outputIndex,
      stakeableLocktime: o.stakeableLocktime ?? 0,
      staked: o.stake !== undefined,
      threshold,
      txHash,
      utxoType: o.stake ? 'STAKE' : 'TRANSFER',
    };
    if (o.rewardType) utxo.rewardType = o.rewardType;
    if (o.stake) {
      utxo.utxoStartTimestamp = o.stake.start;
      utxo.utxoEndTimestamp = o.stake.end;
    }
    const record: UtxoRecord = { utxo, seq: this.seq++, listedOn, amount: o.amount, atomic: o.exportTo !== undefined };
    this.utxos.set(utxo.utxoId, record);
    this.utxosByChain[listedOn].push(record);
    if (record.atomic) this.atomicPending[listedOn].add(record);
    else {
      let set = this.unspentByOwner[listedOn].get(o.addresses[0]);
      if (!set) this.unspentByOwner[listedOn].set(o.addresses[0], (set = new Set()));
      set.add(record);
    }
    const byAddress = this.utxosByAddress[listedOn];
    for (const a of o.addresses) {
      let list = byAddress.get(a);
      if (!list) byAddress.set(a, (list = []));
      list.push(record);
    }
    return record;
  }

  private bytesOfId(id: string): Uint8Array {
    let bytes = this.idBytes.get(id);
    if (!bytes) {
      bytes = cb58Decode(id) ?? new Uint8Array(32);
      this.idBytes.set(id, bytes);
    }
    return bytes;
  }
}
