import { hexBytes, hash32 } from '../world/hash.ts';
import { K } from './chain.ts';

/**
 * The addresses that take part in a chain's transactions: E externally-owned accounts (shared by
 * every chain, like real wallets) followed by the chain's C token contracts, P = E + C slots.
 * Global tx g is sent by EOA (g mod E) to slot ((g + d) mod P), so the txs of any address form
 * one or two arithmetic progressions: an address's k-th transaction is index arithmetic.
 */
export class AddressPool {
  readonly E: number;
  readonly C: number;
  readonly P: number;
  /** Offset of the `to` progression, so from and to differ for most txs. */
  readonly d: number;
  private readonly bySlot: string[];
  private readonly slots = new Map<string, number>();

  constructor(seed: number, domain: number, eoaCount: number, contractCount: number) {
    this.E = Math.max(2, eoaCount);
    this.C = contractCount;
    this.P = this.E + this.C;
    this.d = 1 + (hash32(domain, K.eoa, 0) % (this.P - 1));
    this.bySlot = [];
    for (let e = 0; e < this.E; e++) this.bySlot.push('0x' + hexBytes(20, seed, K.eoa, e));
    for (let t = 0; t < this.C; t++) this.bySlot.push('0x' + hexBytes(20, domain, K.contract, t));
    this.bySlot.forEach((a, i) => this.slots.set(a, i));
  }

  address(slot: number): string {
    return this.bySlot[slot];
  }

  eoa(e: number): string {
    return this.bySlot[e];
  }

  contract(t: number): string {
    return this.bySlot[this.E + t];
  }

  /** Slot of a (lower-case) address, or undefined for addresses outside the world. */
  slotOf(address: string): number | undefined {
    return this.slots.get(address);
  }

  fromSlot(g: number): number {
    return g % this.E;
  }

  toSlot(g: number): number {
    return (g + this.d) % this.P;
  }

  /** Residue r such that toSlot(g) === slot exactly when g ≡ r (mod P). */
  toResidue(slot: number): number {
    return (((slot - this.d) % this.P) + this.P) % this.P;
  }
}

/** Largest i < x with i ≡ r (mod M), or -1. */
export function prevInProgression(r: number, M: number, x: number): number {
  if (x <= r) return -1;
  return r + Math.floor((x - 1 - r) / M) * M;
}

/** Count of i in [0, x) with i ≡ r (mod M). */
export function countInProgression(r: number, M: number, x: number): number {
  return x <= r ? 0 : Math.floor((x - 1 - r) / M) + 1;
}
