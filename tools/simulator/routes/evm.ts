import type { RouteDef } from '../http/route.ts';
import { addressTransactionsRoute } from './evmAddressTransactions.ts';
import { erc1155BalancesRoute, erc20BalancesRoute, erc721BalancesRoute, nativeBalanceRoute } from './evmBalances.ts';
import { blocksRoute } from './evmBlocks.ts';
import { chainsRoute } from './evmChains.ts';
import { nftTokenRoute } from './evmNfts.ts';
import { chainTransactionsRoute, transactionDetailRoute } from './evmTransactions.ts';
import { tokenTransfersRoute } from './evmTransfers.ts';

/** Every EVM endpoint of the interface. */
export const evmRoutes: RouteDef[] = [
  chainsRoute,
  blocksRoute,
  chainTransactionsRoute,
  transactionDetailRoute,
  addressTransactionsRoute,
  tokenTransfersRoute,
  nativeBalanceRoute,
  erc20BalancesRoute,
  erc721BalancesRoute,
  erc1155BalancesRoute,
  nftTokenRoute,
];
