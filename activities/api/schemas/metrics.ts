import { z } from 'zod';
import { pageToken } from './common.ts';
import { integer, opt } from './fields.ts';

/** Holder metrics (served at metricsUrl). */
export const HolderEntry = z.looseObject({ address: z.string(), sortKey: opt(integer) });
export type HolderEntry = z.infer<typeof HolderEntry>;

export const HoldersPage = z.looseObject({ nextPageToken: pageToken, addresses: z.array(HolderEntry) });
export type HoldersPage = z.infer<typeof HoldersPage>;
