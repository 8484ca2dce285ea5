import type { StreamName } from '../../common/streamNames.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { evmAddressTransactions } from './evmAddressTransactions.ts';
import { evmBlocks } from './evmBlocks.ts';
import { evmErc1155Balances } from './evmErc1155Balances.ts';
import { evmErc20Balances } from './evmErc20Balances.ts';
import { evmErc721Balances } from './evmErc721Balances.ts';
import { evmNativeBalances } from './evmNativeBalances.ts';
import { evmNftTokens } from './evmNftTokens.ts';
import { evmTokenTransfers } from './evmTokenTransfers.ts';
import { evmTransactionDetails } from './evmTransactionDetails.ts';
import { evmFailedTransactions } from './evmFailedTransactions.ts';
import { evmTransactions } from './evmTransactions.ts';
import { metricsHolders } from './metricsHolders.ts';
import { pnBalances } from './pnBalances.ts';
import { pnPendingRewards } from './pnPendingRewards.ts';
import { pnRewards } from './pnRewards.ts';
import { pnTransactions } from './pnTransactions.ts';
import { pnUtxos } from './pnUtxos.ts';
import { pnValidators } from './pnValidators.ts';
import { pnVertices } from './pnVertices.ts';
import { pnVerticesByHeight } from './pnVerticesByHeight.ts';
import type { StreamDriver } from './streamDef.ts';

/**
 * The stream catalog: every stream by name, one line each. The only list of streams (STREAM_NAMES
 * derives from it) and the only source of table and column identifiers.
 */
export const STREAMS: Record<StreamName, StreamDriver> = {
  'evm.blocks': evmBlocks,
  'evm.transactions': evmTransactions,
  'evm.failed_transactions': evmFailedTransactions,
  'evm.address_transactions': evmAddressTransactions,
  'evm.token_transfers': evmTokenTransfers,
  'evm.native_balances': evmNativeBalances,
  'evm.erc20_balances': evmErc20Balances,
  'evm.erc721_balances': evmErc721Balances,
  'evm.erc1155_balances': evmErc1155Balances,
  'evm.transaction_details': evmTransactionDetails,
  'evm.nft_tokens': evmNftTokens,
  'pn.transactions': pnTransactions,
  'pn.utxos': pnUtxos,
  'pn.balances': pnBalances,
  'pn.validators': pnValidators,
  'pn.rewards': pnRewards,
  'pn.pending_rewards': pnPendingRewards,
  'pn.vertices': pnVertices,
  'pn.vertices_by_height': pnVerticesByHeight,
  'metrics.holders': metricsHolders,
};

/** Every stream name, in catalog order. */
export const STREAM_NAMES: readonly StreamName[] = Object.keys(STREAMS);

/** The streams a config that names none runs: every stream but the opt-in ones. */
export const DEFAULT_STREAMS: readonly StreamName[] = STREAM_NAMES.filter((name) => !STREAMS[name].optIn);

/** The stream of a name from outside the catalog (a partition, a request): an unknown name is an error that names it. */
export function streamOf(name: StreamName): StreamDriver {
  if (!Object.hasOwn(STREAMS, name)) throw new Error(`unknown stream "${name}" (streams: ${STREAM_NAMES.join(', ')})`);
  return STREAMS[name];
}

/** Every table of every stream, once, in catalog order. */
export function allTables(): TableDef[] {
  const byName = new Map<string, TableDef>();
  for (const stream of Object.values(STREAMS)) for (const t of stream.tables) if (!byName.has(t.name)) byName.set(t.name, t);
  return [...byName.values()];
}

export function tableByName(name: string): TableDef | undefined {
  return allTables().find((t) => t.name === name);
}
