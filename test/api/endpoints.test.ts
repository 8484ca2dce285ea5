import { describe, expect, it } from 'vitest';
import { endpoints } from '../../activities/api/index.ts';
import { buildUrl } from '../../activities/api/buildUrl.ts';

const chain = { network: 'mainnet', blockchainId: 'p-chain' } as const;
const evm = { chainId: '43114', address: '0xabc' };

// Every endpoint of the interface: request line and CU weight (public service facts).
const cases = [
  [endpoints.primaryNetwork.listUtxosV2, { ...chain, addresses: ['avax1a'], pageSize: 1024 }, 'POST /v1/networks/mainnet/blockchains/p-chain/utxos?pageSize=1024', 100, 'utxos'],
  [endpoints.primaryNetwork.listUtxos, { ...chain, addresses: 'avax1a', includeSpent: false }, 'GET /v1/networks/mainnet/blockchains/p-chain/utxos?addresses=avax1a&includeSpent=false', 100, 'utxos'],
  [endpoints.primaryNetwork.listTransactions, { ...chain, addresses: ['a', 'b'], txTypes: ['AddValidatorTx', 'BaseTx'], startTimestamp: 5 }, 'GET /v1/networks/mainnet/blockchains/p-chain/transactions?addresses=a%2Cb&txTypes=AddValidatorTx%2CBaseTx&startTimestamp=5', 100, 'transactions'],
  [endpoints.primaryNetwork.getBalances, { ...chain, blockTimestamp: 7 }, 'GET /v1/networks/mainnet/blockchains/p-chain/balances?blockTimestamp=7', 100, undefined],
  [endpoints.primaryNetwork.listValidators, { network: 'fuji', validationStatus: 'active', nodeIds: ['NodeID-1'] }, 'GET /v1/networks/fuji/validators?validationStatus=active&nodeIds=NodeID-1', 20, 'validators'],
  [endpoints.primaryNetwork.listHistoricalRewards, { network: 'mainnet', nodeIds: 'NodeID-1', currency: 'eur' }, 'GET /v1/networks/mainnet/rewards?nodeIds=NodeID-1&currency=eur', 100, 'historicalRewards'],
  [endpoints.primaryNetwork.listPendingRewards, { network: 'mainnet', addresses: 'avax1a' }, 'GET /v1/networks/mainnet/rewards:listPending?addresses=avax1a', 100, 'pendingRewards'],
  [endpoints.primaryNetwork.listVertices, { network: 'mainnet', blockchainId: 'x-chain' }, 'GET /v1/networks/mainnet/blockchains/x-chain/vertices', 20, 'vertices'],
  [endpoints.primaryNetwork.listVerticesByHeight, { network: 'mainnet', blockchainId: 'x-chain', vertexHeight: 0 }, 'GET /v1/networks/mainnet/blockchains/x-chain/vertices:listByHeight?vertexHeight=0', 20, 'vertices'],
  [endpoints.evm.getNativeBalance, { ...evm, blockNumber: '9' }, 'GET /v1/chains/43114/addresses/0xabc/balances:getNative?blockNumber=9', 20, undefined],
  [endpoints.evm.listErc20Balances, { ...evm, filterSpamTokens: false, contractAddresses: ['0x1', '0x2'] }, 'GET /v1/chains/43114/addresses/0xabc/balances:listErc20?filterSpamTokens=false&contractAddresses=0x1%2C0x2', 20, 'erc20TokenBalances'],
  [endpoints.evm.listErc721Balances, { ...evm, contractAddress: '0x1' }, 'GET /v1/chains/43114/addresses/0xabc/balances:listErc721?contractAddress=0x1', 20, 'erc721TokenBalances'],
  [endpoints.evm.listErc1155Balances, evm, 'GET /v1/chains/43114/addresses/0xabc/balances:listErc1155', 20, 'erc1155TokenBalances'],
  [endpoints.evm.listTransfers, { ...evm, startBlock: 1, endBlock: 9 }, 'GET /v1/chains/43114/tokens/0xabc/transfers?startBlock=1&endBlock=9', 20, 'transfers'],
  [endpoints.evm.listNativeTransactions, { ...evm, pageToken: 't' }, 'GET /v1/chains/43114/addresses/0xabc/transactions:listNative?pageToken=t', 20, 'transactions'],
  [endpoints.evm.listLatestTransactions, { chainId: '43114', status: 'failed' }, 'GET /v1/chains/43114/transactions?status=failed', 20, 'transactions'],
  [endpoints.evm.getTransaction, { chainId: '43114', txHash: '0xff' }, 'GET /v1/chains/43114/transactions/0xff', 20, undefined],
  [endpoints.evm.listBlocks, { chainId: '43114', pageSize: 100 }, 'GET /v1/chains/43114/blocks?pageSize=100', 10, 'blocks'],
  [endpoints.evm.listChains, {}, 'GET /v1/chains', 1, undefined],
  [endpoints.evm.getNftToken, { ...evm, tokenId: '5' }, 'GET /v1/chains/43114/nfts/collections/0xabc/tokens/5', 20, undefined],
  [endpoints.metrics.listHolders, { ...evm, threshold: '1' }, 'GET /v2/chains/43114/contracts/0xabc/balances?threshold=1', 100, 'addresses'],
  [endpoints.signatureAggregation.aggregateSignatures, { network: 'fuji', justification: '0x00' }, 'POST /v1/signatureAggregator/fuji/aggregateSignatures', 100, undefined],
] as const;

describe('endpoints', () => {
  // Named by index only: formatting an endpoint (it holds a zod schema) into a test title is huge.
  it.each(cases.map((c, i) => [i, c] as const))('endpoint %i builds its request and declares its weight', (_i, [endpoint, params, requestLine, weight, listKey]) => {
    const built = endpoint.build(params as never);
    expect(`${endpoint.method} ${buildUrl('http://h', built).target}`).toBe(requestLine);
    expect(endpoint.weight).toBe(weight);
    expect((endpoint as { listKey?: string }).listKey).toBe(listKey);
  });

  it('covers every endpoint of the interface, with a unique name', () => {
    const all = Object.values(endpoints).flatMap((family) => Object.values(family));
    expect(all).toHaveLength(cases.length);
    expect(new Set(all.map((e) => e.name)).size).toBe(all.length);
    expect(all.filter((e) => e.service === 'metrics').map((e) => e.name)).toEqual(['metrics.listHolders']);
  });

  it('encodes path segments', () => {
    const built = endpoints.evm.getNftToken.build({ chainId: '43114', address: '0xabc', tokenId: 'a/b?c' });
    expect(built.path).toBe('/v1/chains/43114/nfts/collections/0xabc/tokens/a%2Fb%3Fc');
  });
});
