import { hash32, hexBytes, intIn, unit } from '../world/hash.ts';
import { K } from './chain.ts';
import type { EvmChainModel } from './chainModel.ts';
import type { EvmWorld } from './evmWorld.ts';
import { NATIVE_USD_PRICE, money } from './money.ts';
import { transferDetailJson } from './transferJson.ts';

const INTERNAL_TYPES = ['CALL', 'CALL', 'CALL', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2', 'CALLCODE', 'UNKNOWN'];

/** Response of `/transactions/:txHash`: the transfers are exactly those of the transfers list. */
export function txDetailJson(evm: EvmWorld, model: EvmChainModel, g: number): Record<string, unknown> {
  const { chain, txs, pool } = model;
  const d = chain.domain;
  const t = model.calledToken(g);
  const erc20Transfers: Record<string, unknown>[] = [];
  const erc721Transfers: Record<string, unknown>[] = [];
  const erc1155Transfers: Record<string, unknown>[] = [];
  const internalTransactions: Record<string, unknown>[] = [];
  if (t >= 0) {
    const ledger = model.ledgers[t];
    const token = ledger.token;
    const call = Math.floor((g - token.residue) / pool.P);
    const target = token.ercType === 'ERC-20' ? erc20Transfers : token.ercType === 'ERC-721' ? erc721Transfers : erc1155Transfers;
    for (let q = 0; q < token.perCall; q++) target.push(transferDetailJson(model, token, ledger.transfer(call * token.perCall + q)));
    const n = intIn(1, 2, d, K.internal, g);
    for (let i = 0; i < n; i++) {
      const gasLimit = BigInt(intIn(5000, 50_000, d, K.internal, g, i, 1));
      internalTransactions.push({
        from: { address: token.address },
        to: { address: pool.eoa(intIn(0, pool.E - 1, d, K.internal, g, i, 2)) },
        internalTxType: INTERNAL_TYPES[hash32(d, K.internal, g, i, 3) % INTERNAL_TYPES.length],
        value: '0',
        isReverted: unit(d, K.internal, g, i, 4) < 0.03,
        gasUsed: String((gasLimit * 7n) / 10n),
        gasLimit: String(gasLimit),
      });
    }
  }
  const out: Record<string, unknown> = {
    erc20Transfers,
    erc721Transfers,
    erc1155Transfers,
    internalTransactions,
    networkTokenDetails: {
      networkToken: { ...model.spec.token },
      currentPrice: money(NATIVE_USD_PRICE[model.spec.token.symbol] ?? 0, 'usd'),
      historicalPrice: money((NATIVE_USD_PRICE[model.spec.token.symbol] ?? 0) * 0.9, 'usd'),
    },
    nativeTransaction: txs.nativeDetail(g),
  };
  // Some contract calls are cross-chain (teleporter) messages to another chain of the world.
  if (t >= 0 && unit(d, K.teleporter, g) < 0.1) {
    const others = evm.chains.filter((c) => c !== model);
    const other = others[hash32(d, K.teleporter, g, 1) % others.length];
    const outgoing = unit(d, K.teleporter, g, 2) < 0.5;
    out.teleporterMessageInfo = {
      teleporterMessageId: '0x' + hexBytes(32, d, K.teleporter, g, 3),
      direction: outgoing ? 'SOURCE_TRANSACTION' : 'DESTINATION_TRANSACTION',
      sourceChainId: outgoing ? model.spec.blockchainId : other.spec.blockchainId,
      destinationChainId: outgoing ? other.spec.blockchainId : model.spec.blockchainId,
    };
  }
  return out;
}
