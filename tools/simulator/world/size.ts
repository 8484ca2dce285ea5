/**
 * World sizes. Everything is computed from indices, so size costs no memory: a 10M-block world
 * uses the same RAM as a tiny one. Fields used by the primary-network half live here too.
 */
export interface WorldSize {
  /** C-chain mainnet height at step 0; other EVM chains are fractions of it. */
  evmBlocks: number;
  /** Transactions per block are 0..maxTxsPerBlock. */
  maxTxsPerBlock: number;
  /** Pool of EVM externally-owned addresses; global tx i involves pool addresses by index arithmetic. */
  evmAddresses: number;
  /** Token contracts per EVM chain. */
  erc20Tokens: number;
  erc721Tokens: number;
  erc1155Tokens: number;
  /** Primary-network scale (owned by the primary-network half; free to tune there). */
  pnTxsPerChain: number;
  pnAddresses: number;
  validators: number;
  vertices: number;
  /**
   * Day-scale clocks (the nights benchmark): world steps per day of chain time. Unset, EVM blocks
   * are 2 s apart and the primary-network history spans 30 days, whatever its length. Set, every
   * chain's clock moves 86,400 / stepsPerDay seconds per step (one EVM block per chain, one
   * primary-network step per network), both histories end at WORLD_TIP_TIME, and advancing by
   * stepsPerDay steps is one day of activity on every chain (`POST /admin/advance {days}`).
   */
  stepsPerDay?: number;
}

/** Epoch seconds of the EVM tip at step 0, for every size (timestamps never depend on the wall clock). */
export const WORLD_TIP_TIME = 1_763_000_000;

/** Seconds of chain time per world step when the size sets stepsPerDay (undefined: the default clocks). */
export function stepSeconds(size: Pick<WorldSize, 'stepsPerDay'>): number | undefined {
  const n = size.stepsPerDay;
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < 1 || 86_400 % n !== 0 || 86_400 / n < 2) {
    throw new Error(`stepsPerDay must be a whole divisor of 86400 with steps of at least 2 s, got ${n}`);
  }
  return 86_400 / n;
}

export type WorldSizeName = 'tiny' | 'small' | 'mainnet-like';

export const WORLD_SIZES: Record<WorldSizeName, WorldSize> = {
  tiny: {
    evmBlocks: 300, maxTxsPerBlock: 4, evmAddresses: 12, erc20Tokens: 2, erc721Tokens: 1, erc1155Tokens: 1,
    pnTxsPerChain: 200, pnAddresses: 8, validators: 20, vertices: 100,
  },
  small: {
    evmBlocks: 5000, maxTxsPerBlock: 6, evmAddresses: 200, erc20Tokens: 4, erc721Tokens: 2, erc1155Tokens: 2,
    pnTxsPerChain: 3000, pnAddresses: 50, validators: 200, vertices: 2000,
  },
  // Sized so a full backfill of every stream at simulator speed takes a minute or two.
  'mainnet-like': {
    evmBlocks: 20_000, maxTxsPerBlock: 8, evmAddresses: 400, erc20Tokens: 6, erc721Tokens: 2, erc1155Tokens: 2,
    pnTxsPerChain: 30_000, pnAddresses: 300, validators: 1500, vertices: 20_000,
  },
};

export function resolveSize(size: WorldSizeName | Partial<WorldSize> | undefined): WorldSize {
  if (size === undefined) return { ...WORLD_SIZES.small };
  if (typeof size === 'string') {
    const preset = WORLD_SIZES[size];
    if (!preset) throw new Error(`unknown world size "${size}" (sizes: ${Object.keys(WORLD_SIZES).join(', ')})`);
    return { ...preset };
  }
  const resolved = { ...WORLD_SIZES.small, ...size };
  stepSeconds(resolved); // a bad stepsPerDay fails here, before any part is built
  return resolved;
}
