import type { EvmChainModel } from './chainModel.ts';
import { nftMetadata, tokenUri } from './nftMetadata.ts';
import type { TokenContract, TokenLedger, TransferRecord } from './tokens.ts';
import { asciiBytes, spellText } from '../http/asciiWriter.ts';
import type { AsciiWriter } from '../http/asciiWriter.ts';
import { intIn4 } from '../world/hash.ts';
import { K, ZERO_ADDRESS } from './chain.ts';
import { money } from './money.ts';

/** The token object a transfer carries, keyed by its ERC type. */
export function tokenObject(model: EvmChainModel, token: TokenContract, tokenId: string | null, updatedAt: number): [string, Record<string, unknown>] {
  if (token.ercType === 'ERC-20') {
    return [
      'erc20Token',
      {
        address: token.address, name: token.name, symbol: token.symbol, decimals: token.decimals, logoUri: token.logoUri,
        ercType: token.ercType, price: money(token.priceUsd, 'usd'),
      },
    ];
  }
  const id = tokenId ?? '0';
  const nft = {
    address: token.address, ercType: token.ercType, tokenId: id, tokenUri: tokenUri(token, id),
    metadata: nftMetadata(model.chain.domain, token, id, updatedAt),
  };
  if (token.ercType === 'ERC-721') return ['erc721Token', { ...nft, name: token.name, symbol: token.symbol }];
  return ['erc1155Token', nft];
}

/** JSON text of the ERC-20 token object of each contract (it depends on the contract only). */
const erc20TokenJson = new WeakMap<TokenContract, string>();

/** Fixed fragments of transferListText, in field order. */
const F = {
  blockNumber: asciiBytes('{"blockNumber":"'), blockTimestamp: asciiBytes('","blockTimestamp":'), blockHash: asciiBytes(',"blockHash":"0x'),
  txHash: asciiBytes('","txHash":"0x'), from: asciiBytes('","from":'), to: asciiBytes(',"to":'), logIndex: asciiBytes(',"logIndex":'),
};

/** Precomputed bytes of one contract's transfers: everything that depends on the unit or the contract only. */
interface LedgerBytes {
  /** '{"address":"<eoa>"}' of every EOA slot; the zero address (mints) last. */
  address: Uint8Array[];
  /** ',"value":"<amount>",' of every unit (ERC-721: just ','). */
  value: Uint8Array[];
  /** '"erc20Token":<object>}' (ERC-20 only). */
  erc20Tail: Uint8Array | null;
}
const LEDGER_BYTES = new WeakMap<TokenLedger, LedgerBytes>();

function ledgerBytes(model: EvmChainModel, ledger: TokenLedger): LedgerBytes {
  let lb = LEDGER_BYTES.get(ledger);
  if (lb !== undefined) return lb;
  const { token } = ledger;
  const { pool } = model;
  const address = Array.from({ length: pool.E + 1 }, (_, e) => asciiBytes(`{"address":"${e < pool.E ? pool.eoa(e) : ZERO_ADDRESS}"}`));
  const value = Array.from({ length: token.coins }, (_, coin) => asciiBytes(token.ercType !== 'ERC-721' ? `,"value":"${ledger.coinValue(coin)}",` : ','));
  const erc20Tail = token.ercType === 'ERC-20' ? asciiBytes(`"erc20Token":${JSON.stringify(tokenObject(model, token, null, 0)[1])}}`) : null;
  lb = { address, value, erc20Tail };
  LEDGER_BYTES.set(ledger, lb);
  return lb;
}

/**
 * Transfer k of a contract (an entry of `/tokens/:address/transfers`) as JSON text: writeTransfer
 * as a string (the list writes into its page buffer).
 */
export function transferListText(model: EvmChainModel, ledger: TokenLedger, k: number): string {
  return spellText((w) => writeTransfer(w, model, ledger, k));
}

/**
 * Spells transfer k of the ledger into w, field by field: the same bytes as transferListTemplate
 * of ledger.transfer(k), which documents them. Addresses, amounts and the ERC-20 token object are
 * precomputed per contract; NFT token objects (which vary with the token id and timestamp) are
 * serialized by JSON.stringify.
 */
export function writeTransfer(w: AsciiWriter, model: EvmChainModel, ledger: TokenLedger, k: number): void {
  const { chain, pool } = model;
  const { token } = ledger;
  const lb = ledgerBytes(model, ledger);
  const perCall = token.perCall;
  const call = Math.floor(k / perCall);
  const g = token.residue + call * pool.P;
  const block = chain.blockOf(g);
  const ts = chain.timestamp(block);
  w.bytes(F.blockNumber);
  w.uint(block);
  w.bytes(F.blockTimestamp);
  w.uint(ts);
  w.bytes(F.blockHash);
  chain.writeBlockHashDigits(w, block);
  w.bytes(F.txHash);
  chain.writeTxHashDigits(w, g);
  w.bytes(F.from);
  // ledger.receiverSlot, without the rest array.
  const coins = token.coins;
  const d = chain.domain;
  // A batch's entries share the receiver drawn for its first entry, and one log index (0).
  const first = token.batch ? call * perCall : k;
  w.bytes(lb.address[k < coins ? pool.E : intIn4(0, pool.E - 1, d, K.owner, token.t, first - coins)]);
  w.bytes(F.to);
  w.bytes(lb.address[intIn4(0, pool.E - 1, d, K.owner, token.t, first)]);
  w.bytes(F.logIndex);
  w.uint(token.batch ? 0 : k - call * perCall);
  const coin = k % coins;
  w.bytes(lb.value[coin]);
  if (lb.erc20Tail !== null) {
    w.bytes(lb.erc20Tail);
    return;
  }
  // NFTs: names and symbols are ASCII, so the latin1 spelling of the JSON is its UTF-8.
  const [key, obj] = tokenObject(model, token, ledger.tokenIdOf(coin), ts);
  w.ascii(`${JSON.stringify(key)}:${JSON.stringify(obj)}}`);
}

/**
 * transferListText as a template, from a TransferRecord (the reference spelling of writeTransfer;
 * tests compare them). Addresses, hashes and numbers need no escaping; the token object is
 * serialized by JSON.stringify (cached for ERC-20, whose token object is the same for every transfer).
 */
export function transferListTemplate(model: EvmChainModel, token: TokenContract, tr: TransferRecord): string {
  const { chain } = model;
  const block = chain.blockOf(tr.g);
  const ts = chain.timestamp(block);
  let tokenPart: string;
  if (token.ercType === 'ERC-20') {
    let json = erc20TokenJson.get(token);
    if (json === undefined) {
      json = JSON.stringify(tokenObject(model, token, tr.tokenId, ts)[1]);
      erc20TokenJson.set(token, json);
    }
    tokenPart = `"erc20Token":${json}`;
  } else {
    const [key, obj] = tokenObject(model, token, tr.tokenId, ts);
    tokenPart = `${JSON.stringify(key)}:${JSON.stringify(obj)}`;
  }
  return (
    `{"blockNumber":"${block}","blockTimestamp":${ts},"blockHash":"${chain.blockHash(block)}","txHash":"${chain.txHash(tr.g)}",` +
    `"from":{"address":"${tr.from}"},"to":{"address":"${tr.to}"},"logIndex":${tr.logIndex},` +
    (token.ercType !== 'ERC-721' ? `"value":"${tr.value}",` : '') +
    tokenPart +
    '}'
  );
}

/** An entry of `/tokens/:address/transfers` as an object. */
export function transferListJson(model: EvmChainModel, token: TokenContract, tr: TransferRecord): Record<string, unknown> {
  return JSON.parse(transferListTemplate(model, token, tr)) as Record<string, unknown>;
}

/** A transfer inside a transaction detail: from, to, logIndex, value (not ERC-721), token object. */
export function transferDetailJson(model: EvmChainModel, token: TokenContract, tr: TransferRecord): Record<string, unknown> {
  const ts = model.chain.timestamp(model.chain.blockOf(tr.g));
  const [key, obj] = tokenObject(model, token, tr.tokenId, ts);
  const out: Record<string, unknown> = { from: { address: tr.from }, to: { address: tr.to }, logIndex: tr.logIndex };
  if (token.ercType !== 'ERC-721') out.value = String(tr.value);
  out[key] = obj;
  return out;
}
