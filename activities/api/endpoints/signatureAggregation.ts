import { CU, defineEndpoint, seg } from '../endpoint.ts';
import { SignedMessageResponse } from '../schemas/signatureAggregation.ts';
import type { Network } from './primaryNetwork.ts';

export interface AggregateSignaturesBody {
  /** Hex, optional 0x; either message or justification. */
  message?: string;
  justification?: string;
  signingSubnetId?: string;
  quorumPercentage?: number;
  quorumPercentageBuffer?: number;
  pChainHeight?: number;
}

/** Weight not published; assumed XL (it fans out to a subnet's validators). */
export const aggregateSignatures = defineEndpoint({
  name: 'signatureAggregator.aggregateSignatures',
  method: 'POST',
  service: 'data',
  weight: CU.xl,
  schema: SignedMessageResponse,
  build: ({ network, ...body }: { network: Network } & AggregateSignaturesBody) => ({
    path: `/v1/signatureAggregator/${seg(network)}/aggregateSignatures`,
    query: {},
    body,
  }),
});
