/** Every stream the pipeline knows, one per list endpoint of the Data API (see activities/streams/). */
export const STREAM_NAMES = [
  'evm.blocks',
  'evm.transactions',
  'evm.address_transactions',
  'evm.token_transfers',
  'evm.native_balances',
  'evm.erc20_balances',
  'evm.erc721_balances',
  'evm.erc1155_balances',
  'evm.transaction_details',
  'evm.nft_tokens',
  'pn.transactions',
  'pn.utxos',
  'pn.balances',
  'pn.validators',
  'pn.rewards',
  'pn.pending_rewards',
  'pn.vertices',
  'metrics.holders',
] as const;

export type StreamName = (typeof STREAM_NAMES)[number];
