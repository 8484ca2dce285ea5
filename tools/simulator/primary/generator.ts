import { BLS_TABLE_SIZE, BlsKey } from './blsKeys.ts';
import { type ChainAlias, PRIMARY_NETWORK_ID, type NetworkName } from './chains.ts';
import { derive, nodeIdFromBytes, toHex, cb58Encode } from './ids.ts';
import { Ledger, type OutputSpec, type TxRecord, type UtxoRecord } from './ledger.ts';
import type { L1ValidatorDetail } from './types.ts';
import type { Delegation, L1Validator, SubnetRecord, Validation } from './registry.ts';
import { Rng, seedFrom } from './rng.ts';
import { genesisData } from './genesisData.ts';

/**
 * Generates a network's primary-network history step by step: every transaction spends real UTXOs
 * of its owner and emits new ones through the ledger, staking creates validations that are rewarded
 * when they end, exports land in the destination's atomic memory until imported. `advance` keeps
 * going from where generation stopped, so growth is the same process as the initial history.
 */

export const AVAX = 1_000_000_000n;
const DAY = 86_400;
const START_TIME = 1_700_000_000;
const HISTORY_SPAN = 30 * DAY;
const TX_FEE = 1_000_000n;
const SUBNET_FEE = AVAX;
const MAX_VALIDATOR_WEIGHT = 3_000_000n * AVAX;
const SUBNET_EVM_VM_ID = 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy';
/** A non-EVM VM (its genesis is opaque bytes, sent as an encoded string); a cb58 id like every VM id. */
const CUSTOM_VM_ID = cb58Encode(derive('vm:simulated-custom-vm', 32));
/** Every other L1 weighs its validators in this unit, so weights above 2^53 occur in every world. */
const LARGE_WEIGHT_UNIT = 1n << 46n;

export interface GeneratorSize {
  addresses: number;
  steps: number;
  /** Primary-network nodes: nodes validate again after a validation ends, keeping NodeID and BLS key. */
  nodes: number;
  /**
   * Seconds per step (WorldSize.stepsPerDay): the initial history then ends at `endTime` and each
   * step is that long. Unset: the history spans 30 days from a fixed start, whatever its length.
   */
  clock?: { stepSeconds: number; endTime: number };
}

type Builder = () => TxRecord | undefined;

export class NetworkGenerator {
  readonly ledger: Ledger;
  readonly rng: Rng;
  readonly addresses: string[] = [];
  readonly evmAddresses: string[] = [];
  readonly validations: Validation[] = [];
  readonly delegations: Delegation[] = [];
  readonly subnets: SubnetRecord[] = [];
  readonly l1ByValidationId = new Map<string, L1Validator>();
  readonly customAssets: string[] = [];
  /** Staking periods not rewarded (or removed) yet: the only ones the per-step work looks at. */
  private open: { validations: Validation[]; delegations: Delegation[] } = { validations: [], delegations: [] };
  readonly stepSec: number;
  /** Time of the genesis allocation; step k happens at startTime + k * stepSec (plus jitter). */
  private readonly startTime: number;
  private step = 0;
  private readonly typesSeen = new Set<string>();
  private readonly builders: Record<string, { chain: ChainAlias; weight: number; build: Builder }>;
  private lastVertexHashes: string[] = [];
  /**
   * The X-chain is linearized after this step of the initial history: earlier X-chain transactions
   * sit in vertices (the non-linear format), later ones in blocks (linear); the DAG stops growing.
   */
  readonly xLinearAfterStep: number;
  private l1KeyCounter = 0;

  constructor(
    readonly network: NetworkName,
    seed: number,
    readonly size: GeneratorSize,
  ) {
    this.ledger = new Ledger(network, `${seed}:${network}`);
    this.rng = new Rng(seedFrom(`${seed}:${network}:primary`));
    this.stepSec = size.clock ? size.clock.stepSeconds : Math.max(60, Math.floor(HISTORY_SPAN / size.steps));
    this.startTime = size.clock ? size.clock.endTime - size.steps * size.clock.stepSeconds : START_TIME;
    this.xLinearAfterStep = Math.floor(size.steps / 2);
    this.builders = {
      'p:BaseTx': { chain: 'p-chain', weight: 6, build: () => this.baseTx('p-chain') },
      'p:ImportTx': { chain: 'p-chain', weight: 5, build: () => this.importTx('p-chain') },
      'p:ExportTx': { chain: 'p-chain', weight: 3, build: () => this.exportTx('p-chain') },
      'p:AddValidatorTx': { chain: 'p-chain', weight: 1, build: () => this.addValidator('AddValidatorTx') },
      'p:AddPermissionlessValidatorTx': { chain: 'p-chain', weight: 3, build: () => this.addValidator('AddPermissionlessValidatorTx') },
      'p:AddDelegatorTx': { chain: 'p-chain', weight: 2, build: () => this.addDelegator('AddDelegatorTx') },
      'p:AddPermissionlessDelegatorTx': { chain: 'p-chain', weight: 5, build: () => this.addDelegator('AddPermissionlessDelegatorTx') },
      'p:CreateSubnetTx': { chain: 'p-chain', weight: 0.5, build: () => this.createSubnet() },
      'p:CreateChainTx': { chain: 'p-chain', weight: 0.5, build: () => this.createChain() },
      // Right after the EVM chain, so a subnet gets its non-EVM chain before it may become an L1.
      'p:CreateChainTx:custom-vm': { chain: 'p-chain', weight: 0.2, build: () => this.createCustomVmChain() },
      'p:AddSubnetValidatorTx': { chain: 'p-chain', weight: 1, build: () => this.addSubnetValidator() },
      'p:RemoveSubnetValidatorTx': { chain: 'p-chain', weight: 0.3, build: () => this.removeSubnetValidator() },
      'p:TransferSubnetOwnershipTx': { chain: 'p-chain', weight: 0.2, build: () => this.transferSubnetOwnership() },
      'p:ConvertSubnetToL1Tx': { chain: 'p-chain', weight: 0.3, build: () => this.convertSubnetToL1() },
      'p:RegisterL1ValidatorTx': { chain: 'p-chain', weight: 0.6, build: () => this.registerL1Validator() },
      'p:IncreaseL1ValidatorBalanceTx': { chain: 'p-chain', weight: 0.6, build: () => this.increaseL1Balance() },
      'p:SetL1ValidatorWeightTx': { chain: 'p-chain', weight: 0.6, build: () => this.setL1Weight() },
      'p:DisableL1ValidatorTx': { chain: 'p-chain', weight: 0.2, build: () => this.disableL1Validator() },
      'x:BaseTx': { chain: 'x-chain', weight: 8, build: () => this.baseTx('x-chain') },
      'x:CreateAssetTx': { chain: 'x-chain', weight: 0.5, build: () => this.createAsset() },
      'x:OperationTx': { chain: 'x-chain', weight: 1, build: () => this.operationTx() },
      'x:ImportTx': { chain: 'x-chain', weight: 4, build: () => this.importTx('x-chain') },
      'x:ExportTx': { chain: 'x-chain', weight: 4, build: () => this.exportTx('x-chain') },
      'c:ImportTx': { chain: 'c-chain', weight: 4, build: () => this.importTx('c-chain') },
      'c:ExportTx': { chain: 'c-chain', weight: 4, build: () => this.exportTx('c-chain') },
    };
    this.genesis();
    this.advance(size.steps);
    this.completeValidationStatuses();
  }

  get now(): number {
    return this.ledger.now;
  }

  /** Appends `steps` more steps of history. */
  advance(steps: number): void {
    for (let i = 0; i < steps; i++) this.runStep();
  }

  private runStep(): void {
    this.step++;
    const t = this.startTime + this.step * this.stepSec + this.rng.int(0, Math.floor(this.stepSec / 3));
    this.ledger.beginStep(t);
    const xBefore = this.ledger.txs['x-chain'].length;
    this.rewardEnded();
    const wanted = this.rng.int(1, 5);
    let made = 0;
    // Types not seen yet go first, so even a tiny world holds every transaction type.
    for (const key of Object.keys(this.builders)) {
      if (made >= wanted) break;
      if (!this.typesSeen.has(key) && this.tryBuild(key)) made++;
    }
    for (let attempts = 0; made < wanted && attempts < wanted * 4; attempts++) {
      const key = this.rng.weighted(Object.entries(this.builders).map(([k, b]) => [k, b.weight] as const));
      if (this.tryBuild(key)) made++;
    }
    if (this.step <= this.xLinearAfterStep) this.buildVertices(this.ledger.txs['x-chain'].slice(xBefore));
  }

  /**
   * The validator list answers every validationStatus in its own shape, and every world (tiny
   * included) must show each one: a short history can end with no validation starting later or
   * none removed. Its last step then adds what is missing (a validator starting within two days; a
   * subnet validator and its removal). Worlds that have both are left exactly as they were.
   */
  private completeValidationStatuses(): void {
    for (let i = 0; i < 20 && !this.validations.some((v) => v.start > this.now && !v.removeTx); i++) this.addValidator('AddPermissionlessValidatorTx', true);
    for (let i = 0; i < 20 && !this.validations.some((v) => v.removeTx); i++) {
      const removable = this.open.validations.some((v) => v.subnetId !== PRIMARY_NETWORK_ID && !v.removeTx && v.end > this.now);
      if (removable) this.removeSubnetValidator();
      else if (!this.addSubnetValidator() && !this.subnets.some((s) => !s.l1 && s.chains.length > 0)) {
        if (!this.subnets.some((s) => !s.l1 && s.chains.length < 2)) this.createSubnet();
        this.createChain();
      }
    }
  }

  private tryBuild(key: string): boolean {
    const record = this.builders[key].build();
    if (record) this.typesSeen.add(key);
    return record !== undefined;
  }

  /** Ids that exist in this history, for test and demo configs. */
  describe(): Record<string, unknown> {
    const active = (a: string) => (['p-chain', 'x-chain', 'c-chain'] as ChainAlias[]).reduce((n, c) => n + (this.ledger.utxosByAddress[c].get(a)?.length ?? 0), 0);
    return {
      hrp: this.ledger.constants.hrp,
      chainIds: this.ledger.constants.chainIds,
      headTimestamp: this.now,
      pChainHeight: this.ledger.heights['p-chain'] - 1,
      addresses: this.addresses.filter((a) => active(a) > 0),
      evmAddresses: this.evmAddresses,
      nodeIds: [...new Set(this.validations.filter((v) => v.subnetId === PRIMARY_NETWORK_ID).map((v) => v.nodeId))],
      subnetIds: this.subnets.map((s) => s.subnetId),
      l1SubnetIds: this.subnets.filter((s) => s.l1).map((s) => s.subnetId),
      l1ValidationIds: [...this.l1ByValidationId.keys()],
      assetIds: [this.ledger.avax.assetId, ...this.customAssets],
      counts: {
        transactions: Object.fromEntries((['p-chain', 'x-chain', 'c-chain'] as ChainAlias[]).map((c) => [c, this.ledger.txs[c].length])),
        utxos: this.ledger.utxos.size,
        validations: this.validations.length,
        delegations: this.delegations.length,
        vertices: this.ledger.vertices.length,
      },
    };
  }

  // ---------- funding ----------

  private genesis(): void {
    this.ledger.beginStep(this.startTime);
    for (let i = 0; i < this.size.addresses; i++) {
      this.addresses.push(this.ledger.newAddress(String(i)));
      this.evmAddresses.push(toHex(derive(`${this.ledger.seedLabel}:evm:${i}`, 20)));
    }
    const pOutputs: OutputSpec[] = [];
    const xOutputs: OutputSpec[] = [];
    for (const a of this.addresses) {
      for (let k = 0; k < 3; k++) pOutputs.push({ addresses: [a], amount: this.rng.bigint(5_000n, 100_000n) * AVAX });
      if (this.rng.chance(0.3)) {
        pOutputs.push({ addresses: [a], amount: this.rng.bigint(2_000n, 20_000n) * AVAX, stakeableLocktime: this.startTime + this.rng.int(60, 400) * DAY });
      }
      for (let k = 0; k < 3; k++) xOutputs.push({ addresses: [a], amount: this.rng.bigint(100n, 10_000n) * AVAX });
    }
    this.ledger.commitTx('p-chain', 'BaseTx', [], pOutputs, { memo: 'genesis allocation' });
    this.ledger.commitTx('x-chain', 'BaseTx', [], xOutputs, { memo: 'genesis allocation' });
    this.buildVertices(this.ledger.txs['x-chain']);
  }

  /**
   * Spends from `owner` on `chain` to cover `outputs` plus `burned` (AVAX), on top of any
   * `preConsumed` inputs; change returns to the owner (keeping a stakeable lock if locked funds paid).
   */
  private pay(
    chain: ChainAlias,
    txType: string,
    owner: string,
    outputs: OutputSpec[],
    burned: bigint,
    fields: Parameters<Ledger['commitTx']>[4] = {},
    opts: { preConsumed?: UtxoRecord[]; allowStakeableLocked?: boolean; l1Burned?: bigint; minted?: OutputSpec[] } = {},
  ): TxRecord | undefined {
    const avaxId = this.ledger.avax.assetId;
    const need = new Map<string, bigint>();
    const add = (asset: string, v: bigint) => need.set(asset, (need.get(asset) ?? 0n) + v);
    for (const o of outputs) add(o.assetId ?? avaxId, o.amount);
    add(avaxId, burned + (opts.l1Burned ?? 0n));
    const consumed = [...(opts.preConsumed ?? [])];
    for (const r of consumed) add(r.utxo.assetId, -r.amount);
    const change: OutputSpec[] = [];
    for (const [asset, amount] of need) {
      if (amount < 0n) {
        const lock = Math.max(0, ...consumed.filter((r) => r.utxo.assetId === asset).map((r) => r.utxo.stakeableLocktime));
        change.push({ addresses: [owner], amount: -amount, assetId: asset, stakeableLocktime: lock > this.now ? lock : undefined });
        continue;
      }
      if (amount === 0n) continue;
      const picked = this.ledger.select(chain, owner, asset, amount, opts.allowStakeableLocked);
      if (!picked) return undefined;
      consumed.push(...picked);
      const total = picked.reduce((s, r) => s + r.amount, 0n);
      const lock = Math.max(0, ...picked.map((r) => r.utxo.stakeableLocktime));
      if (total > amount) change.push({ addresses: [owner], amount: total - amount, assetId: asset, stakeableLocktime: lock > this.now ? lock : undefined });
    }
    return this.ledger.commitTx(chain, txType, consumed, [...outputs, ...(opts.minted ?? []), ...change], { ...fields, burned, l1Burned: opts.l1Burned });
  }

  private randomAddress(): string {
    return this.rng.pick(this.addresses);
  }

  /** An owner with some spendable AVAX on the chain, or undefined. */
  private funded(chain: ChainAlias, min: bigint): string | undefined {
    for (let i = 0; i < 6; i++) {
      const a = this.randomAddress();
      const total = this.ledger.spendable(chain, a, this.ledger.avax.assetId).reduce((s, r) => s + r.amount, 0n);
      if (total >= min) return a;
    }
    return undefined;
  }

  // ---------- transfers ----------

  private baseTx(chain: 'p-chain' | 'x-chain'): TxRecord | undefined {
    const useAsset = chain === 'x-chain' && this.customAssets.length > 0 && this.rng.chance(0.3);
    const owner = this.funded(chain, 2n * AVAX);
    if (!owner) return undefined;
    const to = this.randomAddress();
    let output: OutputSpec;
    if (useAsset) {
      const assetId = this.rng.pick(this.customAssets);
      const held = this.ledger.spendable(chain, owner, assetId).reduce((s, r) => s + r.amount, 0n);
      if (held === 0n) return undefined;
      output = { addresses: [to], amount: held / 2n + 1n, assetId };
    } else {
      const available = this.ledger.spendable(chain, owner, this.ledger.avax.assetId).reduce((s, r) => s + r.amount, 0n);
      const amount = this.rng.bigint(1n, 1_000_000n) * (available / 4_000_000n) + 1n;
      output = { addresses: [to], amount };
      // Some P-chain transfers are time-locked: they show as lockedPlatform until the lock passes.
      if (chain === 'p-chain' && this.rng.chance(0.15)) output.platformLocktime = this.now + this.rng.int(1, 10) * DAY;
      if (this.rng.chance(0.1)) output.addresses = [to, this.randomAddress()].filter((a, i, all) => all.indexOf(a) === i);
    }
    return this.pay(chain, 'BaseTx', owner, [output], TX_FEE, { memo: this.rng.chance(0.2) ? toHex(new TextEncoder().encode(`payment ${this.step}`)) : '' });
  }

  private exportTx(chain: ChainAlias): TxRecord | undefined {
    const destinations: ChainAlias[] = (['p-chain', 'x-chain', 'c-chain'] as ChainAlias[]).filter((c) => c !== chain);
    const dest = this.rng.pick(destinations);
    const recipient = this.randomAddress();
    const amount = this.rng.bigint(1n, 500n) * AVAX;
    const locked = this.rng.chance(0.1) ? this.now + this.rng.int(1, 3) * DAY : undefined;
    const out: OutputSpec = { addresses: [recipient], amount, exportTo: dest, platformLocktime: locked };
    const fields = { sourceChain: this.ledger.chainId(chain), destinationChain: this.ledger.chainId(dest) };
    if (chain === 'c-chain') {
      // C-chain exports spend EVM balance, which has no UTXOs: nothing consumed, the fee is burned.
      const evm = this.rng.pick(this.evmAddresses);
      return this.ledger.commitTx('c-chain', 'ExportTx', [], [out], { ...fields, burned: TX_FEE, evmAddress: evm });
    }
    const owner = this.funded(chain, amount + TX_FEE);
    if (!owner) return undefined;
    return this.pay(chain, 'ExportTx', owner, [out], TX_FEE, fields);
  }

  private importTx(chain: ChainAlias): TxRecord | undefined {
    const waiting = [...this.ledger.atomicPending[chain]].filter((r) => r.utxo.platformLocktime <= this.now && r.amount > TX_FEE);
    if (waiting.length === 0) return undefined;
    const first = this.rng.pick(waiting);
    const batch = waiting.filter((r) => r.utxo.addresses[0] === first.utxo.addresses[0] && r.utxo.createdOnChainId === first.utxo.createdOnChainId).slice(0, 4);
    const owner = first.utxo.addresses[0];
    const total = batch.reduce((s, r) => s + r.amount, 0n);
    const fields = { sourceChain: first.utxo.createdOnChainId, destinationChain: this.ledger.chainId(chain) };
    if (chain === 'c-chain') {
      // Imported value is credited to an EVM account: nothing is emitted as a UTXO.
      const evm = this.evmAddresses[this.addresses.indexOf(owner)] ?? this.evmAddresses[0];
      return this.ledger.commitTx('c-chain', 'ImportTx', batch, [], { ...fields, burned: TX_FEE, evmAddress: evm });
    }
    return this.pay(chain, 'ImportTx', owner, [{ addresses: [owner], amount: total - TX_FEE }], TX_FEE, fields, { preConsumed: batch });
  }

  private createAsset(): TxRecord | undefined {
    const owner = this.funded('x-chain', 2n * AVAX);
    if (!owner) return undefined;
    const n = this.customAssets.length;
    const assetId = this.ledger.newId(`asset:${n}`);
    const symbol = `SIM${n}`;
    this.ledger.assets.set(assetId, { assetId, name: `Simulated Asset ${n}`, symbol, denomination: this.rng.int(0, 9), type: 'secp256k1' });
    const supply = this.rng.bigint(1_000n, 1_000_000_000n);
    // The new asset is minted here: its outputs have no inputs of the same asset.
    const record = this.pay('x-chain', 'CreateAssetTx', owner, [], TX_FEE, { memo: toHex(new TextEncoder().encode(symbol)) }, {
      minted: [{ addresses: [owner], amount: supply, assetId }],
    });
    if (!record) {
      this.ledger.assets.delete(assetId);
      return undefined;
    }
    this.customAssets.push(assetId);
    record.assetCreated = assetId;
    return record;
  }

  private operationTx(): TxRecord | undefined {
    if (this.customAssets.length === 0) return undefined;
    const assetId = this.rng.pick(this.customAssets);
    const holder = this.addresses.find((a) => this.ledger.spendable('x-chain', a, assetId).length > 0);
    if (!holder) return undefined;
    const [input] = this.ledger.spendable('x-chain', holder, assetId);
    const half = input.amount / 2n;
    const outs: OutputSpec[] = [{ addresses: [this.randomAddress()], amount: input.amount - half, assetId }];
    if (half > 0n) outs.push({ addresses: [holder], amount: half, assetId });
    return this.pay('x-chain', 'OperationTx', holder, outs, TX_FEE, {}, { preConsumed: [input] });
  }

  // ---------- staking ----------

  private minValidatorStake(): bigint {
    return this.network === 'mainnet' ? 2_000n * AVAX : AVAX;
  }

  private duration(): number {
    return this.network === 'mainnet' ? this.rng.int(14, 28) * DAY : this.rng.int(1, 14) * DAY;
  }

  private addValidator(txType: 'AddValidatorTx' | 'AddPermissionlessValidatorTx', pending = false): TxRecord | undefined {
    const owner = this.randomAddress();
    const min = this.minValidatorStake();
    const stake = min + this.rng.bigint(0n, 8_000n) * (min / 2_000n || AVAX);
    // Prefer locked-stakeable funds when the owner has them: that is what they are for.
    const locked = this.ledger.spendable('p-chain', owner, this.ledger.avax.assetId, true).filter((r) => r.utxo.stakeableLocktime > this.now);
    const useLocked = locked.reduce((s, r) => s + r.amount, 0n) >= stake;
    let start = pending || this.rng.chance(0.2) ? this.now + this.rng.int(3_600, 2 * DAY) : this.now;
    let end = start + this.duration();
    const open = this.open.validations.filter((v) => v.subnetId === PRIMARY_NETWORK_ID);
    const busy = new Set(open.map((v) => v.nodeId));
    let free = this.nodeIds().filter((n) => !busy.has(n));
    if (free.length === 0 && pending && open.length > 0) {
      // Every node validates now: the one whose validation ends first registers its next, to start after it.
      const first = open.reduce((a, b) => (b.end < a.end ? b : a));
      const shift = Math.max(0, first.end + 1 - start);
      start += shift;
      end += shift;
      free = [first.nodeId];
    }
    if (free.length === 0) return undefined;
    const nodeId = this.rng.pick(free);
    const feePercent = this.rng.pick([2, 2, 3, 5, 7.5, 10, 12.5, 20, 50, 100]);
    const rewardAddresses = [this.rng.chance(0.7) ? owner : this.randomAddress()];
    const reward = estimatedReward(stake, end - start);
    const lock = useLocked ? Math.max(...locked.map((r) => r.utxo.stakeableLocktime)) : undefined;
    const blsKey = txType === 'AddPermissionlessValidatorTx' ? BlsKey.ofIndex(this.nodeIds().indexOf(nodeId)) : undefined;
    const fields = {
      nodeId,
      subnetId: PRIMARY_NETWORK_ID,
      startTimestamp: start,
      endTimestamp: end,
      delegationFeePercent: String(feePercent),
      estimatedReward: reward.toString(),
      rewardAddresses,
    };
    const record = this.pay(
      'p-chain',
      txType,
      owner,
      [{ addresses: [owner], amount: stake, stake: { start, end }, stakeableLocktime: lock }],
      0n,
      fields,
      { preConsumed: useLocked ? locked : [], allowStakeableLocked: useLocked },
    );
    if (!record) return undefined;
    if (blsKey) lazyField(record.tx, 'blsCredentials', () => blsKey.credentials);
    const validation: Validation = {
      tx: record,
      nodeId,
      subnetId: PRIMARY_NETWORK_ID,
      stake,
      start,
      end,
      feePercent,
      rewardAddresses,
      reward,
      delegations: [],
      delegated: 0n,
      delegationFees: 0n,
      paidDelegationFees: 0n,
      uptime: Math.round((85 + this.rng.next() * 15) * 100) / 100,
      blsKey,
    };
    this.validations.push(validation);
    this.open.validations.push(validation);
    return record;
  }

  private nodePool?: string[];

  private nodeIds(): string[] {
    this.nodePool ??= Array.from({ length: this.size.nodes }, (_, i) => nodeIdFromBytes(derive(`${this.ledger.seedLabel}:node:${i}`, 20)));
    return this.nodePool;
  }

  private addDelegator(txType: 'AddDelegatorTx' | 'AddPermissionlessDelegatorTx'): TxRecord | undefined {
    const candidates = this.open.validations.filter((v) => v.subnetId === PRIMARY_NETWORK_ID && v.end - Math.max(v.start, this.now) > DAY);
    if (candidates.length === 0) return undefined;
    const v = this.rng.pick(candidates);
    const capacity = delegationCapacity(v);
    const minStake = this.network === 'mainnet' ? 25n * AVAX : AVAX;
    if (capacity < minStake) return undefined;
    const owner = this.funded('p-chain', minStake);
    if (!owner) return undefined;
    const stake = minStake + this.rng.bigint(0n, 2_000n) * (capacity - minStake) / 2_000n / 4n;
    const start = Math.max(this.now, v.start);
    const end = Math.min(v.end, start + this.rng.int(1, 14) * DAY);
    const gross = estimatedReward(stake, end - start);
    const fee = (gross * BigInt(Math.round((v.feePercent ?? 2) * 100))) / 10_000n;
    const rewardAddresses = [owner];
    const record = this.pay('p-chain', txType, owner, [{ addresses: [owner], amount: stake, stake: { start, end } }], 0n, {
      nodeId: v.nodeId,
      subnetId: PRIMARY_NETWORK_ID,
      startTimestamp: start,
      endTimestamp: end,
      estimatedReward: (gross - fee).toString(),
      rewardAddresses,
    });
    if (!record) return undefined;
    const d: Delegation = { tx: record, nodeId: v.nodeId, validation: v, stake, start, end, rewardAddresses, reward: gross - fee, fee };
    v.delegations.push(d);
    v.delegated += stake;
    v.delegationFees += d.fee;
    this.delegations.push(d);
    this.open.delegations.push(d);
    return record;
  }

  /** Issues a RewardValidatorTx for every staking period that has ended (delegations before their validator). */
  private rewardEnded(): void {
    const due: (Delegation | Validation)[] = [
      ...this.open.delegations.filter((d) => d.end <= this.now),
      ...this.open.validations.filter((v) => v.subnetId === PRIMARY_NETWORK_ID && v.end <= this.now),
    ];
    this.open.delegations = this.open.delegations.filter((d) => d.end > this.now);
    // Subnet validations leave the open set when they end or are removed; they are not rewarded.
    this.open.validations = this.open.validations.filter((v) => v.end > this.now && !v.removeTx);
    due.sort((a, b) => a.end - b.end || ('validation' in a ? 0 : 1) - ('validation' in b ? 0 : 1));
    for (const s of due) this.reward(s);
  }

  private reward(s: Delegation | Validation): void {
    const stakeUtxos = s.tx.tx.emittedUtxos.filter((u) => u.staked).map((u) => this.ledger.utxos.get(u.utxoId)!);
    const returned: OutputSpec[] = stakeUtxos.map((r) => ({
      addresses: r.utxo.addresses,
      amount: r.amount,
      stakeableLocktime: r.utxo.stakeableLocktime || undefined,
    }));
    const rewards: OutputSpec[] = [];
    if ('validation' in s) {
      rewards.push({ addresses: s.rewardAddresses, amount: s.reward, rewardType: 'DELEGATOR' });
      if (s.fee > 0n) rewards.push({ addresses: s.validation.rewardAddresses, amount: s.fee, rewardType: 'VALIDATOR_FEE' });
    } else {
      rewards.push({ addresses: s.rewardAddresses, amount: s.reward, rewardType: 'VALIDATOR' });
    }
    const record = this.ledger.commitTx('p-chain', 'RewardValidatorTx', stakeUtxos, [...returned, ...rewards], {
      stakingTxHash: s.tx.tx.txHash,
      nodeId: s.nodeId,
      subnetId: PRIMARY_NETWORK_ID,
    });
    s.rewardTx = record;
    s.tx.tx.rewardTxHash = record.tx.txHash;
    if ('validation' in s) s.validation.paidDelegationFees += s.fee;
  }

  // ---------- subnets and L1s ----------

  /** L1s are few on the real networks; the cap also bounds the BLS keys the world uses. */
  private maxL1s(): number {
    return Math.max(2, Math.floor(this.size.nodes / 40));
  }

  /** L1 validator keys follow the primary nodes' keys in the key table. */
  private nextL1KeyIndex(): number {
    const span = Math.max(1, BLS_TABLE_SIZE - this.size.nodes);
    return this.size.nodes + (this.l1KeyCounter++ % span);
  }

  private createSubnet(): TxRecord | undefined {
    if (this.subnets.length >= this.maxL1s() * 3) return undefined;
    const owner = this.funded('p-chain', SUBNET_FEE * 2n);
    if (!owner) return undefined;
    const record = this.pay('p-chain', 'CreateSubnetTx', owner, [], SUBNET_FEE, {
      subnetOwnershipInfo: { locktime: 0, threshold: 1, addresses: [owner] },
    });
    if (!record) return undefined;
    record.tx.subnetId = record.tx.txHash;
    this.subnets.push({ subnetId: record.tx.txHash, owner, createTx: record, chains: [] });
    return record;
  }

  private createChain(): TxRecord | undefined {
    const subnet = this.subnets.find((s) => s.chains.length < 2 && !s.l1);
    if (!subnet) return undefined;
    const chainName = `simchain${this.subnets.indexOf(subnet)}${subnet.chains.length}`;
    const evmChainId = 100_000 + this.subnets.indexOf(subnet) * 10 + subnet.chains.length;
    const record = this.pay('p-chain', 'CreateChainTx', subnet.owner, [], SUBNET_FEE, {
      subnetId: subnet.subnetId,
      blockchainInfo: { chainName, vmId: SUBNET_EVM_VM_ID, genesisData: genesisData(evmChainId, this.now, this.rng.pick(this.evmAddresses)) },
    });
    if (!record) return undefined;
    subnet.chains.push({ blockchainId: record.tx.txHash, chainName });
    return record;
  }

  /** A second chain of a subnet running a non-EVM VM: its genesis is bytes, sent as a hex string. */
  private createCustomVmChain(): TxRecord | undefined {
    const subnet = this.subnets.find((s) => s.chains.length === 1 && !s.l1);
    if (!subnet) return undefined;
    const chainName = `simvm${this.subnets.indexOf(subnet)}${subnet.chains.length}`;
    const genesis = toHex(derive(`${this.ledger.seedLabel}:genesis:${chainName}`, 48));
    const record = this.pay('p-chain', 'CreateChainTx', subnet.owner, [], SUBNET_FEE, {
      subnetId: subnet.subnetId,
      blockchainInfo: { chainName, vmId: CUSTOM_VM_ID, genesisData: genesis },
    });
    if (!record) return undefined;
    subnet.chains.push({ blockchainId: record.tx.txHash, chainName });
    return record;
  }

  private addSubnetValidator(): TxRecord | undefined {
    const subnet = this.subnets.find((s) => !s.l1 && s.chains.length > 0 && this.rng.chance(0.7));
    const primary = this.open.validations.filter((v) => v.subnetId === PRIMARY_NETWORK_ID && v.end > this.now + DAY);
    if (!subnet || primary.length === 0) return undefined;
    const host = this.rng.pick(primary);
    if (this.open.validations.some((v) => v.subnetId === subnet.subnetId && v.nodeId === host.nodeId)) return undefined;
    const start = Math.max(this.now, host.start);
    const end = Math.min(host.end, start + this.rng.int(1, 10) * DAY);
    const weight = BigInt(this.rng.int(1, 100)) * 1_000n;
    const record = this.pay('p-chain', 'AddSubnetValidatorTx', subnet.owner, [], TX_FEE, {
      nodeId: host.nodeId,
      subnetId: subnet.subnetId,
      startTimestamp: start,
      endTimestamp: end,
    });
    if (!record) return undefined;
    const validation: Validation = { tx: record, nodeId: host.nodeId, subnetId: subnet.subnetId, stake: weight, start, end, rewardAddresses: [], reward: 0n, delegations: [], delegated: 0n, delegationFees: 0n, paidDelegationFees: 0n, uptime: host.uptime };
    this.validations.push(validation);
    this.open.validations.push(validation);
    return record;
  }

  private removeSubnetValidator(): TxRecord | undefined {
    const candidates = this.open.validations.filter((v) => v.subnetId !== PRIMARY_NETWORK_ID && !v.removeTx && v.end > this.now);
    if (candidates.length === 0) return undefined;
    const v = this.rng.pick(candidates);
    const owner = this.subnets.find((s) => s.subnetId === v.subnetId)!.owner;
    const record = this.pay('p-chain', 'RemoveSubnetValidatorTx', owner, [], TX_FEE, { nodeId: v.nodeId, subnetId: v.subnetId });
    if (record) v.removeTx = record;
    return record;
  }

  private transferSubnetOwnership(): TxRecord | undefined {
    const subnet = this.subnets.find((s) => !s.l1);
    if (!subnet) return undefined;
    const newOwner = this.randomAddress();
    const record = this.pay('p-chain', 'TransferSubnetOwnershipTx', subnet.owner, [], TX_FEE, {
      subnetId: subnet.subnetId,
      subnetOwnershipInfo: { locktime: 0, threshold: 1, addresses: [newOwner] },
    });
    if (record) subnet.owner = newOwner;
    return record;
  }

  private newL1Validator(subnetId: string, index: number, weight: bigint, balance: bigint): L1Validator {
    const idBytes = derive(`${this.ledger.seedLabel}:l1val:${subnetId}:${index}`, 32);
    const nodeId = nodeIdFromBytes(derive(`${this.ledger.seedLabel}:l1node:${subnetId}:${index}`, 20));
    return {
      validationId: cb58Encode(idBytes),
      validationIdHex: toHex(idBytes),
      nodeId,
      subnetId,
      blsKey: BlsKey.ofIndex(this.nextL1KeyIndex()),
      weights: [{ height: this.ledger.pChainHeightOfStep(), weight }],
      balance,
      // One validator in six is offline: signature aggregation must work around it.
      online: index % 6 !== 5,
    };
  }

  private detail(v: L1Validator, balanceChange: bigint): L1ValidatorDetail {
    const d: Omit<L1ValidatorDetail, 'blsCredentials'> = {
      validationId: v.validationId,
      validationIdHex: v.validationIdHex,
      nodeId: v.nodeId,
      subnetId: v.subnetId,
      weight: v.weights[v.weights.length - 1].weight,
      remainingBalance: v.balance,
      balanceChange,
    };
    lazyField(d, 'blsCredentials', () => v.blsKey.credentials);
    return d as L1ValidatorDetail;
  }

  private convertSubnetToL1(): TxRecord | undefined {
    const subnet = this.subnets.find((s) => !s.l1 && s.chains.length > 0);
    if (!subnet || this.subnets.filter((s) => s.l1).length >= this.maxL1s()) return undefined;
    const count = this.rng.int(3, 6);
    const weightUnit = this.subnets.filter((s) => s.l1).length % 2 === 0 ? LARGE_WEIGHT_UNIT : 1n;
    const validators = Array.from({ length: count }, (_, i) => this.newL1Validator(subnet.subnetId, i, this.l1Weight(weightUnit), BigInt(this.rng.int(1, 10) * 1_000_000_000)));
    const contractAddress = toHex(derive(`${this.ledger.seedLabel}:vmc:${subnet.subnetId}`, 20));
    const managerChainId = subnet.chains[0].blockchainId;
    const l1Burned = validators.reduce((s, v) => s + v.balance, 0n);
    const record = this.pay(
      'p-chain',
      'ConvertSubnetToL1Tx',
      subnet.owner,
      [],
      TX_FEE,
      {
        subnetId: subnet.subnetId,
        l1ValidatorManagerDetails: { blockchainId: managerChainId, contractAddress },
        l1ValidatorDetails: validators.map((v) => this.detail(v, v.balance)) ,
        l1ValidationIds: validators.map((v) => v.validationId),
      },
      { l1Burned },
    );
    if (!record) return undefined;
    subnet.l1 = { convertTx: record, managerChainId, contractAddress, validators, weightUnit };
    for (const v of validators) this.l1ByValidationId.set(v.validationId, v);
    return record;
  }

  private l1Weight(unit: bigint): bigint {
    return BigInt(this.rng.int(10, 1000) * 100) * unit;
  }

  private l1Op(pick: (l1s: SubnetRecord[]) => { subnet: SubnetRecord; v?: L1Validator } | undefined, txType: string, change: (subnet: SubnetRecord, v: L1Validator | undefined) => { v: L1Validator; l1Burned: bigint; balanceChange: bigint } | undefined): TxRecord | undefined {
    const l1s = this.subnets.filter((s) => s.l1);
    if (l1s.length === 0) return undefined;
    const picked = pick(l1s);
    if (!picked) return undefined;
    const payer = this.funded('p-chain', 20n * AVAX);
    if (!payer) return undefined;
    const planned = change(picked.subnet, picked.v);
    if (!planned) return undefined;
    const record = this.pay(
      'p-chain',
      txType,
      payer,
      [],
      TX_FEE,
      { subnetId: picked.subnet.subnetId, nodeId: planned.v.nodeId, l1ValidatorDetails: [this.detail(planned.v, planned.balanceChange)] , l1ValidationIds: [planned.v.validationId] },
      { l1Burned: planned.l1Burned },
    );
    return record;
  }

  private activeL1(l1s: SubnetRecord[]): { subnet: SubnetRecord; v: L1Validator } | undefined {
    const subnet = this.rng.pick(l1s);
    const live = subnet.l1!.validators.filter((v) => v.disabledAtHeight === undefined);
    return live.length > 1 ? { subnet, v: this.rng.pick(live) } : undefined;
  }

  private registerL1Validator(): TxRecord | undefined {
    const room = (l1s: SubnetRecord[]) => l1s.filter((s) => s.l1!.validators.length < 12);
    return this.l1Op((l1s) => (room(l1s).length > 0 ? { subnet: this.rng.pick(room(l1s)) } : undefined), 'RegisterL1ValidatorTx', (subnet) => {
      const balance = BigInt(this.rng.int(1, 5) * 1_000_000_000);
      const v = this.newL1Validator(subnet.subnetId, subnet.l1!.validators.length, this.l1Weight(subnet.l1!.weightUnit), balance);
      subnet.l1!.validators.push(v);
      this.l1ByValidationId.set(v.validationId, v);
      return { v, l1Burned: balance, balanceChange: balance };
    });
  }

  private increaseL1Balance(): TxRecord | undefined {
    return this.l1Op((l1s) => this.activeL1(l1s), 'IncreaseL1ValidatorBalanceTx', (_s, v) => {
      const add = BigInt(this.rng.int(1, 3) * 1_000_000_000);
      v!.balance += add;
      return { v: v!, l1Burned: add, balanceChange: add };
    });
  }

  private setL1Weight(): TxRecord | undefined {
    return this.l1Op((l1s) => this.activeL1(l1s), 'SetL1ValidatorWeightTx', (s, v) => {
      v!.weights.push({ height: this.ledger.pChainHeightOfStep(), weight: this.l1Weight(s.l1!.weightUnit) });
      return { v: v!, l1Burned: 0n, balanceChange: 0n };
    });
  }

  private disableL1Validator(): TxRecord | undefined {
    // Only L1s with more than three live validators lose one, so L1s keep a usable signing set.
    const roomy = (l1s: SubnetRecord[]) => l1s.filter((s) => s.l1!.validators.filter((v) => v.disabledAtHeight === undefined).length > 3);
    return this.l1Op((l1s) => (roomy(l1s).length > 0 ? this.activeL1(roomy(l1s)) : undefined), 'DisableL1ValidatorTx', (_s, v) => {
      v!.disabledAtHeight = this.ledger.pChainHeightOfStep();
      return { v: v!, l1Burned: 0n, balanceChange: 0n };
    });
  }

  // ---------- vertices ----------

  /** The X-chain transactions of one step form one DAG height, split over one or two vertices. */
  private buildVertices(txs: TxRecord[]): void {
    if (txs.length === 0) return;
    const height = this.ledger.vertices.length === 0 ? 0 : this.ledger.vertices[this.ledger.vertices.length - 1].vertexHeight + 1;
    const groups = txs.length > 1 && this.rng.chance(0.5) ? [txs.slice(0, Math.ceil(txs.length / 2)), txs.slice(Math.ceil(txs.length / 2))] : [txs];
    const hashes: string[] = [];
    for (const group of groups) {
      const vertexIndex = this.ledger.vertices.length;
      const vertexHash = this.ledger.newId(`vertex:${vertexIndex}`);
      hashes.push(vertexHash);
      for (const r of group) (r.vertices ??= []).push({ hash: vertexHash, height, timestamp: group[0].tx.blockTimestamp });
      this.ledger.vertices.push({
        vertexHash,
        parentHashes: [...this.lastVertexHashes],
        vertexHeight: height,
        vertexIndex,
        vertexTimestamp: group[0].tx.blockTimestamp,
        txCount: group.length,
        transactions: group.map((r) => r.tx.txHash),
        vertexSizeBytes: 120 + group.reduce((s, r) => s + 200 + 120 * r.utxoCount, 0),
      });
    }
    this.lastVertexHashes = hashes;
  }
}

/** About 8% a year on the stake, pro rata. */
export function estimatedReward(stake: bigint, seconds: number): bigint {
  return (stake * 8n * BigInt(seconds)) / (100n * 365n * BigInt(DAY));
}

/** How much more may be delegated: up to 4x own stake, total weight capped at 3M AVAX. */
export function delegationCapacity(v: Validation): bigint {
  if (v.subnetId !== PRIMARY_NETWORK_ID) return 0n;
  const delegated = v.delegated;
  const max = v.stake * 4n < MAX_VALIDATOR_WEIGHT - v.stake ? v.stake * 4n : MAX_VALIDATOR_WEIGHT - v.stake;
  return max > delegated ? max - delegated : 0n;
}

/** Defines an enumerable property computed on first read (BLS work is expensive and often unused). */
function lazyField(target: object, key: string, compute: () => unknown): void {
  let value: unknown;
  let done = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        value = compute();
        done = true;
      }
      return value;
    },
  });
}
