import { ApiError } from './apiError.ts';

export type Tier = 'none' | 'free' | 'base' | 'growth' | 'pro';
export const TIERS: readonly Tier[] = ['none', 'free', 'base', 'growth', 'pro'];

export interface ApiKey {
  key: string;
  tier: Tier;
  revoked?: boolean;
}

export interface Client {
  /** Rate-limit identity: the key, or the client IP for keyless requests. */
  id: string;
  tier: Tier;
  keyed: boolean;
}

export const API_KEY_HEADER = 'x-service-api-key';

/** `x-service-api-key`: unknown key 401, revoked key 403, no key = tier 'none'. */
export class Authenticator {
  private readonly keys: Map<string, ApiKey>;

  constructor(keys: ApiKey[] = []) {
    this.keys = new Map(keys.map((k) => [k.key, k]));
  }

  identify(header: string | string[] | undefined, ip: string): Client {
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') return { id: `ip:${ip}`, tier: 'none', keyed: false };
    const entry = this.keys.get(key);
    if (!entry) throw new ApiError(401, 'Invalid API key');
    if (entry.revoked) throw new ApiError(403, 'API key revoked');
    return { id: `key:${key}`, tier: entry.tier, keyed: true };
  }
}
