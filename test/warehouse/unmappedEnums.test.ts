import { describe, expect, it } from 'vitest';
import { STREAMS } from '../../activities/streams/catalog.ts';
import { scanItems } from '../../activities/streams/unmapped.ts';

/**
 * Issue 40: a new value of an enumeration is recorded wherever the field sits, also inside an object
 * a column keeps whole (teleporterMessageInfo, the child table's row) or that goes to _extra whole.
 */
describe('new enum values inside values kept whole', () => {
  it('are recorded as new_enum_value at their path', () => {
    const detail = {
      txHash: '0x1',
      detail: {
        nativeTransaction: { txHash: '0x1', method: { callType: 'CONTRACT_CALL' } },
        teleporterMessageInfo: { teleporterMessageId: 'm', direction: 'RELAY_TRANSACTION' },
      },
    };
    const transfer = { txHash: '0x2', logIndex: 0, erc1155Token: { address: '0xc', tokenId: '1', ercType: 'ERC-404', metadata: { indexStatus: 'REINDEXING' } } };
    const seen = (stream: keyof typeof STREAMS, item: object) =>
      [...scanItems([item], STREAMS[stream].fields()).drift.values()].filter((d) => d.kind === 'new_enum_value').map((d) => d.path);
    expect(seen('evm.transaction_details', detail)).toEqual(['detail.teleporterMessageInfo.direction=RELAY_TRANSACTION']);
    expect(seen('evm.token_transfers', transfer).sort()).toEqual(['erc1155Token.ercType=ERC-404', 'erc1155Token.metadata.indexStatus=REINDEXING']);
  });
});
