import type { WorldSize } from '../world/size.ts';
import { AddressPool } from './addressPool.ts';
import { EvmChain } from './chain.ts';
import type { EvmChainSpec } from './chain.ts';
import { TokenLedger, buildTokens } from './tokens.ts';
import type { TokenContract } from './tokens.ts';
import { TxModel } from './transactions.ts';

/** Everything one EVM chain of the world is made of: block arithmetic, addresses, token ledgers. */
export class EvmChainModel {
  readonly chain: EvmChain;
  readonly pool: AddressPool;
  readonly tokens: TokenContract[];
  readonly ledgers: TokenLedger[];
  readonly txs: TxModel;
  private readonly tokenByAddress = new Map<string, number>();

  constructor(spec: EvmChainSpec, seed: number, size: WorldSize, steps: () => number) {
    this.chain = new EvmChain(spec, seed, size, steps);
    const contracts = size.erc20Tokens + size.erc721Tokens + size.erc1155Tokens;
    this.pool = new AddressPool(seed, this.chain.domain, size.evmAddresses, contracts);
    this.tokens = buildTokens(size, this.chain.domain, this.pool);
    this.ledgers = this.tokens.map((t) => new TokenLedger(t, this.pool, this.chain.domain));
    this.tokens.forEach((t) => this.tokenByAddress.set(t.address, t.t));
    this.txs = new TxModel(this);
  }

  get spec(): EvmChainSpec {
    return this.chain.spec;
  }

  /** Token contract at this (lower-case) address, if any. */
  token(address: string): TokenContract | undefined {
    const t = this.tokenByAddress.get(address);
    return t === undefined ? undefined : this.tokens[t];
  }

  /** Token index called by tx g, or -1 for a transfer between EOAs. */
  calledToken(g: number): number {
    const slot = this.pool.toSlot(g);
    return slot >= this.pool.E ? slot - this.pool.E : -1;
  }
}
