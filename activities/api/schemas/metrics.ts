import { z } from 'zod';
import { pageToken } from './common.ts';
import { decimal, opt } from './fields.ts';

/**
 * Holder metrics (served at metricsUrl). sortKey is the holder's balance, an integer of up to 78
 * digits: a decimal string, or a JSON number the lossless parse keeps exact; stored as exact text.
 */
export const HolderEntry = z.looseObject({ address: z.string(), sortKey: opt(decimal) });
export type HolderEntry = z.infer<typeof HolderEntry>;

export const HoldersPage = z.looseObject({ nextPageToken: pageToken, addresses: z.array(HolderEntry) });
export type HoldersPage = z.infer<typeof HoldersPage>;
