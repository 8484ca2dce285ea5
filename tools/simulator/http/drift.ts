import { exactJsonText, exactJsonValue } from './exactJson.ts';
import { JsonSpan, parsedItem } from './jsonText.ts';
import { AsciiWriter } from './asciiWriter.ts';
import type { RouteDef } from './route.ts';
import { EVM_CHAIN_SPECS } from '../evm/chain.ts';

/**
 * Schema drift (issue 27): from step `fromStep` of the world on, the service changes under a
 * running pipeline, deterministically per seed (each change is a function of the seed and the
 * item's identity: its id keys, so a later version of an item drifts the same way):
 * - every item of every list gains two unknown fields at the top, `driftLabel` (a string) and
 *   `driftDetail` (an object holding a string and an integer beyond 2^64, as a bare JSON literal),
 *   and, where the item holds a nested object, that object gains `driftNested` (a string);
 * - enums gain values: some P-/X-/C-chain BaseTx transactions become `AutoRenewL1ValidatorTx`, some
 *   completed validators `archived`;
 * - an optional field disappears: EVM blocks stop sending `gasCost`;
 * - known fields change type on one EVM chain (DRIFT_TYPE_CHAIN): blocks' `blockTimestamp` becomes
 *   an ISO date string (number to string), transactions' `from` an array (object to array);
 * - the chain list (`GET /v1/chains`) lists one more chain (DRIFT_CHAIN).
 * Ground truth shows the same drift, so a warehouse that keeps what was sent equals it.
 */
export interface DriftOptions {
  /** World step from which the changes are served (0: from the start). */
  fromStep: number;
  /** Include the type changes (default true); without them no partition stops. */
  typeChanges?: boolean;
}

/** The EVM chain whose blocks and transactions change type under drift (the last chain of the world). */
export const DRIFT_TYPE_CHAIN = EVM_CHAIN_SPECS[EVM_CHAIN_SPECS.length - 1].chainId;
/** The chain the chain list gains under drift. */
export const DRIFT_CHAIN = { chainId: '777001', chainName: 'Drift L1', network: 'mainnet', blockchainId: '2DriftL1BlockchainIdDriftL1BlockchainIdDriftL1Bx' } as const;
export const DRIFT_TX_TYPE = 'AutoRenewL1ValidatorTx';
export const DRIFT_VALIDATION_STATUS = 'archived';
/** driftDetail.big of an item: 2^64 * 1000 + its hash, so always beyond 2^64. */
const BIG_BASE = (1n << 64n) * 1000n;

const PN_TRANSACTIONS = '/v1/networks/:network/blockchains/:blockchainId/transactions';
const VALIDATORS = '/v1/networks/:network/validators';
const EVM_BLOCKS = '/v1/chains/:chainId/blocks';
const EVM_TRANSACTIONS = '/v1/chains/:chainId/transactions';
const CHAINS = '/v1/chains';

export class DriftInjector {
  constructor(
    private readonly seed: number,
    private options: DriftOptions | undefined,
    private readonly steps: () => number,
  ) {}

  /** Changes the drift (undefined: none from now on; tests switch it off as an upgrade of the pipeline would accept it). */
  set(options: DriftOptions | undefined): void {
    this.options = options;
  }

  get active(): boolean {
    return this.options !== undefined && this.steps() >= this.options.fromStep;
  }

  /** A route's result with drift applied (a new object; the result itself is not touched). */
  apply(route: RouteDef, params: Record<string, string>, result: unknown): unknown {
    if (!this.active || result === null || typeof result !== 'object') return result;
    if (route.path === CHAINS) return { ...(result as Record<string, unknown>), chains: [...((result as { chains: unknown[] }).chains ?? []), { ...DRIFT_CHAIN, status: 'OK', isTestnet: false, vmName: 'EVM' }] };
    if (!route.list) return result;
    const key = route.list.itemsKey;
    const items = (result as Record<string, unknown>)[key];
    if (!Array.isArray(items) || items.length === 0) return result;
    const w = new AsciiWriter(1024 * items.length);
    const out = items.map((item: unknown) => {
      const text = item instanceof JsonSpan ? item.json : exactJsonText(item);
      const value = withBigInts(structuredClone(parsedItem(item)), bareBigIntegers(text)) as Record<string, unknown>;
      this.change(route.path, params, value, hash(this.seed, identityOf(value) ?? text));
      if (w.pos > 0) w.byte(44);
      const start = w.pos;
      w.ascii(exactJsonText(value));
      return new JsonSpan(w, start, w.pos, exactJsonValue(value));
    });
    return { ...(result as Record<string, unknown>), [key]: out };
  }

  private change(path: string, params: Record<string, string>, item: Record<string, unknown>, h: number): void {
    item.driftLabel = `label-${h.toString(36)}`;
    item.driftDetail = { note: `note-${h.toString(36)}`, big: BIG_BASE + BigInt(h) };
    for (const k in item) {
      const v = item[k];
      if (k !== 'driftDetail' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        (v as Record<string, unknown>).driftNested = `nested-${h.toString(36)}`;
        break;
      }
    }
    if (path === PN_TRANSACTIONS && item.txType === 'BaseTx' && h % 2 === 0) item.txType = DRIFT_TX_TYPE;
    if (path === VALIDATORS && item.validationStatus === 'completed' && h % 2 === 0) item.validationStatus = DRIFT_VALIDATION_STATUS;
    if (path === EVM_BLOCKS) delete item.gasCost;
    if (this.options?.typeChanges === false) return;
    if (params.chainId === DRIFT_TYPE_CHAIN || params.chainId === blockchainIdOf(DRIFT_TYPE_CHAIN)) {
      if (path === EVM_BLOCKS && typeof item.blockTimestamp === 'number') item.blockTimestamp = new Date(item.blockTimestamp * 1000).toISOString();
      if (path === EVM_TRANSACTIONS && item.from !== null && typeof item.from === 'object') item.from = [item.from];
    }
  }
}

const blockchainIdOf = (chainId: string) => EVM_CHAIN_SPECS.find((c) => c.chainId === chainId)?.blockchainId;

/** Keys that name an item across its versions (a UTXO gets spent, a validator's stake changes: the drift stays the same). */
const IDENTITY_KEYS = ['utxoId', 'txHash', 'blockHash', 'vertexHash', 'nodeId', 'tokenId', 'address', 'blockNumber'];

function identityOf(item: Record<string, unknown>): string | undefined {
  const parts = IDENTITY_KEYS.filter((k) => typeof item[k] === 'string' || typeof item[k] === 'number').map((k) => `${k}=${String(item[k])}`);
  return parts.length > 0 ? parts.join(',') : undefined;
}

/** FNV-1a of the seed and the text: a 24-bit hash. */
function hash(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h & 0xffffff;
}

/** Bare integer literals beyond 2^53 in a JSON text (a lossless parse holds them as their digits). */
function bareBigIntegers(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/[:[,](-?\d{16,})(?=[,\]}])/g)) if (!Number.isSafeInteger(Number(m[1]))) out.add(m[1]);
  return out;
}

/** Strings that were bare big integers become bigints again (written back as bare literals). */
function withBigInts(value: unknown, bare: Set<string>): unknown {
  if (bare.size === 0) return value;
  if (typeof value === 'string') return bare.has(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map((v) => withBigInts(v, bare));
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k in o) o[k] = withBigInts(o[k], bare);
  }
  return value;
}
