import { badRequest } from './apiError.ts';
import { bech32Decode, cb58Decode } from '../world/ids.ts';

/**
 * Validation helpers shared by every route. Each rejects a bad value with 400 and a message that
 * names the parameter, so clients (and tests) can tell which input was wrong.
 */

export type Network = 'mainnet' | 'fuji' | 'testnet';
const INT = /^-?\d+$/;
const NUM = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

export function pageSize(query: URLSearchParams, opts: { def: number; max: number }): number {
  const raw = query.get('pageSize');
  if (raw === null || raw === '') return opts.def;
  const n = Number(raw);
  if (!INT.test(raw) || n < 1 || n > opts.max) {
    throw badRequest(`pageSize must be an integer between 1 and ${opts.max}`);
  }
  return n;
}

/** Optional integer parameter within [min, max]; undefined when absent. */
export function intParam(query: URLSearchParams, name: string, opts: { min?: number; max?: number } = {}): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!INT.test(raw) || !Number.isSafeInteger(n)) throw badRequest(`${name} must be an integer`);
  if (opts.min !== undefined && n < opts.min) throw badRequest(`${name} must be >= ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw badRequest(`${name} must be <= ${opts.max}`);
  return n;
}

/** Optional number parameter within [min, max]. */
export function numberParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!NUM.test(raw) || !Number.isFinite(n) || n < min || n > max) {
    throw badRequest(`${name} must be a number between ${min} and ${max}`);
  }
  return n;
}

/** Optional non-negative integer carried as a decimal string (may exceed 2^53). */
export function bigIntParam(query: URLSearchParams, name: string, opts: { min?: bigint; max?: bigint } = {}): bigint | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be a non-negative integer string`);
  const n = BigInt(raw);
  if (opts.min !== undefined && n < opts.min) throw badRequest(`${name} must be >= ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw badRequest(`${name} must be <= ${opts.max}`);
  return n;
}

export function boolParam(query: URLSearchParams, name: string, def: boolean): boolean {
  const raw = query.get(name);
  if (raw === null || raw === '') return def;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`${name} must be true or false`);
}

export function enumParam<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!(values as readonly string[]).includes(raw)) throw badRequest(`${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

export function requiredString(query: URLSearchParams, name: string): string {
  const raw = query.get(name);
  if (raw === null || raw === '') throw badRequest(`${name} is required`);
  return raw;
}

/** Comma-separated list; [] when absent. */
export function listParam(query: URLSearchParams, name: string): string[] {
  const raw = query.get(name);
  if (raw === null || raw === '') return [];
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

/** Path parameter `network`; fuji and testnet denote the same network and normalize to 'fuji'. */
export function network(params: Record<string, string>): 'mainnet' | 'fuji' {
  const n = params.network;
  if (n === 'mainnet') return 'mainnet';
  if (n === 'fuji' || n === 'testnet') return 'fuji';
  throw badRequest('network must be one of mainnet, fuji, testnet');
}

export const hrpOf = (net: 'mainnet' | 'fuji'): string => (net === 'mainnet' ? 'avax' : 'fuji');

/**
 * A primary-network address in bare, `P-` or `X-` form, for the given network; returns it bare.
 * Throws 400 naming `name` when the prefix, hrp, checksum or length is wrong.
 */
export function bech32Address(value: string, name: string, net: 'mainnet' | 'fuji'): string {
  const bare = value.startsWith('P-') || value.startsWith('X-') || value.startsWith('C-') ? value.slice(2) : value;
  const decoded = bech32Decode(bare);
  if (!decoded || decoded.hrp !== hrpOf(net) || decoded.payload.length !== 20) {
    throw badRequest(`${name}: invalid address format "${value}"`);
  }
  return bare;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export function isEvmAddress(value: string): boolean {
  return EVM_ADDRESS.test(value);
}

/** 0x EVM address, returned lower-case. */
export function evmAddress(value: string, name: string): string {
  if (!EVM_ADDRESS.test(value)) throw badRequest(`${name}: invalid address format "${value}"`);
  return value.toLowerCase();
}

/** 0x transaction hash (32 bytes), returned lower-case. */
export function txHash(value: string, name = 'txHash'): string {
  if (!TX_HASH.test(value)) throw badRequest(`${name}: invalid transaction hash "${value}"`);
  return value.toLowerCase();
}

/** `NodeID-` + cb58 of 20 bytes. */
export function nodeId(value: string, name = 'nodeId'): string {
  const payload = value.startsWith('NodeID-') ? cb58Decode(value.slice(7)) : null;
  if (!payload || payload.length !== 20) throw badRequest(`${name}: invalid node id "${value}"`);
  return value;
}

/** A cb58 id (tx, UTXO, block, asset, blockchain): 32-byte payload. */
export function cb58Id(value: string, name: string): string {
  const payload = cb58Decode(value);
  if (!payload || payload.length !== 32) throw badRequest(`${name}: invalid id "${value}"`);
  return value;
}
