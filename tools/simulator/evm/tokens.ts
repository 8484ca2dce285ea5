import { hash32, intIn, unit } from '../world/hash.ts';
import type { WorldSize } from '../world/size.ts';
import type { AddressPool } from './addressPool.ts';
import { countInProgression } from './addressPool.ts';
import { K, ZERO_ADDRESS } from './chain.ts';

export type ErcType = 'ERC-20' | 'ERC-721' | 'ERC-1155';

export interface TokenContract {
  /** Index among the chain's contracts (pool slot E + t). */
  t: number;
  address: string;
  ercType: ErcType;
  name: string;
  symbol: string;
  decimals: number;
  logoUri: string;
  tokenReputation: 'Malicious' | 'Benign' | null;
  /** Transfers emitted by each call of the contract. */
  perCall: number;
  /**
   * ERC-1155 contracts whose calls emit one TransferBatch event: the call's perCall entries share its
   * log index, sender and receiver, one entry per token id (coins is a multiple of perCall, so a
   * batch's units have distinct ids and the units it sends were received by one earlier batch).
   */
  batch: boolean;
  /** Units ("coins") that circulate; see TokenLedger. */
  coins: number;
  /** Residue of the txs that call this contract (g ≡ residue mod P). */
  residue: number;
  /** USD price of one whole token (ERC-20). */
  priceUsd: number;
}

export interface TransferRecord {
  /** Ordinal of the transfer within its contract's stream. */
  k: number;
  /** Global tx index carrying it, and its log index in that tx. */
  g: number;
  logIndex: number;
  from: string;
  to: string;
  /** Coin moved: ERC-20 amount, ERC-721 token id, ERC-1155 token id + amount. */
  coin: number;
  value: bigint;
  tokenId: string | null;
}

const NAMES = ['Glacier', 'Summit', 'Avalanche Dollar', 'Snowflake', 'Crevasse', 'Cornice', 'Serac', 'Moraine', 'Firn', 'Nunatak'];

export function buildTokens(size: WorldSize, domain: number, pool: AddressPool): TokenContract[] {
  const kinds: ErcType[] = [
    ...Array<ErcType>(size.erc20Tokens).fill('ERC-20'),
    ...Array<ErcType>(size.erc721Tokens).fill('ERC-721'),
    ...Array<ErcType>(size.erc1155Tokens).fill('ERC-1155'),
  ];
  return kinds.map((ercType, t) => {
    const base = NAMES[t % NAMES.length];
    const suffix = t >= NAMES.length ? ` ${Math.floor(t / NAMES.length) + 1}` : '';
    const symbol = (base.replace(/[^A-Z]/gi, '').slice(0, 4).toUpperCase() + (suffix ? suffix.trim() : '')).slice(0, 8);
    const erc20Index = t;
    const perCall = ercType === 'ERC-721' ? 1 : 1 + (t % 2);
    const batch = ercType === 'ERC-1155' && perCall > 1;
    const coins = Math.max(2, Math.min(pool.E, intIn(6, 40, domain, K.coin, t)));
    return {
      t,
      address: pool.contract(t),
      ercType,
      name: `${base}${suffix}${ercType === 'ERC-20' ? ' Token' : ercType === 'ERC-721' ? ' Collectibles' : ' Items'}`,
      symbol,
      decimals: ercType === 'ERC-20' ? (t % 3 === 1 ? 6 : 18) : 0,
      logoUri: `https://images.sim.local/tokens/${symbol.toLowerCase()}.png`,
      // One ERC-20 per chain (the third, when there are three) is flagged as spam.
      tokenReputation: ercType !== 'ERC-20' ? null : erc20Index === 2 ? 'Malicious' : erc20Index % 2 === 0 ? 'Benign' : null,
      perCall,
      batch,
      coins: batch ? Math.max(2 * perCall, coins - (coins % perCall)) : coins,
      residue: pool.toResidue(pool.E + t),
      priceUsd: ercType === 'ERC-20' ? intIn(1, 5000, domain, K.coin, t, 1) / 100 : 0,
    };
  });
}

/**
 * The transfer stream of one contract, as closed forms. A token's supply is split into `coins`
 * units with fixed values; transfer k moves unit (k mod coins) from its current owner to a
 * hash-chosen EOA. The owner before transfer k is the receiver of transfer k - coins (the first
 * `coins` transfers are mints from the zero address), so any transfer and any balance at any
 * block is computable in O(coins), with balances never negative and exactly equal to the sum of
 * transfers in minus out.
 */
export class TokenLedger {
  constructor(readonly token: TokenContract, private readonly pool: AddressPool, private readonly domain: number) {}

  /** Transfers carried by txs [0, G). */
  transfersBefore(G: number): number {
    return countInProgression(this.token.residue, this.pool.P, G) * this.token.perCall;
  }

  /** Pool slot of the receiver of transfer k (a batch's entries share the receiver of its first). */
  receiverSlot(k: number): number {
    const { batch, perCall, t } = this.token;
    return intIn(0, this.pool.E - 1, this.domain, K.owner, t, batch ? k - (k % perCall) : k);
  }

  /** Transfer k; the caller guarantees k is below transfersBefore(totalTxs). */
  transfer(k: number): TransferRecord {
    const { token } = this;
    const call = Math.floor(k / token.perCall);
    const coin = k % token.coins;
    return {
      k,
      g: token.residue + call * this.pool.P,
      logIndex: token.batch ? 0 : k % token.perCall,
      from: k < token.coins ? ZERO_ADDRESS : this.pool.eoa(this.receiverSlot(k - token.coins)),
      to: this.pool.eoa(this.receiverSlot(k)),
      coin,
      value: this.coinValue(coin),
      tokenId: this.tokenIdOf(coin),
    };
  }

  /** ERC-20: amount of the unit; ERC-721: 1; ERC-1155: amount of the unit's token id. */
  coinValue(coin: number): bigint {
    const { t, ercType, decimals } = this.token;
    if (ercType === 'ERC-721') return 1n;
    if (ercType === 'ERC-1155') return BigInt(intIn(1, 1000, this.domain, K.value, t, coin));
    // Some units exceed 2^128 so uint256 handling is exercised end to end.
    if (unit(this.domain, K.value, t, coin, 1) < 0.15) {
      return (1n << 128n) + (BigInt(hash32(this.domain, K.value, t, coin, 2)) << 64n) + BigInt(hash32(this.domain, K.value, t, coin, 3));
    }
    return BigInt(intIn(1, 1_000_000, this.domain, K.value, t, coin, 4)) * 10n ** BigInt(decimals) + BigInt(hash32(this.domain, K.value, t, coin, 5));
  }

  tokenIdOf(coin: number): string | null {
    const { ercType } = this.token;
    if (ercType === 'ERC-721') return String(coin + 1);
    // Two units per id; in batch contracts the two units of an id are half the supply apart, so
    // the consecutive units of one batch have different ids.
    if (ercType === 'ERC-1155') return String((this.token.batch ? coin % Math.floor(this.token.coins / 2) : Math.floor(coin / 2)) + 1);
    return null;
  }

  /** Owner of each unit after the first `K` transfers (null: not minted yet). */
  owners(Kcount: number): (string | null)[] {
    const n = this.token.coins;
    const out: (string | null)[] = [];
    for (let coin = 0; coin < n; coin++) {
      if (coin >= Kcount) {
        out.push(null);
        continue;
      }
      out.push(this.pool.eoa(this.receiverSlot(this.lastTransferOf(coin, Kcount))));
    }
    return out;
  }

  /** The last of the first `K` transfers that moved unit `coin` (the caller guarantees coin < K). */
  lastTransferOf(coin: number, Kcount: number): number {
    const n = this.token.coins;
    return coin + Math.floor((Kcount - 1 - coin) / n) * n;
  }

  /**
   * The last of the first `K` transfers that moved any unit of NFT id `tokenId`, or -1 when none of
   * its units is minted yet.
   */
  lastMoveOf(tokenId: string, Kcount: number): number {
    let last = -1;
    for (let coin = 0; coin < Math.min(this.token.coins, Kcount); coin++) {
      if (this.tokenIdOf(coin) === tokenId) last = Math.max(last, this.lastTransferOf(coin, Kcount));
    }
    return last;
  }

  /** Balance of every holder after the first `K` transfers (ERC-721: count, ERC-1155: all ids summed). */
  balances(Kcount: number): Map<string, bigint> {
    const out = new Map<string, bigint>();
    this.owners(Kcount).forEach((owner, coin) => {
      if (owner !== null) out.set(owner, (out.get(owner) ?? 0n) + this.coinValue(coin));
    });
    return out;
  }
}
