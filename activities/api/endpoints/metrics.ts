import { CU, defineList, seg, type PageParams } from '../endpoint.ts';
import { HoldersPage } from '../schemas/metrics.ts';

/** Holder metrics, on metricsUrl with its own budget (Medium there = 100 CU). */
export const listHolders = defineList({
  name: 'metrics.listHolders',
  method: 'GET',
  service: 'metrics',
  weight: CU.xl,
  maxPageSize: 5000,
  listKey: 'addresses',
  schema: HoldersPage,
  build: (p: { chainId: string; address: string; threshold: string; startTimestamp?: number; endTimestamp?: number } & PageParams) => ({
    path: `/v2/chains/${seg(p.chainId)}/contracts/${seg(p.address)}/balances`,
    query: { threshold: p.threshold, startTimestamp: p.startTimestamp, endTimestamp: p.endTimestamp, pageToken: p.pageToken, pageSize: p.pageSize },
  }),
});
