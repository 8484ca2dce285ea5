import { exactJsonText, exactJsonValue } from './exactJson.ts';
import { JsonSpan, parsedItem } from './jsonText.ts';
import { AsciiWriter } from './asciiWriter.ts';
import type { RouteDef } from './route.ts';
import { EVM_CHAIN_SPECS } from '../evm/chain.ts';

/**
 * Schema drift (issue 27): from step `fromStep` of the world on, the service changes under a
 * running pipeline, deterministically per seed (each change is a function of the seed and the
 * item's identity: its id keys, so a later version of an item drifts the same way):
 * - every item of every list, and the resource a get answers (GET_RESOURCES), gains two unknown
 *   fields at the top, `driftLabel` (a string) and `driftDetail` (an object holding a string and an
 *   integer beyond 2^64, as a bare JSON literal), and, where it holds a nested object, that object
 *   gains `driftNested` (a string);
 * - every object entry of a list inside an item or a get's body (transfers of a detail, UTXOs of a
 *   transaction, balance entries, ...) gains `driftEntry` (an object holding a string unique to the
 *   entry and an integer beyond 2^64);
 * - enums gain values: every enumeration of the interface (DRIFT_ENUM_VALUES) takes a new value in
 *   half the objects that carry it; some BaseTx transactions become `AutoRenewL1ValidatorTx`, some
 *   completed validations `archived`, and some active ones are listed `paused` until they complete;
 * - an optional field disappears: EVM blocks stop sending `gasCost`;
 * - known fields change type on one EVM chain (DRIFT_TYPE_CHAIN): blocks' `blockTimestamp` becomes
 *   an ISO date string (number to string), transactions' `from` an array (object to array);
 * - the chain list (`GET /v1/chains`) lists one more chain (DRIFT_CHAIN).
 * Ground truth shows the same drift, so a warehouse that keeps what was sent equals it. The changes
 * are made to the answers, after the world picked the items: a filter by status still matches the
 * status the world holds (a `paused` validation is listed by `validationStatus=active`).
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
/** The status some active validations are listed in under drift (a status the interface does not name, not final). */
export const DRIFT_PAUSED_STATUS = 'paused';
/**
 * A new value for each enumeration of the interface (spec/real-api-facts.md, "Enumerations"), by
 * the key that carries it: sent instead of the known value in half the objects that carry the key,
 * wherever they sit in the item (top level, nested objects, list entries). `txType` and `validationStatus`
 * change as above instead (their new values stand for values the world also uses).
 */
export const DRIFT_ENUM_VALUES: Readonly<Record<string, string>> = {
  chainFormat: 'non-linear-v2',
  rewardType: 'L1_VALIDATOR_FEE',
  utxoType: 'LOCKED',
  type: 'propertyfx',
  ercType: 'ERC-404',
  tokenReputation: 'Suspicious',
  indexStatus: 'REINDEXING',
  callType: 'SYSTEM_CALL',
  internalTxType: 'EXTCALL',
  direction: 'RELAY_TRANSACTION',
};
/** driftDetail.big of an item: 2^64 * 1000 + its hash, so always beyond 2^64. */
const BIG_BASE = (1n << 64n) * 1000n;

/**
 * Get routes whose body describes one resource: where it sits ('' the body itself). The balances
 * route answers lists only: their entries drift, as list entries do.
 */
const GET_RESOURCES: Readonly<Record<string, string | null>> = {
  '/v1/chains/:chainId/transactions/:txHash': '',
  '/v1/chains/:chainId/nfts/collections/:address/tokens/:tokenId': '',
  '/v1/chains/:chainId/addresses/:address/balances:getNative': 'nativeTokenBalance',
  '/v1/networks/:network/blockchains/:blockchainId/balances': null,
};

/** List routes that send a resource beside their items (the ERC balance lists' nativeTokenBalance): it drifts as the get of it does. */
const BESIDE: Readonly<Record<string, string>> = {
  '/v1/chains/:chainId/addresses/:address/balances:listErc20': 'nativeTokenBalance',
  '/v1/chains/:chainId/addresses/:address/balances:listErc721': 'nativeTokenBalance',
  '/v1/chains/:chainId/addresses/:address/balances:listErc1155': 'nativeTokenBalance',
};

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
    if (!route.list) return Object.hasOwn(GET_RESOURCES, route.path) ? this.applyToBody(route.path, params, result as Record<string, unknown>) : result;
    const key = route.list.itemsKey;
    const beside = BESIDE[route.path];
    const body = beside !== undefined && (result as Record<string, unknown>)[beside] != null ? { ...(result as Record<string, unknown>), [beside]: spanOf(this.resource(route.path, params, (result as Record<string, unknown>)[beside])) } : result;
    const items = (body as Record<string, unknown>)[key];
    if (!Array.isArray(items) || items.length === 0) return body;
    const w = new AsciiWriter(1024 * items.length);
    const out = items.map((item: unknown) => {
      const { value, text } = exact(item) as { value: Record<string, unknown>; text: string };
      const h = hash(this.seed, identityOf(value) ?? text);
      this.change(route.path, params, value, h);
      driftEntries(value, h);
      if (w.pos > 0) w.byte(44);
      const start = w.pos;
      w.ascii(exactJsonText(value));
      return new JsonSpan(w, start, w.pos, exactJsonValue(value));
    });
    return { ...(body as Record<string, unknown>), [key]: out };
  }

  /** A resource (a get's, or one beside a list) changed as an item is, hashed by its own text: the same resource drifts the same way wherever it is sent. */
  private resource(path: string, params: Record<string, string>, value: unknown): Record<string, unknown> {
    const { value: resource, text } = exact(value) as { value: Record<string, unknown>; text: string };
    const h = hash(this.seed, identityOf(resource) ?? text);
    this.change(path, params, resource, h);
    driftEntries(resource, h);
    return resource;
  }

  /** A get's body: its resource changes as a list item does, the entries of its lists as list entries do. */
  private applyToBody(path: string, params: Record<string, string>, body: Record<string, unknown>): Record<string, unknown> {
    const at = GET_RESOURCES[path];
    const changed = at === '' ? this.resource(path, params, body) : body;
    // Top-level fields as spans: the response writer inserts them verbatim (bigints as exact integer literals).
    return Object.fromEntries(
      Object.entries(changed).map(([k, v]) => {
        if (v === null || typeof v !== 'object' || at === '') return [k, v === null || typeof v !== 'object' ? v : spanOf(v)];
        if (k === at) return [k, spanOf(this.resource(path, params, v))];
        const { value, text } = exact(v);
        newEnumValues(value, this.seed);
        driftEntries(value, hash(this.seed, text), k);
        return [k, spanOf(value)];
      }),
    );
  }

  private change(path: string, params: Record<string, string>, item: Record<string, unknown>, h: number): void {
    // First, while the item is as sent: an object's choice depends on its own text.
    newEnumValues(item, this.seed);
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
    if (path === VALIDATORS && item.validationStatus === 'active' && h % 4 === 1) item.validationStatus = DRIFT_PAUSED_STATUS;
    if (path === EVM_BLOCKS) delete item.gasCost;
    if (this.options?.typeChanges === false) return;
    if (params.chainId === DRIFT_TYPE_CHAIN || params.chainId === blockchainIdOf(DRIFT_TYPE_CHAIN)) {
      if (path === EVM_BLOCKS && typeof item.blockTimestamp === 'number') item.blockTimestamp = new Date(item.blockTimestamp * 1000).toISOString();
      if (path === EVM_TRANSACTIONS && item.from !== null && typeof item.from === 'object') item.from = [item.from];
    }
  }
}

/**
 * A handler's value as a plain value to change (bigints where the service sends bare integer
 * literals) and its JSON text. Handlers put spans (pre-serialized items) at the top level of a body
 * or in its lists: their text holds the bare big integers.
 */
function exact(v: unknown): { value: unknown; text: string } {
  if (v instanceof JsonSpan) return { value: withBigInts(structuredClone(parsedItem(v)), bareBigIntegers(v.json)), text: v.json };
  const spans = (x: unknown) => x instanceof JsonSpan || (Array.isArray(x) && x.some((y) => y instanceof JsonSpan));
  if (v === null || typeof v !== 'object' || !(Array.isArray(v) ? spans(v) : Object.values(v).some(spans))) {
    const text = exactJsonText(v);
    return { value: withBigInts(structuredClone(v), bareBigIntegers(text)), text };
  }
  if (Array.isArray(v)) {
    const parts = v.map(exact);
    return { value: parts.map((p) => p.value), text: `[${parts.map((p) => p.text).join(',')}]` };
  }
  const parts = Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, exact(x)] as const);
  return { value: Object.fromEntries(parts.map(([k, p]) => [k, p.value])), text: `{${parts.map(([k, p]) => `${JSON.stringify(k)}:${p.text}`).join(',')}}` };
}

/** A value as a span of its exact JSON text (bigints as bare integer literals), which the response writer inserts verbatim. */
function spanOf(value: unknown): JsonSpan {
  const w = new AsciiWriter(1024);
  w.ascii(exactJsonText(value));
  return new JsonSpan(w, 0, w.pos, exactJsonValue(value));
}

/** Every object entry of a list anywhere in `value` gains `driftEntry` (its note names the entry's place, so each is unique). */
function driftEntries(value: unknown, h: number, path = ''): void {
  if (Array.isArray(value)) {
    value.forEach((entry: unknown, i) => {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
      driftEntries(entry, h, `${path}[${i}]`);
      (entry as Record<string, unknown>).driftEntry = { note: `entry-${h.toString(36)}-${path}[${i}]`, big: BIG_BASE + BigInt(h) };
    });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) if (v !== null && typeof v === 'object') driftEntries(v, h, path ? `${path}.${k}` : k);
}

/**
 * Enumeration values anywhere in `value` replaced by their new value (DRIFT_ENUM_VALUES), in half the
 * objects that carry one: chosen by the object's own identity (or text, as sent), so an object sent
 * by two endpoints (a UTXO listed, and in its transaction) drifts the same way in both.
 */
function newEnumValues(value: unknown, seed: number): void {
  if (Array.isArray(value)) {
    for (const v of value) newEnumValues(v, seed);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => typeof o[k] === 'string' && Object.hasOwn(DRIFT_ENUM_VALUES, k));
  if (keys.length > 0 && hash(seed, identityOf(o) ?? exactJsonText(o)) % 2 === 0) for (const k of keys) o[k] = DRIFT_ENUM_VALUES[k];
  for (const k in o) newEnumValues(o[k], seed);
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
