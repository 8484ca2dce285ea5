import { describe, expect, it } from 'vitest';
import { BlocksPage, ErrorBody, PrimaryNetworkTransactionsPage, UtxosPage, Erc20BalancesPage, Validator } from '../../activities/api/schemas/index.ts';
import { validateResponse } from '../../activities/api/validateResponse.ts';
import { ResponseValidationError } from '../../activities/api/errors.ts';

const request = { method: 'GET', target: '/v1/chains/43114/blocks' };

describe('response schemas', () => {
  it('keep unknown fields, accept unknown enum values, and keep huge amounts as exact strings', () => {
    const page = validateResponse(
      Erc20BalancesPage,
      {
        nextPageToken: 'abc',
        erc20TokenBalances: [
          { address: '0x1', balance: '115792089237316195423570985008687907853269984665640564039457584007913129639935', tokenReputation: null, ercType: 'ERC-9999', brandNew: { x: 1 } },
        ],
      },
      request,
    );
    const [entry] = page.erc20TokenBalances;
    expect(entry.balance).toBe('115792089237316195423570985008687907853269984665640564039457584007913129639935');
    expect(entry.ercType).toBe('ERC-9999');
    expect(entry.tokenReputation).toBeNull();
    expect(entry.brandNew).toEqual({ x: 1 });
  });

  it('accept the X-chain UTXO shape (lowercase utxoType, string outputIndex, numeric amount)', () => {
    const page = validateResponse(
      UtxosPage,
      { utxos: [{ utxoId: 'u1', utxoType: 'mint', outputIndex: '3', asset: { assetId: 'a', amount: 12345 }, creationTxHash: 't', timestamp: 1700000000 }] },
      request,
    );
    expect(page.utxos[0]).toMatchObject({ utxoType: 'mint', outputIndex: 3, asset: { amount: '12345' }, creationTxHash: 't' });
    expect(page.nextPageToken).toBeUndefined();
  });

  it('accept P-chain transactions with L1 validator details and X-chain shapes in one list', () => {
    const page = validateResponse(
      PrimaryNetworkTransactionsPage,
      {
        nextPageToken: 't2',
        transactions: [
          { txHash: 'p1', txType: 'ConvertSubnetToL1Tx', l1ValidatorDetails: [{ validationId: 'v', weight: 5, blsCredentials: { anything: true } }] },
          { txHash: 'x1', txType: 'OperationTx', chainFormat: 'non-linear', amountUnlocked: [{ assetId: 'a', amount: '1' }], vertices: [] },
          { txHash: 'c1', txType: 'FutureTx', evmInputs: [{ fromAddress: '0x' }] },
        ],
      },
      request,
    );
    expect(page.transactions.map((t) => t.txType)).toEqual(['ConvertSubnetToL1Tx', 'OperationTx', 'FutureTx']);
  });

  it('name the path of a wrong-shaped body', () => {
    const attempt = (body: unknown) => () => validateResponse(BlocksPage, body, request);
    expect(attempt({ blocks: {} })).toThrow(ResponseValidationError);
    expect(attempt({ blocks: {} })).toThrow(/at blocks:/);
    expect(attempt({ nextPageToken: 'x' })).toThrow(/at blocks:/);
    expect(attempt({ blocks: [{ blockHash: '0x1', blockNumber: '1' }, { blockNumber: '2' }] })).toThrow(/at blocks\[1\]\.blockHash/);
    try {
      attempt({ blocks: 1 })();
    } catch (error) {
      expect(error).toMatchObject({ kind: 'response-validation', path: 'blocks' });
    }
  });

  it('accept an error message as a string or an array of strings', () => {
    expect(ErrorBody.parse({ message: ['Invalid address format'], statusCode: 400, error: 'Bad Request' }).message).toEqual(['Invalid address format']);
    expect(ErrorBody.parse({ message: 'nope' }).message).toBe('nope');
  });

  it('require the id of a resource', () => {
    expect(Validator.safeParse({ validationStatus: 'active' }).success).toBe(false);
    expect(Validator.safeParse({ nodeId: 'NodeID-1', validationStatus: 'weird', uptimePerformance: '99.5' }).data?.uptimePerformance).toBe(99.5);
  });
});
